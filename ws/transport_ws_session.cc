#include "ws/transport_ws_session.h"

#include <utility>

#include "ws/messages.h"

namespace netgraph::ws {
namespace {

// A payload that may be absent, null or an object, and nothing else.
bool OptionalObjectPayload(const nlohmann::json& message) {
  const nlohmann::json* payload = JsonMember(message, "payload");
  return payload == nullptr || payload->is_null() || payload->is_object();
}

}  // namespace

void TransportWsSession::OnMessage(std::string_view text) {
  nlohmann::json message = ParseIncoming(text);
  if (message.is_discarded()) {
    return Reject("Invalid message received: not JSON, or nested too deeply");
  }
  if (!message.is_object()) return Reject("Invalid message received: not a JSON object");
  const nlohmann::json* type = JsonMember(message, "type");
  if (type == nullptr || !type->is_string()) {
    return Reject("Invalid message received: no string 'type'");
  }
  const std::string& name = type->get_ref<const std::string&>();
  if (name == "connection_init") return OnConnectionInit(message);
  if (name == "ping" || name == "pong") return OnPing(message, name);
  if (name == "subscribe") return OnSubscribe(message);
  if (name == "complete") return OnComplete(message);
  if (name == "connection_ack" || name == "next" || name == "error") {
    return Reject("Unexpected message of type " + name + " from a client");
  }
  Reject(LimitCloseReason("Invalid message type \"" + name + "\"", "Invalid message type"));
}

void TransportWsSession::OnTimer() {
  if (!init_received_) {
    return peer_.Close(close_code::kInitTimeout, "Connection initialisation timeout");
  }
  if (!CloseIfExpired()) ArmTimer(std::nullopt);
}

void TransportWsSession::OnNext(const std::string& id, const SharedText& result) {
  if (running_.count(id) == 0 || CloseIfExpired()) return;
  peer_.Send(OperationMessage("next", id, result));
}

void TransportWsSession::OnFailed(const std::string& id, const graphql::ExecutionResult& failure) {
  if (!FinishOperation(id, {StartResult::Kind::kRequestError, failure})) return;
  peer_.Send(OperationMessage("error", id, failure.errors));
}

void TransportWsSession::OnConnectionInit(const nlohmann::json& message) {
  if (!OptionalObjectPayload(message)) {
    return Reject("Invalid message received: connection_init payload must be an object");
  }
  if (init_received_) {
    return peer_.Close(close_code::kTooManyInitRequests, "Too many initialisation requests");
  }
  init_received_ = true;
  const nlohmann::json* payload = JsonMember(message, "payload");
  if (!Authenticate(payload != nullptr ? *payload : nlohmann::json())) {
    return peer_.Close(close_code::kForbidden, "Forbidden");
  }
  acknowledged_ = true;
  peer_.Send(Message("connection_ack"));
  ArmTimer(std::nullopt);  // replaces the initialisation timer
}

void TransportWsSession::OnPing(const nlohmann::json& message, std::string_view type) {
  if (!OptionalObjectPayload(message)) {
    return Reject("Invalid message received: " + std::string(type) + " payload must be an object");
  }
  if (type == "pong") return;  // a heartbeat: nothing to answer
  const nlohmann::json* payload = JsonMember(message, "payload");
  peer_.Send(payload != nullptr && !payload->is_null() ? Message("pong", *payload)
                                                       : Message("pong"));
}

void TransportWsSession::OnSubscribe(nlohmann::json& message) {
  const std::string* id = JsonOperationId(message);
  if (id == nullptr) return Reject("Invalid message received: subscribe needs a non-empty id");
  auto payload = message.find("payload");
  Result<OperationRequest> request =
      OperationRequestOf(payload != message.end() ? &*payload : nullptr);
  if (!request.ok()) return Reject("Invalid message received: " + request.status().message());
  if (!acknowledged_) return peer_.Close(close_code::kUnauthorized, "Unauthorized");
  if (running_.count(*id) != 0) {
    return peer_.Close(
        close_code::kSubscriberExists,
        LimitCloseReason("Subscriber for " + *id + " already exists", "Subscriber already exists"));
  }
  std::optional<StartResult> result = StartOperation(*id, *request);
  if (!result) return;  // the connection is closing
  if (result->kind == StartResult::Kind::kResult ||
      result->kind == StartResult::Kind::kRequestError) {
    SendOutcome(*id, *result);
  }
}

void TransportWsSession::SendOutcome(const std::string& id, const StartResult& result) {
  if (result.kind == StartResult::Kind::kRequestError) {
    return peer_.Send(OperationMessage("error", id, result.result.errors));
  }
  peer_.Send(OperationMessage("next", id, result.result.Body()));
  peer_.Send(OperationMessage("complete", id));
}

void TransportWsSession::OnComplete(const nlohmann::json& message) {
  const std::string* id = JsonOperationId(message);
  if (id == nullptr) return Reject("Invalid message received: complete needs a non-empty id");
  StopOperation(*id);  // an id that is not running (finished, or never started) is ignored
}

void TransportWsSession::CloseWith(int code, std::string_view reason) { peer_.Close(code, reason); }

void TransportWsSession::Reject(std::string problem) {
  peer_.Close(close_code::kBadRequest,
              LimitCloseReason(std::move(problem), "Invalid message received"));
}

}  // namespace netgraph::ws
