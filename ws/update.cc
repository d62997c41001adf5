#include "ws/update.h"

#include <utility>

#include "core/api/client_json.h"

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

Result<PublishedUpdate> ParseUpdate(std::string_view payload, std::size_t max_bytes) {
  if (payload.size() > max_bytes) {
    return Status::Error("the message exceeds " + std::to_string(max_bytes) + " bytes");
  }
  api::ClientJson parsed = api::ParseClientJson(payload);
  if (parsed.problem == api::ClientJson::Problem::kTooDeep) {
    return Status::Error("the message nests deeper than " +
                         std::to_string(api::kMaxClientJsonDepth) + " levels");
  }
  if (!parsed.ok()) return Status::Error("the message is not JSON");
  nlohmann::json json = std::move(parsed.value);
  if (!json.is_object()) return Status::Error("the message is not a JSON object");
  PublishedUpdate update;
  auto sequence = json.find("sequence");
  if (sequence != json.end() && sequence->is_number_integer()) {
    update.publisher_sequence = sequence->get<std::int64_t>();
  }
  auto epoch = json.find("epoch");
  if (epoch != json.end() && epoch->is_string()) {
    const std::string& name = epoch->get_ref<const std::string&>();
    if (name.size() > kMaxEpochBytes) {
      return Status::Error("the message's epoch exceeds " + std::to_string(kMaxEpochBytes) +
                           " bytes");
    }
    update.epoch = name;
  }
  auto appended = json.find("appendedAt");
  if (appended != json.end() && appended->is_number_integer()) {
    update.appended_unix_us = appended->get<std::int64_t>();
  }
  update.event = std::move(json);
  return update;
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
