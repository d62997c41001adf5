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

// What malloc adds to each block it hands out (glibc: a size word, rounded up to 16 bytes).
constexpr std::size_t kBlockOverhead = 16;
// A std::map node around a member: the tree's links and colour, before the key and the value.
constexpr std::size_t kMapNodeLinks = 32;

std::size_t StringHeapBytes(const std::string& text) {
  // Short strings live inside the std::string itself.
  constexpr std::size_t kInline = sizeof(std::string) - 2 * sizeof(std::size_t) - 1;
  return text.capacity() > kInline ? text.capacity() + 1 + kBlockOverhead : 0;
}

// What `value` holds outside its own sizeof(nlohmann::json) bytes.
std::size_t HeapBytes(const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::string: {
      const auto& text = value.get_ref<const nlohmann::json::string_t&>();
      return sizeof(text) + kBlockOverhead + StringHeapBytes(text);
    }
    case nlohmann::json::value_t::array: {
      const auto& items = value.get_ref<const nlohmann::json::array_t&>();
      std::size_t bytes = sizeof(items) + kBlockOverhead;
      if (items.capacity() > 0) bytes += items.capacity() * sizeof(nlohmann::json) + kBlockOverhead;
      for (const nlohmann::json& item : items) bytes += HeapBytes(item);
      return bytes;
    }
    case nlohmann::json::value_t::object: {
      const auto& members = value.get_ref<const nlohmann::json::object_t&>();
      std::size_t bytes = sizeof(members) + kBlockOverhead;
      for (const auto& [key, member] : members) {
        bytes += kMapNodeLinks + sizeof(key) + sizeof(member) + kBlockOverhead +
                 StringHeapBytes(key) + HeapBytes(member);
      }
      return bytes;
    }
    case nlohmann::json::value_t::binary: {
      const auto& binary = value.get_ref<const nlohmann::json::binary_t&>();
      return sizeof(binary) + kBlockOverhead + binary.capacity() + kBlockOverhead;
    }
    default:
      return 0;  // null, booleans and numbers are inside the value
  }
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

std::size_t JsonHeldBytes(const nlohmann::json& value) {
  // ParseIncoming refuses nesting past 64 levels, so the recursion is shallow.
  return sizeof(nlohmann::json) + HeapBytes(value);
}

std::size_t RequestHeldBytes(const api::OperationRequest& request) {
  return sizeof(request) + request.query.capacity() +
         (request.operation_name ? request.operation_name->capacity() : 0) +
         JsonHeldBytes(request.variables);
}

std::string MebibytesText(std::size_t bytes) {
  constexpr std::size_t kMebibyte = 1024 * 1024;
  return std::to_string(bytes / kMebibyte) + "." +
         std::to_string(bytes % kMebibyte * 10 / kMebibyte) + " MiB";
}

nlohmann::json ErrorObject(std::string_view text) { return {{"message", text}}; }

std::string LimitCloseReason(std::string reason, std::string_view fallback) {
  return reason.size() <= kMaxCloseReasonBytes ? std::move(reason) : std::string(fallback);
}

}  // namespace netgraph::ws
