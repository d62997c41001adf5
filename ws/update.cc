#include "ws/update.h"

#include <utility>

namespace netgraph::ws {

Sequencer::Place Sequencer::PlaceOf(std::int64_t publisher_sequence) const {
  if (!following()) return Place::kNext;
  const std::int64_t last = *last_publisher_sequence_;
  if (publisher_sequence <= last) return Place::kRepeat;
  return publisher_sequence == last + 1 ? Place::kNext : Place::kAfterGap;
}

void Sequencer::Follow(std::string epoch, std::int64_t last) {
  if (following() && epoch != epoch_) possible_loss_ = true;
  epoch_ = std::move(epoch);
  last_publisher_sequence_ = last;
}

UpdateStamp Sequencer::Deliver(std::optional<std::int64_t> publisher_sequence) {
  if (publisher_sequence) last_publisher_sequence_ = *publisher_sequence;
  sequence_ += possible_loss_ ? 2 : 1;
  possible_loss_ = false;
  return UpdateStamp{sequence_, publisher_sequence};
}

std::string StampExtensions(const UpdateStamp& stamp) {
  std::string extensions = R"({"sequence":)" + std::to_string(stamp.sequence);
  if (stamp.publisher_sequence) {
    extensions += R"(,"publisherSequence":)" + std::to_string(*stamp.publisher_sequence);
  }
  extensions += '}';
  return extensions;
}

}  // namespace netgraph::ws
