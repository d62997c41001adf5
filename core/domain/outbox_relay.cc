#include "core/domain/outbox_relay.h"

#include <string>

#include "core/domain/voucher_admin.h"
#include "core/log.h"
#include "core/store/outbox.h"
#include "core/store/token.h"

namespace netgraph::domain {

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
  // Before the pass: an append committed during it then wakes AwaitAppend.
  if (Status s = db_.Listen(store::kOutboxNotifyChannel); !s.ok()) return s;
  if (Status s = db_.Listen(store::kInvestmentNotifyChannel); !s.ok()) return s;
  Pass pass;
  Status done = db_.InTransaction(
      store::Isolation::kReadCommitted,
      [&]() -> Status {
        NETGRAPH_ASSIGN_OR_RETURN(bool locked, store::TryLockOutboxRelay(db_));
        if (!locked) {  // another relay is at it
          NETGRAPH_ASSIGN_OR_RETURN(pass.backlog, store::OutboxBacklog(db_));
          return Status::Ok();
        }
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
        if (last_published != 0) {
          NETGRAPH_ASSIGN_OR_RETURN(pass.lags, store::MarkOutboxPublished(db_, last_published));
        }
        NETGRAPH_ASSIGN_OR_RETURN(pass.backlog, store::OutboxBacklog(db_));
        return Status::Ok();
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

Result<bool> OutboxRelay::AwaitAppend(std::chrono::milliseconds timeout) {
  return db_.AwaitNotification(timeout);
}

}  // namespace netgraph::domain
