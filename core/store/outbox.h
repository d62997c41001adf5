// The outbox: messages a transaction commits together with the change they describe, published
// afterwards by the relay (core/domain/outbox_relay.h). Ids are gap-free and in commit order (see
// the migration), and a committed append notifies PostgreSQL channel kOutboxNotifyChannel.
#ifndef NETGRAPH_CORE_STORE_OUTBOX_H_
#define NETGRAPH_CORE_STORE_OUTBOX_H_

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

inline constexpr const char* kOutboxNotifyChannel = "netgraph_outbox";

// An outbox id and the epoch it belongs to: ids start over (at 1) only in a new epoch, a random
// name the database got when it was created (see the migration 0004_outbox_epoch.sql).
struct OutboxPosition {
  std::string epoch;
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
// epoch they belong to (the current one). Ids are gap-free, so a page shorter than the range
// asked for means the rest was pruned (NETGRAPH_OUTBOX_RETENTION_SECONDS) or never committed.
struct OutboxPage {
  std::string epoch;
  std::vector<OutboxRow> rows;
};
Result<OutboxPage> OutboxAfter(Connection& db, std::int64_t after_id, std::int64_t limit);

// Deletes messages published more than `age_seconds` ago; returns how many.
Result<std::int64_t> PrunePublishedOutbox(Connection& db, std::int64_t age_seconds);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_OUTBOX_H_
