#include "ws/messages.h"

#include "core/api/client_json.h"

#include <utility>

namespace netgraph::ws {
namespace {

// Ids come from clients: never let an odd byte in one make serialisation throw.
std::string Quote(std::string_view text) {
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string Envelope(std::string_view type, const std::string* id) {
  std::string head = "{";
  if (id != nullptr) head += "\"id\":" + Quote(*id) + ",";
  head += "\"type\":" + Quote(type);
  return head;
}

}  // namespace

OutgoingMessage Message(std::string_view type) {
  return OutgoingMessage::Text(Envelope(type, nullptr) + "}");
}

OutgoingMessage Message(std::string_view type, const nlohmann::json& payload) {
  return OutgoingMessage::Text(
      Envelope(type, nullptr) + ",\"payload\":" +
      payload.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "}");
}

OutgoingMessage OperationMessage(std::string_view type, const std::string& id) {
  return OutgoingMessage::Text(Envelope(type, &id) + "}");
}

OutgoingMessage OperationMessage(std::string_view type, const std::string& id,
                                 std::string_view payload_json) {
  std::string text = Envelope(type, &id) + ",\"payload\":";
  text.append(payload_json);
  text += '}';
  return OutgoingMessage::Text(std::move(text));
}

OutgoingMessage OperationMessage(std::string_view type, const std::string& id,
                                 SharedText payload_json) {
  OutgoingMessage message;
  message.head = Envelope(type, &id) + ",\"payload\":";
  message.shared = std::move(payload_json);
  message.tail = "}";
  return message;
}

nlohmann::json ParseIncoming(std::string_view text) { return api::ParseClientJson(text).value; }

const nlohmann::json* JsonMember(const nlohmann::json& object, const char* name) {
  auto it = object.find(name);
  return it == object.end() ? nullptr : &*it;
}

const std::string* JsonOperationId(const nlohmann::json& message) {
  const nlohmann::json* id = JsonMember(message, "id");
  if (id == nullptr || !id->is_string() || id->get_ref<const std::string&>().empty()) {
    return nullptr;
  }
  return &id->get_ref<const std::string&>();
}

nlohmann::json ErrorObject(std::string_view text) { return {{"message", text}}; }

std::string LimitCloseReason(std::string reason, std::string_view fallback) {
  return reason.size() <= kMaxCloseReasonBytes ? std::move(reason) : std::string(fallback);
}

}  // namespace netgraph::ws
