#include "core/domain/outbox_relay.h"

#include <poll.h>

#include <algorithm>
#include <string>

#include "core/domain/voucher_admin.h"
#include "core/log.h"
#include "core/store/outbox.h"

namespace netgraph::domain {
namespace {

volatile std::sig_atomic_t g_stop = 0;

void OnStopSignal(int) { g_stop = 1; }

// Sleeps up to `duration`; a signal ends the sleep early.
void Pause(std::chrono::milliseconds duration) {
  ::poll(nullptr, 0, static_cast<int>(duration.count()));
}

}  // namespace

RelayOptions RelayOptions::FromEnvironment(config::Environment& env) {
  RelayOptions options;
  options.poll_interval = std::chrono::milliseconds(
      env.Int("NETGRAPH_RELAY_POLL_MS", options.poll_interval.count(), 10, 60000));
  options.max_backoff = std::chrono::milliseconds(
      env.Int("NETGRAPH_RELAY_MAX_BACKOFF_MS", options.max_backoff.count(), 10, 300000));
  options.retention_seconds =
      env.Int("NETGRAPH_OUTBOX_RETENTION_SECONDS", options.retention_seconds, 0, 365L * 86400);
  return options;
}

Result<OutboxRelay::Pass> OutboxRelay::PublishPending() {
  Pass pass;
  Status done = db_.InTransaction(
      store::Isolation::kReadCommitted,
      [&]() -> Status {
        NETGRAPH_ASSIGN_OR_RETURN(bool locked, store::TryLockOutboxRelay(db_));
        if (!locked) return Status::Ok();  // another relay is at it
        NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::OutboxRow> pending,
                                  store::PendingOutbox(db_, options_.batch_size));
        std::int64_t last_published = 0;
        for (const store::OutboxRow& row : pending) {
          Result<std::int64_t> sent =
              redis_.Publish(row.channel, updates_.Seal(row.channel, row.payload));
          if (!sent.ok()) {
            pass.redis = sent.status();
            break;
          }
          last_published = row.id;
          ++pass.published;
        }
        pass.more_pending =
            pass.redis.ok() && static_cast<std::int64_t>(pending.size()) == options_.batch_size;
        if (last_published == 0) return Status::Ok();
        return store::MarkOutboxPublished(db_, last_published);
      },
      // Never re-run a batch by itself: it would publish again what it has just published.
      /*max_attempts=*/1);
  if (!done.ok()) return done;
  return pass;
}

void OutboxRelay::Housekeeping() {
  Result<std::int64_t> expired = ExpireDueVouchers(db_);
  if (!expired.ok()) {
    log::Warn("relay: storing expired vouchers failed: " + expired.status().message());
  } else if (*expired > 0) {
    log::Info("relay: " + std::to_string(*expired) + " vouchers expired");
  }
  Result<std::int64_t> pruned = store::PrunePublishedOutbox(db_, options_.retention_seconds);
  if (!pruned.ok()) log::Warn("relay: pruning the outbox failed: " + pruned.status().message());
}

void OutboxRelay::Run(const volatile std::sig_atomic_t& stop) {
  using Clock = std::chrono::steady_clock;
  std::chrono::milliseconds backoff{0};
  Clock::time_point next_housekeeping = Clock::now();
  std::string last_problem;  // logged once per change, not once per retry
  while (stop == 0) {
    std::string problem;
    bool more_pending = false;
    if (Status s = db_.Listen(store::kOutboxNotifyChannel); !s.ok()) {
      problem = "PostgreSQL: " + s.message();
    } else if (Result<Pass> pass = PublishPending(); !pass.ok()) {
      problem = "PostgreSQL: " + pass.status().message();
    } else if (!pass->redis.ok()) {
      problem = pass->redis.message();
    } else {
      more_pending = pass->more_pending;
    }
    if (problem != last_problem) {
      if (!problem.empty()) log::Warn("relay: " + problem + "; retrying with back-off");
      if (problem.empty()) log::Info("relay: publishing again");
      last_problem = problem;
    }
    if (!problem.empty()) {
      backoff = std::clamp(backoff * 2, std::chrono::milliseconds(100), options_.max_backoff);
      Pause(backoff);
      continue;
    }
    backoff = std::chrono::milliseconds(0);
    if (more_pending) continue;
    if (Clock::now() >= next_housekeeping) {
      Housekeeping();
      next_housekeeping = Clock::now() + options_.housekeeping_interval;
    }
    if (stop != 0) break;
    if (Result<bool> woken = db_.AwaitNotification(options_.poll_interval); !woken.ok()) {
      Pause(options_.poll_interval);
    }
  }
}

int RunOutboxRelayProcess(store::Connection& db, store::RedisClient& redis,
                          const UpdateAuthenticator& updates, const RelayOptions& options) {
  struct sigaction action {};
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGTERM, SIGINT, SIGQUIT}) ::sigaction(s, &action, nullptr);
  action.sa_handler = SIG_IGN;
  for (int s : {SIGPIPE, SIGHUP}) ::sigaction(s, &action, nullptr);
  log::Info("relay: publishing graph changes from the outbox to Redis");
  if (!updates.signing()) {
    log::Warn(std::string("relay: ") + kUpdateSigningKeyFileVariable +
              "=off: updates go out unsigned, and anyone who can publish on Redis can forge them");
  }
  OutboxRelay relay(db, redis, updates, options);
  relay.Run(g_stop);
  log::Info("relay: stopped");
  return 0;
}

}  // namespace netgraph::domain
