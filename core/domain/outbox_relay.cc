#include "core/domain/outbox_relay.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <span>
#include <string>
#include <system_error>
#include <utility>

#include "core/crypto/digest.h"
#include "core/crypto/hex.h"
#include "core/domain/update_message.h"
#include "core/domain/voucher_admin.h"
#include "core/log.h"
#include "core/store/outbox.h"
#include "core/store/token.h"
#include "core/store/users.h"

namespace netgraph::domain {
namespace {

std::string PayloadDigest(std::string_view payload) {
  return crypto::HexEncode(crypto::Sha256(std::span<const std::uint8_t>(
      reinterpret_cast<const std::uint8_t*>(payload.data()), payload.size())));
}

// The payload as published: its "epoch" is the one it goes out under, which may be newer than the
// one the appender wrote (a rewound database).
std::string WithEpoch(const std::string& payload, std::string_view epoch) {
  Result<UpdateMessage> update = UpdateMessage::Parse(payload);
  if (!update.ok()) return payload;  // not ours to number: as it is
  update->epoch = epoch;
  return update->Write();
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
  // Before the pass: an append committed during it then wakes AwaitAppend.
  if (Status s = db_.Listen(store::kOutboxNotifyChannel); !s.ok()) return s;
  if (Status s = db_.Listen(store::kInvestmentNotifyChannel); !s.ok()) return s;
  if (Status s = db_.Listen(store::kPortfolioNotifyChannel); !s.ok()) return s;
  if (Status s = db_.Listen(store::kUserRowNotifyChannel); !s.ok()) return s;
  Pass pass;
  // A pass with nothing pending (the poll's, or one after an append another relay published) is
  // one statement. An append committed after it notifies, and wakes AwaitAppend again.
  NETGRAPH_ASSIGN_OR_RETURN(bool any_pending, store::OutboxHasPending(db_));
  if (!any_pending) return pass;
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
        if (!pending.empty()) {
          NETGRAPH_ASSIGN_OR_RETURN(store::OutboxPosition head, store::OutboxHead(db_));
          Result<std::optional<Published>> lost = LostPublished(head);
          if (!lost.ok()) {
            pass.redis = lost.status();
            pending.clear();
          } else if (lost->has_value()) {
            // Committed before anything goes out under it: the next pass publishes.
            NETGRAPH_ASSIGN_OR_RETURN(pass.new_epoch,
                                      store::StartOutboxEpoch(db_, pending.front().id - 1));
            log::Warn("relay: the database no longer holds update " + std::to_string((*lost)->id) +
                      " of epoch " + head.epoch +
                      ", which was published (was it restored from an earlier dump?): updates "
                      "from " +
                      std::to_string(pending.front().id) + " on go out in a new epoch, " +
                      pass.new_epoch);
            pass.more_pending = true;
            NETGRAPH_ASSIGN_OR_RETURN(pass.backlog, store::OutboxBacklog(db_));
            return Status::Ok();
          }
          for (const store::OutboxRow& row : pending) {
            const std::string payload = WithEpoch(row.payload, head.epoch);
            Result<std::int64_t> sent =
                redis_.Publish(row.channel, updates_.Seal(row.channel, payload));
            if (!sent.ok()) {
              pass.redis = sent.status();
              break;
            }
            last_published = row.id;
            ++pass.published;
            published_ = Published{head.epoch, row.id, PayloadDigest(row.payload)};
          }
        }
        if (last_published != 0) {
          const nlohmann::json note = {
              {"epoch", published_->epoch}, {"id", published_->id}, {"digest", published_->digest}};
          Status noted =
              redis_.Set(kPublishedMarkKey, updates_.Seal(kPublishedMarkKey, note.dump()));
          if (!noted.ok() && pass.redis.ok()) pass.redis = noted;
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

Result<std::optional<OutboxRelay::Published>> OutboxRelay::ReadPublishedMark() {
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<std::string> stored, redis_.Get(kPublishedMarkKey));
  if (!stored) return std::optional<Published>();
  Result<std::string_view> opened = updates_.Open(kPublishedMarkKey, *stored);
  nlohmann::json note = opened.ok() ? nlohmann::json::parse(*opened, nullptr, false) : nullptr;
  if (!note.is_object() || !note["epoch"].is_string() || !note["id"].is_number_integer() ||
      !note["digest"].is_string()) {
    log::Warn(std::string("relay: ignoring Redis key ") + std::string(kPublishedMarkKey) +
              ", which is not a note the relay wrote" +
              (opened.ok() ? std::string() : " (" + opened.status().message() + ")"));
    return std::optional<Published>();
  }
  return std::optional<Published>(Published{note["epoch"].get<std::string>(),
                                            note["id"].get<std::int64_t>(),
                                            note["digest"].get<std::string>()});
}

Result<std::optional<OutboxRelay::Published>> OutboxRelay::LostPublished(
    const store::OutboxPosition& head) {
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<Published> stored, ReadPublishedMark());
  for (const std::optional<Published>& published : {published_, stored}) {
    // A note of another epoch tells nothing about this one.
    if (!published || published->epoch != head.epoch) continue;
    if (head.id < published->id) return published;
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<std::string> digest,
                              store::OutboxPayloadDigest(db_, published->id));
    // A pruned row was published long ago, and is no sign of a rewind.
    if (digest && *digest != published->digest) return published;
  }
  return std::optional<Published>();
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

Result<bool> OutboxRelay::AwaitAppend(std::chrono::milliseconds timeout, Changes* changes) {
  bool appended = false;
  NETGRAPH_RETURN_IF_ERROR(
      db_.AwaitNotification(timeout, [&](std::string_view channel, std::string_view payload) {
        if (channel == store::kOutboxNotifyChannel) {
          appended = true;
          return;
        }
        if (changes == nullptr) return;
        if (channel == store::kInvestmentNotifyChannel) {
          changes->data = true;
          return;
        }
        const bool row = channel == store::kUserRowNotifyChannel;
        if (!row && channel != store::kPortfolioNotifyChannel) return;
        std::int64_t user_id = 0;
        const auto [end, error] =
            std::from_chars(payload.data(), payload.data() + payload.size(), user_id);
        const bool named = payload != store::kEveryPortfolio && error == std::errc() &&
                           end == payload.data() + payload.size();
        if (named) {
          (row ? changes->user_rows : changes->users).push_back(user_id);
        } else {
          (row ? changes->all_rows : changes->all) = true;
        }
      }));
  return appended;
}

}  // namespace netgraph::domain
