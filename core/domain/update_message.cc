#include "core/domain/update_message.h"

#include <utility>

#include "core/bounded_json.h"

namespace netgraph::domain {
namespace {

constexpr char kSequence[] = "sequence";
constexpr char kEpoch[] = "epoch";
constexpr char kAppendedAt[] = "appendedAt";

// The member `name` of `json` when it is an integer.
std::optional<std::int64_t> IntegerMember(const nlohmann::json& json, const char* name) {
  auto member = json.find(name);
  if (member == json.end() || !member->is_number_integer()) return std::nullopt;
  return member->get<std::int64_t>();
}

}  // namespace

std::string UpdateMessage::Write() const {
  std::string text = "{";
  auto member = [&text](std::string_view name, const nlohmann::json& value) {
    if (text.size() > 1) text += ',';
    text += nlohmann::json(name).dump();
    text += ':';
    text += value.dump();
  };
  if (sequence) member(kSequence, *sequence);
  if (!epoch.empty()) member(kEpoch, epoch);
  if (appended_unix_us) member(kAppendedAt, *appended_unix_us);
  if (event.is_object()) {
    for (const auto& [name, value] : event.items()) {
      if (name != kSequence && name != kEpoch && name != kAppendedAt) member(name, value);
    }
  }
  text += '}';
  return text;
}

Result<UpdateMessage> UpdateMessage::Parse(std::string_view text, std::size_t max_bytes) {
  if (text.size() > max_bytes) {
    return Status::ResourceExhausted("the message exceeds " + std::to_string(max_bytes) + " bytes");
  }
  BoundedJson parsed = ParseBoundedJson(text);
  if (parsed.problem == BoundedJson::Problem::kTooDeep) {
    return Status::InvalidArgument("the message nests deeper than " +
                                   std::to_string(kMaxJsonDepth) + " levels");
  }
  if (!parsed.ok()) return Status::InvalidArgument("the message is not JSON");
  if (!parsed.value.is_object()) return Status::InvalidArgument("the message is not a JSON object");
  UpdateMessage message;
  message.sequence = IntegerMember(parsed.value, kSequence);
  message.appended_unix_us = IntegerMember(parsed.value, kAppendedAt);
  if (auto epoch = parsed.value.find(kEpoch); epoch != parsed.value.end() && epoch->is_string()) {
    const std::string& name = epoch->get_ref<const std::string&>();
    if (name.size() > kMaxEpochBytes) {
      return Status::InvalidArgument("the message's epoch exceeds " +
                                     std::to_string(kMaxEpochBytes) + " bytes");
    }
    message.epoch = name;
  }
  parsed.value.erase(kSequence);
  parsed.value.erase(kEpoch);
  parsed.value.erase(kAppendedAt);
  message.event = std::move(parsed.value);
  return message;
}

}  // namespace netgraph::domain
