// A graph update between Redis and the subscribers: the sequence numbers every delivered result
// carries so that a client can tell it missed updates. The message itself, and how it is read, is
// core/domain/update_message.h.
//
// Each `next` payload gets `extensions: {"sequence": N}` (and `"publisherSequence": P` when the
// publisher numbered its message: the outbox relay sends its gap-free outbox id, with the outbox's
// epoch). N counts, per ws process, the updates delivered. It grows by exactly 1 from one update to
// the next unless updates may have been lost, and then skips one: when the outbox could not fill a
// gap (ws/update_feed.h), or when the process follows a new epoch (the database was reset or
// restored, so what a client holds is another database's graph). A repeated P (the relay delivers
// at least once, and the catch-up reads what Redis brings again) is dropped, so clients see each
// update once. A client that sees N jump by more than one, or that reconnects, resynchronises by
// querying `networkGraph` and then applies later updates.
#ifndef NETGRAPH_WS_UPDATE_H_
#define NETGRAPH_WS_UPDATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace netgraph::ws {

struct UpdateStamp {
  std::int64_t sequence = 0;
  std::optional<std::int64_t> publisher_sequence;
};

// Where the process stands in the publisher's numbering, and the numbers its deliveries carry.
// Publisher numbers are gap-free within an epoch; which epoch to follow is the feed's decision
// (ws/update_feed.h confirms a new one against the outbox before it follows it).
class Sequencer {
 public:
  // Where update `publisher_sequence` of the epoch followed falls.
  enum class Place {
    kNext,      // the one after the last delivered, or the first ever seen: deliver it
    kRepeat,    // delivered already: drop it
    kAfterGap,  // later than the next: the ones in between are missing
  };
  Place PlaceOf(std::int64_t publisher_sequence) const;

  // Follows `epoch` from `last` on (where the outbox stood when the process subscribed, or where a
  // new epoch starts): later numbers follow, earlier ones are repeats. Another epoch than the one
  // followed marks a possible loss (the client's picture is of another database).
  void Follow(std::string epoch, std::int64_t last);
  bool following() const { return last_publisher_sequence_.has_value(); }
  const std::string& epoch() const { return epoch_; }
  // The last publisher number delivered (or followed from) in epoch().
  std::int64_t last_publisher_sequence() const { return last_publisher_sequence_.value_or(0); }

  // The stamp of an update being delivered; a numbered one becomes the last delivered.
  UpdateStamp Deliver(std::optional<std::int64_t> publisher_sequence);
  // Updates may have been lost: the next number skips one.
  void MarkPossibleLoss() { possible_loss_ = true; }

 private:
  std::int64_t sequence_ = 0;
  bool possible_loss_ = false;
  std::string epoch_;
  std::optional<std::int64_t> last_publisher_sequence_;
};

// The stamp as the "extensions" object of an update's response (ExecutionResult::Body).
std::string StampExtensions(const UpdateStamp& stamp);

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_UPDATE_H_
