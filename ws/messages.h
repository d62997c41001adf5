// The JSON text of the messages netgraph-ws sends, and small helpers to read the ones it receives.
// Both protocols share one envelope:
// {"id":..., "type":..., "payload":...}, with id and payload present only where the message has
// them.
#ifndef NETGRAPH_WS_MESSAGES_H_
#define NETGRAPH_WS_MESSAGES_H_

#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/api/operation_request.h"
#include "ws/outgoing.h"

namespace netgraph::ws {

// {"type":T}
OutgoingMessage Message(std::string_view type);
// {"type":T,"payload":P}
OutgoingMessage Message(std::string_view type, const nlohmann::json& payload);
// {"id":I,"type":T}
OutgoingMessage OperationMessage(std::string_view type, const std::string& id);
// {"id":I,"type":T,"payload":P}, P given as JSON text.
OutgoingMessage OperationMessage(std::string_view type, const std::string& id,
                                 std::string_view payload_json);
// The same, the payload shared with other recipients rather than copied.
OutgoingMessage OperationMessage(std::string_view type, const std::string& id,
                                 SharedText payload_json);

// Parses a client's message: a discarded value (is_discarded()) when it is not JSON or nests deeper
// than 64 levels. Deeper messages are refused before parsing, so that no later recursive walk
// (dump, Value::FromJson) can overflow the stack.
nlohmann::json ParseIncoming(std::string_view text);

// Reading incoming messages: the member `name` of a JSON object, or nullptr.
const nlohmann::json* JsonMember(const nlohmann::json& object, const char* name);
// The message's "id" when it is a non-empty string, or nullptr.
const std::string* JsonOperationId(const nlohmann::json& message);

// What a parsed value holds in memory, itself included: nlohmann::json takes many times its text
// (16 bytes for each number, map nodes for object members), so bounds on what clients make the
// process hold count this, not the text's length. An estimate from the containers' sizes and
// capacities, with the allocator's overhead per block. For values ParseIncoming accepted (it walks
// them recursively, and their nesting is bounded).
std::size_t JsonHeldBytes(const nlohmann::json& value);
// What an operation request holds in memory: its texts and its parsed variables (JsonHeldBytes).
std::size_t RequestHeldBytes(const api::OperationRequest& request);

// `bytes` for people: "2.0 MiB".
std::string MebibytesText(std::size_t bytes);

// {"message": text}: an error as both protocols show one.
nlohmann::json ErrorObject(std::string_view text);

// The most a WebSocket close frame's reason may hold.
inline constexpr std::size_t kMaxCloseReasonBytes = 123;
// `reason` when it fits a close frame, otherwise `fallback`.
std::string LimitCloseReason(std::string reason, std::string_view fallback);

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_MESSAGES_H_
