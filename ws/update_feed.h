// The order in which graph updates reach the hub: each outbox message exactly once, in outbox
// order, whatever Redis loses. Redis pub/sub does not replay: what the relay publishes while this
// process is not subscribed (Redis down, the connection being re-established) never arrives, and a
// message can be lost on the way. The outbox in PostgreSQL keeps every message (published ones for
// NETGRAPH_OUTBOX_RETENTION_SECONDS), numbered without gaps, so the feed reads what it missed
// from there:
//   - when the Redis subscription is (re)established: the messages after the last one delivered
//     (on the first subscription it only notes where the outbox stands);
//   - when a message arrives whose number is not the next one: the ones in between, first.
// Messages read from the outbox arrive again from Redis later (the relay publishes them when Redis
// is back) and are dropped as repeats. When the outbox cannot fill a gap (PostgreSQL is
// unreachable, or the rows were pruned) the update goes out with a skipped sequence number, which
// tells clients to resynchronise (ws/update.h).
//
// Epochs: a message naming another epoch than the one followed (or any, before the first is
// known) is delivered only once the outbox confirms that epoch is its own, and the feed then
// follows it from where it starts (store::OutboxPosition::epoch_start), with a skip. Anyone who
// can publish on Redis can replay a message the relay signed long ago: one of an earlier epoch
// (a database since reset or restored) is dropped and changes nothing, and its epoch is not read
// again for kRefusedEpochRecheck, so a flood of replays costs PostgreSQL a read per epoch per
// interval, not one per message. A message that cannot be confirmed (PostgreSQL unreachable, where
// a read may take seconds) is dropped with a skip and its epoch waits as a refused one does; the
// first message of it after that tries again, and the catch-up fills the gap.
//
// Single-threaded: the event loop owns it. The reads run synchronously: they are short indexed
// reads, made only after a gap or for a new epoch.
#ifndef NETGRAPH_WS_UPDATE_FEED_H_
#define NETGRAPH_WS_UPDATE_FEED_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>

#include "core/domain/update_message.h"
#include "core/status.h"
#include "core/store/outbox.h"
#include "core/throttled_log.h"
#include "ws/metrics.h"
#include "ws/update.h"

namespace netgraph::ws {

// The outbox as the feed reads it (core/store/outbox.h over the process's connection in
// production).
class OutboxReader {
 public:
  virtual ~OutboxReader() = default;
  virtual Result<store::OutboxPosition> Head() = 0;
  virtual Result<store::OutboxPage> After(std::int64_t after_id, std::int64_t limit) = 0;
};

class UpdateFeed {
 public:
  // Hands one update, stamped, to the subscriptions of `channel`.
  using Deliver = std::function<void(std::string_view channel, const domain::UpdateMessage& update,
                                     const UpdateStamp& stamp)>;
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  // `max_update_bytes`: the limit of a message read from the outbox, as from Redis. `clock`
  // (default: std::chrono::steady_clock) times the refused epochs.
  UpdateFeed(OutboxReader& outbox, Deliver deliver, std::size_t max_update_bytes,
             Clock clock = nullptr);

  // The Redis subscription is in place (the first time, or again after the connection was lost).
  void OnSubscribed();
  // An authenticated, parsed message from Redis.
  void OnMessage(std::string_view channel, const domain::UpdateMessage& update);

  // Most rows one catch-up reads; a longer gap is left to the clients' resynchronisation.
  static constexpr std::int64_t kMaxCatchUpRows = 10000;
  static constexpr std::int64_t kPageRows = 500;
  // How long an epoch the outbox denied (or could not confirm) is refused without reading the
  // outbox again, and how many such epochs are remembered.
  static constexpr std::chrono::seconds kRefusedEpochRecheck{5};
  static constexpr std::size_t kMaxRefusedEpochs = 16;

 private:
  // Follows the epoch of a message numbered `number` that names `epoch` (empty: none) once the
  // outbox confirms it. False, and the message is dropped, when the outbox is in another epoch or
  // cannot be read.
  bool FollowConfirmed(std::string_view epoch, std::int64_t number);
  void RememberRefused(std::string_view epoch, std::chrono::steady_clock::time_point now);
  // Delivers the outbox's messages after the last one delivered, in `epoch` (empty: whichever
  // epoch the outbox is in), up to `until` (0: all). False when it could not read them all.
  // Counts the read (ws/metrics.h) by its outcome.
  bool CatchUp(std::string_view epoch, std::int64_t until);
  CatchUpOutcome ReadMissed(std::string_view epoch, std::int64_t until);
  void DeliverNumbered(std::string_view channel, const domain::UpdateMessage& update);

  OutboxReader& outbox_;
  Deliver deliver_;
  std::size_t max_update_bytes_;
  Clock clock_;
  Sequencer sequencer_;
  // Epochs the outbox denied or could not confirm, and until when they are refused without
  // asking it.
  std::map<std::string, std::chrono::steady_clock::time_point, std::less<>> refused_epochs_;
  log::ThrottledLog refusals_;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_UPDATE_FEED_H_
