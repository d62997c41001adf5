#include "ws/update.h"

#include <utility>

#include "core/api/client_json.h"

namespace netgraph::ws {

std::optional<UpdateStamp> Sequencer::Next(std::optional<std::int64_t> publisher_sequence) {
  if (publisher_sequence) {
    const std::int64_t number = *publisher_sequence;
    if (recent_set_.count(number) != 0) return std::nullopt;
    // A gap, or a publisher that started over: what came in between never arrived here.
    if (last_publisher_sequence_ && number != *last_publisher_sequence_ + 1) possible_loss_ = true;
    last_publisher_sequence_ = number;
    recent_.push_back(number);
    recent_set_.insert(number);
    if (recent_.size() > kRemembered) {
      recent_set_.erase(recent_.front());
      recent_.pop_front();
    }
  }
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
