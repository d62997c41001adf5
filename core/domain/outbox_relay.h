// The outbox relay: publishes committed outbox rows (graph changes, see graph_change.h; the rows
// are core/store/outbox.h) on Redis in id order and marks them published, so a Redis outage delays
// updates but loses none. Delivery is at least once: a crash between PUBLISH and the commit of the
// mark re-publishes the batch, and subscribers skip a `sequence` they have seen.
//
// Each message goes out under the outbox's epoch as it stands when the relay publishes it (the
// payload's "epoch", set here and so covered by the MAC: update_authenticator.h), which netgraph-ws
// confirms against PostgreSQL before it follows a new one (ws/update_feed.h).
//
// A database restored from a dump taken earlier (pg_restore, or psql of a plain dump) comes back
// with the epoch and last id it had then, although later ids of that epoch went out already:
// subscribers would drop the ids taken again as repeats. So the relay remembers the last message it
// published (epoch, id and a SHA-256 of its payload), in memory and, signed like the updates, in
// Redis under kPublishedMarkKey, where a relay that restarted, or runs on another host, finds it.
// Before publishing it checks that the database still holds that message: when the outbox's last
// id is below it, or its row has another payload, the database was rewound, and the relay starts a
// new epoch (store::StartOutboxEpoch) whose ids begin with the first pending message, commits it,
// and only then publishes under it (so that netgraph-ws, reading the outbox, finds it). A note of
// another epoch says nothing about this one (the database was reset, or another relay started a new
// epoch already), and without a note (Redis lost it, and this relay has published nothing yet)
// nothing can be checked: docs/reliability.md, "Restoring a backup".
//
// Relays on several hosts are safe: each batch runs in a transaction holding an advisory lock, so
// one relay publishes at a time and the order holds. This is one relay's work, pass by pass; the
// process that runs it (waking at commit, polling as a fallback, back-off when PostgreSQL or Redis
// fails, housekeeping now and then, stopping on a signal) is fcgi/pool/outbox_relay_process.h.
#ifndef NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_
#define NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/config/environment.h"
#include "core/domain/update_authenticator.h"
#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/outbox.h"
#include "core/store/redis.h"

namespace netgraph::domain {

// The Redis key of the relay's note of the last message published (see above).
inline constexpr std::string_view kPublishedMarkKey = "netgraph:outbox:published";

struct RelayOptions {
  std::int64_t batch_size = 100;
  std::chrono::milliseconds poll_interval{1000};  // NETGRAPH_RELAY_POLL_MS
  std::chrono::milliseconds max_backoff{5000};    // NETGRAPH_RELAY_MAX_BACKOFF_MS
  std::chrono::seconds housekeeping_interval{60};
  std::int64_t retention_seconds = 86400;  // NETGRAPH_OUTBOX_RETENTION_SECONDS

  static RelayOptions FromEnvironment(config::Environment& env);
};

class OutboxRelay {
 public:
  // Each message is sealed by `updates` (signed unless signing is off) before it is published.
  OutboxRelay(store::Connection& db, store::RedisClient& redis, const UpdateAuthenticator& updates,
              RelayOptions options)
      : db_(db), redis_(redis), updates_(updates), options_(options) {}

  struct Pass {
    std::int64_t published = 0;
    bool more_pending = false;    // a full batch went out: call again at once
    Status redis = Status::Ok();  // why publishing stopped early, if it did
    // For each message published, the time from its append (store::OutboxPosition) to its mark.
    std::vector<std::chrono::microseconds> lags;
    std::int64_t backlog = 0;  // messages committed and still unpublished after the pass
    // The epoch the pass started because the database was rewound (empty: none); such a pass
    // publishes nothing, and says more_pending.
    std::string new_epoch;
  };
  // One batch: listens for appends (see AwaitAppend), publishes pending rows in order until one
  // fails, marks the published ones, counts what is left. With nothing pending it only says so
  // (one statement, no transaction). An error is a database failure; a Redis
  // failure is reported in Pass::redis.
  Result<Pass> PublishPending();

  // What a wait heard besides appends: a change of the investment figures, which writes no outbox
  // row (store::kInvestmentNotifyChannel, every claim's); the users whose portfolios changed
  // (store::kPortfolioNotifyChannel) and those whose rows did (store::kUserRowNotifyChannel).
  struct Changes {
    bool data = false;
    std::vector<std::int64_t> users;
    bool all = false;  // every user's (or an announcement naming no user it could read)
    std::vector<std::int64_t> user_rows;
    bool all_rows = false;  // a row announcement naming no user it could read
  };

  // Waits up to `timeout` for an append committed since the last PublishPending, which listened
  // for them first so none is missed. True when one was heard: then PublishPending has rows to
  // publish. False on timeout, when the wait was interrupted, or when it heard only of other
  // changes, which it adds to `changes` (when given): they need no pass.
  Result<bool> AwaitAppend(std::chrono::milliseconds timeout, Changes* changes = nullptr);

  // Stores the status of vouchers that expired and prunes rows published longer ago than the
  // retention; failures are logged, the next call tries again.
  void Housekeeping();

  const RelayOptions& options() const { return options_; }

 private:
  // A message published: its epoch, outbox id and the hex SHA-256 of its stored payload.
  struct Published {
    std::string epoch;
    std::int64_t id = 0;
    std::string digest;
  };

  // The note kept in Redis, if there is one that opens; an error when Redis fails.
  Result<std::optional<Published>> ReadPublishedMark();
  // A message published (this relay's note or the one in Redis) that the database, whose outbox
  // stands at `head`, no longer holds: it was rewound. Nullopt when it holds both. A Redis failure
  // is an error.
  Result<std::optional<Published>> LostPublished(const store::OutboxPosition& head);

  store::Connection& db_;
  store::RedisClient& redis_;
  const UpdateAuthenticator& updates_;
  RelayOptions options_;
  std::optional<Published> published_;  // the last message this relay published
};

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_
