#include "ws/update_feed.h"

#include <string>
#include <utility>

#include "core/log.h"
#include "ws/metrics.h"

namespace netgraph::ws {

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

void UpdateFeed::OnMessage(std::string_view channel, const PublishedUpdate& update) {
  if (!update.publisher_sequence) {
    deliver_(channel, update, sequencer_.Deliver(std::nullopt, ""));
    return;
  }
  const std::int64_t number = *update.publisher_sequence;
  Sequencer::Place place = sequencer_.PlaceOf(number, update.epoch);
  if (place == Sequencer::Place::kAfterGap) {
    // The epoch of the message, so that a stale message of another database reads nothing.
    if (!CatchUp(update.epoch, number - 1)) sequencer_.MarkPossibleLoss();
    place = sequencer_.PlaceOf(number, update.epoch);
  }
  if (place == Sequencer::Place::kRepeat) {
    log::Debug("dropping a repeated update (publisher sequence " + std::to_string(number) + ")");
    return;
  }
  DeliverNumbered(channel, update);
}

void UpdateFeed::DeliverNumbered(std::string_view channel, const PublishedUpdate& update) {
  deliver_(channel, update, sequencer_.Deliver(update.publisher_sequence, update.epoch));
}

bool UpdateFeed::CatchUp(std::string_view epoch, std::int64_t until) {
  const CatchUpOutcome outcome = ReadMissed(epoch, until);
  ++WsMetrics().catch_up_reads_total[static_cast<std::size_t>(outcome)];
  return outcome == CatchUpOutcome::kOk;
}

CatchUpOutcome UpdateFeed::ReadMissed(std::string_view epoch, std::int64_t until) {
  std::int64_t read = 0;
  for (;;) {
    const bool same_epoch = epoch.empty() || epoch == sequencer_.epoch();
    const std::int64_t after = same_epoch ? sequencer_.last_publisher_sequence() : 0;
    Result<store::OutboxPage> page = outbox_.After(after, kPageRows);
    if (!page.ok()) {
      log::Warn("catching up from the outbox failed: " + page.status().message());
      return CatchUpOutcome::kError;
    }
    // The outbox moved on meanwhile.
    if (!epoch.empty() && page->epoch != epoch) return CatchUpOutcome::kEpochChanged;
    if (page->epoch != sequencer_.epoch()) {
      // The database was reset since: its numbers start over. Everything in it is new.
      sequencer_.Follow(page->epoch, 0);
      if (after != 0) continue;
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
      Result<PublishedUpdate> update = ParseUpdate(row.payload, max_update_bytes_);
      if (!update.ok()) {
        log::Warn("catching up from the outbox: update " + std::to_string(row.id) + ": " +
                  update.status().message());
        return CatchUpOutcome::kInvalid;
      }
      update->publisher_sequence = row.id;
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
