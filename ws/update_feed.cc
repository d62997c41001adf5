#include "ws/update_feed.h"

#include <algorithm>
#include <string>
#include <utility>

#include "core/log.h"
#include "ws/metrics.h"

namespace netgraph::ws {
namespace {

// As ws/graphql_backend.cc logs the messages it refuses before they reach the feed.
constexpr std::chrono::seconds kRefusalLogInterval{60};

}  // namespace

UpdateFeed::UpdateFeed(OutboxReader& outbox, Deliver deliver, std::size_t max_update_bytes,
                       Clock clock)
    : outbox_(outbox),
      deliver_(std::move(deliver)),
      max_update_bytes_(max_update_bytes),
      clock_(clock ? std::move(clock) : [] { return std::chrono::steady_clock::now(); }),
      refusals_("refused a message from Redis", kRefusalLogInterval, log::Warn) {}

void UpdateFeed::OnSubscribed() {
  if (!sequencer_.following()) {
    // Nothing delivered yet, so nothing to catch up: later messages follow where the outbox is.
    Result<store::OutboxPosition> head = outbox_.Head();
    if (!head.ok()) {
      log::Warn("reading where the outbox stands failed (the first update will tell): " +
                head.status().message());
      return;
    }
    sequencer_.Follow(std::move(head->epoch), head->id);
    return;
  }
  if (!CatchUp("", 0)) sequencer_.MarkPossibleLoss();
}

void UpdateFeed::OnMessage(std::string_view channel, const domain::UpdateMessage& update) {
  if (!update.sequence) {
    deliver_(channel, update, sequencer_.Deliver(std::nullopt));
    return;
  }
  const std::int64_t number = *update.sequence;
  const bool followed =
      sequencer_.following() && (update.epoch.empty() || update.epoch == sequencer_.epoch());
  if (!followed && !FollowConfirmed(update.epoch, number)) return;
  Sequencer::Place place = sequencer_.PlaceOf(number);
  if (place == Sequencer::Place::kAfterGap) {
    // In the epoch followed, so that a gap read in an outbox that moved on meanwhile reads nothing.
    const std::string epoch = sequencer_.epoch();
    if (!CatchUp(epoch, number - 1)) sequencer_.MarkPossibleLoss();
    place = sequencer_.PlaceOf(number);
  }
  if (place == Sequencer::Place::kRepeat) {
    log::Debug("dropping a repeated update (publisher sequence " + std::to_string(number) + ")");
    return;
  }
  DeliverNumbered(channel, update);
}

bool UpdateFeed::FollowConfirmed(std::string_view epoch, std::int64_t number) {
  const std::chrono::steady_clock::time_point now = clock_();
  if (auto refused = refused_epochs_.find(epoch);
      refused != refused_epochs_.end() && now < refused->second) {
    refusals_.Record("an update of epoch " + std::string(epoch) +
                     ", which the outbox is not in (refused again without reading it)");
    return false;
  }
  Result<store::OutboxPosition> head = outbox_.Head();
  if (!head.ok()) {
    // Not asked again at once either: a read of an unreachable database can take seconds.
    RememberRefused(epoch, now);
    refusals_.Record(
        "an update of an epoch not followed yet, which the outbox could not confirm (" +
        head.status().message() + ")");
    sequencer_.MarkPossibleLoss();
    return false;
  }
  if (!epoch.empty() && head->epoch != epoch) {
    // Signed by the relay once, for a database since reset or restored: a replay.
    RememberRefused(epoch, now);
    refusals_.Record("an update of epoch " + std::string(epoch) + ", which the outbox is not in");
    return false;
  }
  if (sequencer_.following()) {
    // A new epoch (the database was reset, or restored and the relay started one): its updates
    // from its start on are new here, and the ones missed are read from the outbox.
    sequencer_.Follow(head->epoch, head->epoch_start);
  } else {
    // The first update seen (where the outbox stood at subscription could not be read): this one
    // and those after it, as on a first subscription.
    sequencer_.Follow(head->epoch, number - 1);
  }
  return true;
}

void UpdateFeed::RememberRefused(std::string_view epoch,
                                 std::chrono::steady_clock::time_point now) {
  std::erase_if(refused_epochs_, [now](const auto& entry) { return entry.second <= now; });
  if (refused_epochs_.size() >= kMaxRefusedEpochs) {
    refused_epochs_.erase(
        std::min_element(refused_epochs_.begin(), refused_epochs_.end(),
                         [](const auto& a, const auto& b) { return a.second < b.second; }));
  }
  refused_epochs_.insert_or_assign(std::string(epoch), now + kRefusedEpochRecheck);
}

void UpdateFeed::DeliverNumbered(std::string_view channel, const domain::UpdateMessage& update) {
  deliver_(channel, update, sequencer_.Deliver(update.sequence));
}

bool UpdateFeed::CatchUp(std::string_view epoch, std::int64_t until) {
  const CatchUpOutcome outcome = ReadMissed(epoch, until);
  ++WsMetrics().catch_up_reads_total[static_cast<std::size_t>(outcome)];
  return outcome == CatchUpOutcome::kOk;
}

CatchUpOutcome UpdateFeed::ReadMissed(std::string_view epoch, std::int64_t until) {
  std::int64_t read = 0;
  for (;;) {
    const std::int64_t after = sequencer_.last_publisher_sequence();
    Result<store::OutboxPage> page = outbox_.After(after, kPageRows);
    if (!page.ok()) {
      log::Warn("catching up from the outbox failed: " + page.status().message());
      return CatchUpOutcome::kError;
    }
    // The outbox moved on meanwhile.
    if (!epoch.empty() && page->epoch != epoch) return CatchUpOutcome::kEpochChanged;
    if (page->epoch != sequencer_.epoch()) {
      // The database was reset or restored since: the ids after its epoch's start are new.
      sequencer_.Follow(page->epoch, page->epoch_start);
      if (after != page->epoch_start) continue;
    }
    for (store::OutboxRow& row : page->rows) {
      if (until != 0 && sequencer_.last_publisher_sequence() >= until) return CatchUpOutcome::kOk;
      // Also when the row is past `until`: then the ones up to `until` are gone.
      if (row.id != sequencer_.last_publisher_sequence() + 1) {
        log::Warn("catching up from the outbox: update " +
                  std::to_string(sequencer_.last_publisher_sequence() + 1) +
                  " is no longer there (NETGRAPH_OUTBOX_RETENTION_SECONDS)");
        return CatchUpOutcome::kPruned;
      }
      Result<domain::UpdateMessage> update =
          domain::UpdateMessage::Parse(row.payload, max_update_bytes_);
      if (!update.ok()) {
        log::Warn("catching up from the outbox: update " + std::to_string(row.id) + ": " +
                  update.status().message());
        return CatchUpOutcome::kInvalid;
      }
      update->sequence = row.id;
      update->epoch = page->epoch;
      DeliverNumbered(row.channel, *update);
      ++WsMetrics().catch_up_updates_total;
    }
    read += static_cast<std::int64_t>(page->rows.size());
    if (static_cast<std::int64_t>(page->rows.size()) < kPageRows) {
      // A shorter page ends the outbox: what is missing up to `until` was never there to read.
      return until == 0 || sequencer_.last_publisher_sequence() >= until ? CatchUpOutcome::kOk
                                                                         : CatchUpOutcome::kPruned;
    }
    if (read >= kMaxCatchUpRows) {
      log::Warn("catching up from the outbox: more than " + std::to_string(kMaxCatchUpRows) +
                " updates missed; clients resynchronise");
      return CatchUpOutcome::kTooMany;
    }
  }
}

}  // namespace netgraph::ws
