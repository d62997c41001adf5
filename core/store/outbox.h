// The outbox: messages a transaction commits together with the change they describe, published
// afterwards by the relay (core/domain/outbox_relay.h). Ids are gap-free and in commit order (see
// the migration), and a committed append notifies PostgreSQL channel kOutboxNotifyChannel.
#ifndef NETGRAPH_CORE_STORE_OUTBOX_H_
#define NETGRAPH_CORE_STORE_OUTBOX_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

inline constexpr const char* kOutboxNotifyChannel = "netgraph_outbox";

// An outbox id and the epoch it belongs to. An epoch is a random name for a run of ids that only
// ever grows: a database created afresh gets one (0004_outbox_epoch.sql) and its ids start at 1;
// the relay starts a new one where it finds the database rewound (0005_outbox_epoch_start.sql:
// restored from a dump), whose ids continue after epoch_start. Ids up to epoch_start belong to
// earlier epochs.
struct OutboxPosition {
  std::string epoch;
  std::int64_t epoch_start = 0;
  std::int64_t id = 0;
  // When the position was read, on the database's clock (microseconds since the Unix epoch). For
  // NextOutboxId, taken as late in the transaction as it is, this stands for the commit instant
  // that the relay lag and netgraph-ws's update lag count from.
  std::int64_t read_unix_us = 0;
};

// Takes the next outbox id. The sequence row stays locked until the transaction ends, so other
// appenders wait here: take it as late in the transaction as possible.
Result<OutboxPosition> NextOutboxId(Connection& db);
// Appends the message under `position` (from NextOutboxId in the same transaction), with its
// read_unix_us as the row's created_at; notifies at commit.
Status AppendOutbox(Connection& db, const OutboxPosition& position, std::string_view channel,
                    std::string_view payload);

struct OutboxRow {
  std::int64_t id = 0;
  std::string channel;
  std::string payload;
};

// Serialises relays across processes and hosts: true when this transaction holds the relay's
// advisory lock (until it ends), false when another relay does.
Result<bool> TryLockOutboxRelay(Connection& db);
// Whether any committed message is unpublished: one probe of the pending rows' index, no lock. A
// relay woken by a change that appended nothing (most claims: store::kInvestmentNotifyChannel)
// learns from it that there is nothing to publish without opening a pass.
Result<bool> OutboxHasPending(Connection& db);
// The oldest unpublished messages, in id order.
Result<std::vector<OutboxRow>> PendingOutbox(Connection& db, std::int64_t limit);
// Marks the messages up to `up_to_id` published now; returns, for each, how long after its
// created_at that is (the database's clock on both sides).
Result<std::vector<std::chrono::microseconds>> MarkOutboxPublished(Connection& db,
                                                                   std::int64_t up_to_id);
// How many committed messages are not yet published.
Result<std::int64_t> OutboxBacklog(Connection& db);
// The epoch and the last id taken by a committed transaction: every message up to it is readable
// (until pruned), and the next one committed will be id + 1. Takes no lock.
Result<OutboxPosition> OutboxHead(Connection& db);

// Messages with ids after `after_id`, published or not, in id order, at most `limit`, with the
// current epoch and where it starts (rows up to epoch_start belong to earlier epochs). Ids are
// gap-free, so a page shorter than the range asked for means the rest was pruned
// (NETGRAPH_OUTBOX_RETENTION_SECONDS) or never committed.
struct OutboxPage {
  std::string epoch;
  std::int64_t epoch_start = 0;
  std::vector<OutboxRow> rows;
};
Result<OutboxPage> OutboxAfter(Connection& db, std::int64_t after_id, std::int64_t limit);

// The lowercase hex SHA-256 of message `id`'s payload, or nullopt when there is no such row (never
// appended, or pruned): what the relay compares with the payload it published under that id.
Result<std::optional<std::string>> OutboxPayloadDigest(Connection& db, std::int64_t id);

// Starts a new epoch (a new random name) whose ids follow `after_id`, which must not exceed the
// last id taken; returns its name. For the relay, which holds the sequence row's lock until its
// transaction ends, and for operators resetting the outbox by hand.
Result<std::string> StartOutboxEpoch(Connection& db, std::int64_t after_id);

// Deletes messages published more than `age_seconds` ago; returns how many.
Result<std::int64_t> PrunePublishedOutbox(Connection& db, std::int64_t age_seconds);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_OUTBOX_H_
