// The outbox relay: publishes committed outbox rows (graph changes, see graph_change.h; the rows
// are core/store/outbox.h) on Redis in id order and marks them published, so a Redis outage delays
// updates but loses none. Delivery is at least once: a crash between PUBLISH and the commit of the
// mark re-publishes the batch, and subscribers skip a `sequence` they have seen.
//
// Relays on several hosts are safe: each batch runs in a transaction holding an advisory lock, so
// one relay publishes at a time and the order holds. This is one relay's work, pass by pass; the
// process that runs it (waking at commit, polling as a fallback, back-off when PostgreSQL or Redis
// fails, housekeeping now and then, stopping on a signal) is fcgi/pool/outbox_relay_process.h.
#ifndef NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_
#define NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_

#include <chrono>
#include <cstdint>
#include <vector>

#include "core/config/environment.h"
#include "core/domain/update_message.h"
#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/redis.h"

namespace netgraph::domain {

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
  };
  // One batch: listens for appends (see AwaitAppend), publishes pending rows in order until one
  // fails, marks the published ones, counts what is left. An error is a database failure; a Redis
  // failure is reported in Pass::redis.
  Result<Pass> PublishPending();

  // Waits up to `timeout` for an append committed since the last PublishPending, which listened
  // for them first so none is missed, or for a change of the investment figures (which writes no
  // outbox row: store::kInvestmentNotifyChannel). False on timeout or when the wait was
  // interrupted.
  Result<bool> AwaitAppend(std::chrono::milliseconds timeout);

  // Stores the status of vouchers that expired and prunes rows published longer ago than the
  // retention; failures are logged, the next call tries again.
  void Housekeeping();

  const RelayOptions& options() const { return options_; }

 private:
  store::Connection& db_;
  store::RedisClient& redis_;
  const UpdateAuthenticator& updates_;
  RelayOptions options_;
};

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_
