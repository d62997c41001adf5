// The outbox relay: publishes committed outbox rows (graph changes, see graph_change.h) on Redis
// in id order and marks them published, so a Redis outage delays updates but loses none. Delivery
// is at least once: a crash between PUBLISH and the commit of the mark re-publishes the batch, and
// subscribers skip a `sequence` they have seen.
//
// Relays on several hosts are safe: each batch runs in a transaction holding an advisory lock, so
// one relay publishes at a time and the order holds. The relay wakes at commit (LISTEN on the
// channel the appending transaction NOTIFYs) and polls as a fallback; when PostgreSQL or Redis
// fails it retries with exponential back-off. Now and then it also stores the status of expired
// vouchers and prunes old published rows.
#ifndef NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_
#define NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_

#include <chrono>
#include <csignal>
#include <cstdint>

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
  };
  // One batch: publishes pending rows in order until one fails, marks the published ones. An error
  // is a database failure; a Redis failure is reported in Pass::redis.
  Result<Pass> PublishPending();

  // Runs until `stop` becomes non-zero (a signal handler sets it; the signal also cuts waits
  // short).
  void Run(const volatile std::sig_atomic_t& stop);

 private:
  void Housekeeping();

  store::Connection& db_;
  store::RedisClient& redis_;
  const UpdateAuthenticator& updates_;
  RelayOptions options_;
};

// The relay process's main: stops on SIGTERM, SIGINT or SIGQUIT, ignores SIGHUP and SIGPIPE.
// Returns the exit status.
int RunOutboxRelayProcess(store::Connection& db, store::RedisClient& redis,
                          const UpdateAuthenticator& updates, const RelayOptions& options);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_OUTBOX_RELAY_H_
