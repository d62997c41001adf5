// A graph update between Redis and the subscribers: how a published message is read, and the
// sequence numbers every delivered result carries so that a client can tell it missed updates.
//
// Each `next` payload gets `extensions: {"sequence": N}` (and `"publisherSequence": P` when the
// publisher numbered its message: the outbox relay sends its gap-free outbox id). N counts, per ws
// process, the updates delivered. It grows by exactly 1 from one update to the next unless updates
// may have been lost, and then skips one: after the process's Redis subscription was re-established
// (Redis pub/sub does not replay what was published meanwhile), or when P does not follow the
// previous P. A repeated P (the relay delivers at least once) is dropped here, so clients see each
// update once. A client that sees N jump by more than one, or that reconnects, resynchronises by
// querying `networkGraph` and then applies later updates.
#ifndef NETGRAPH_WS_UPDATE_H_
#define NETGRAPH_WS_UPDATE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace netgraph::ws {

struct UpdateStamp {
  std::int64_t sequence = 0;
  std::optional<std::int64_t> publisher_sequence;
};

// Numbers the updates of one process and drops the publisher's repeats.
class Sequencer {
 public:
  // The stamp of an update whose publisher numbered it `publisher_sequence` (if it did), or nullopt
  // when that number was seen lately: a repeat, to be dropped.
  std::optional<UpdateStamp> Next(std::optional<std::int64_t> publisher_sequence);
  // Updates may have been lost (the Redis subscription was down): the next number skips one.
  void MarkPossibleLoss() { possible_loss_ = true; }

 private:
  // Publisher numbers remembered to recognise repeats: more than a relay batch re-sends.
  static constexpr std::size_t kRemembered = 4096;

  std::int64_t sequence_ = 0;
  bool possible_loss_ = false;
  std::optional<std::int64_t> last_publisher_sequence_;
  std::deque<std::int64_t> recent_;  // oldest first
  std::unordered_set<std::int64_t> recent_set_;
};

// A published message: a JSON object, the root value of the subscription field (a NetworkUpdate
// for netgraph:graph). An integer "sequence" member is the publisher's number for it.
struct PublishedUpdate {
  nlohmann::json event;
  std::optional<std::int64_t> publisher_sequence;
};
// Reads a payload (already authenticated, see core/domain/update_message.h) with the limits of a
// client's message: at most `max_bytes`, and no deeper than client JSON may nest
// (core/api/client_json.h), so the recursive walks that follow (Value::FromJson, execution) stay
// within the stack whatever was published.
Result<PublishedUpdate> ParseUpdate(std::string_view payload, std::size_t max_bytes);

// The stamp as the "extensions" object of an update's response (ExecutionResult::Body).
std::string StampExtensions(const UpdateStamp& stamp);

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_UPDATE_H_
