// The outbox: messages a transaction commits together with the change they describe, published
// afterwards by the relay (core/domain/outbox_relay.h). Ids are gap-free and in commit order (see
// the migration), and a committed append notifies PostgreSQL channel kOutboxNotifyChannel.
#ifndef NETGRAPH_CORE_STORE_OUTBOX_H_
#define NETGRAPH_CORE_STORE_OUTBOX_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

inline constexpr const char* kOutboxNotifyChannel = "netgraph_outbox";

// Takes the next outbox id. The sequence row stays locked until the transaction ends, so other
// appenders wait here: take it as late in the transaction as possible.
Result<std::int64_t> NextOutboxId(Connection& db);
// Appends the message under `id` (from NextOutboxId in the same transaction); notifies at commit.
Status AppendOutbox(Connection& db, std::int64_t id, std::string_view channel,
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
Status MarkOutboxPublished(Connection& db, std::int64_t up_to_id);
// Deletes messages published more than `age_seconds` ago; returns how many.
Result<std::int64_t> PrunePublishedOutbox(Connection& db, std::int64_t age_seconds);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_OUTBOX_H_
