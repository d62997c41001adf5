#include "ws/legacy_ws_session.h"

#include "ws/messages.h"

namespace netgraph::ws {

void LegacyWsSession::OnMessage(std::string_view text) {
  nlohmann::json message = ParseIncoming(text);
  if (message.is_discarded() || !message.is_object()) {
    return peer_.Send(Message("connection_error", ErrorObject("Message must be a JSON object")));
  }
  const nlohmann::json* type = JsonMember(message, "type");
  const std::string name = type != nullptr && type->is_string() ? type->get<std::string>() : "";
  if (name == "connection_init") return OnConnectionInit(message);
  if (name == "start") return OnStart(message);
  if (name == "stop") return OnStop(message);
  if (name == "connection_terminate") return peer_.Close(close_code::kNormal, "");
  SendError(message, "Invalid message type!");
}

void LegacyWsSession::OnTimer() {
  if (!acknowledged_) {
    return peer_.Close(close_code::kInitTimeout, "Connection initialisation timeout");
  }
  if (CloseIfExpired()) return;
  // A wake-up for the expiry that came a little early sends one "ka" more: harmless.
  peer_.Send(Message("ka"));
  ArmTimer(options_.legacy_keepalive);
}

void LegacyWsSession::OnNext(const std::string& id, const SharedText& result) {
  if (running_.count(id) == 0 || CloseIfExpired()) return;
  peer_.Send(OperationMessage("data", id, result));
}

void LegacyWsSession::OnFailed(const std::string& id, const graphql::ExecutionResult& failure) {
  if (!FinishOperation(id, {StartResult::Kind::kRequestError, failure})) return;
  peer_.Send(OperationMessage("data", id, failure.Body()));
  peer_.Send(OperationMessage("complete", id));
}

void LegacyWsSession::OnConnectionInit(const nlohmann::json& message) {
  const nlohmann::json* payload = JsonMember(message, "payload");
  if (!Authenticate(payload != nullptr ? *payload : nlohmann::json())) {
    return CloseWith(close_code::kForbidden, "Forbidden");
  }
  // subscriptions-transport-ws answers a repeated init again (with its new credentials, which
  // replace the old ones and their expiry).
  bool first = !acknowledged_;
  acknowledged_ = true;
  peer_.Send(Message("connection_ack"));
  if (first) peer_.Send(Message("ka"));
  ArmTimer(options_.legacy_keepalive);
}

void LegacyWsSession::OnStart(nlohmann::json& message) {
  const std::string* id = JsonOperationId(message);
  if (id == nullptr) return SendError(message, "start needs a non-empty string id");
  if (!acknowledged_) return SendError(message, "Send connection_init before start");
  auto payload = message.find("payload");
  Result<OperationRequest> request =
      OperationRequestOf(payload != message.end() ? &*payload : nullptr);
  if (!request.ok())
    return SendError(message, "Invalid start message: " + request.status().message());
  // subscriptions-transport-ws replaces an operation started again under the same id.
  StopOperation(*id);
  std::optional<StartResult> result = StartOperation(*id, *request);
  if (!result || result->kind == StartResult::Kind::kSubscribed ||
      result->kind == StartResult::Kind::kPending) {
    return;
  }
  SendOutcome(*id, *result);
}

void LegacyWsSession::SendOutcome(const std::string& id, const StartResult& result) {
  // Results and request errors alike: one data message, then complete.
  peer_.Send(OperationMessage("data", id, result.result.Body()));
  peer_.Send(OperationMessage("complete", id));
}

void LegacyWsSession::OnStop(const nlohmann::json& message) {
  const std::string* id = JsonOperationId(message);
  if (id == nullptr) return SendError(message, "stop needs a non-empty string id");
  if (StopOperation(*id)) peer_.Send(OperationMessage("complete", *id));
}

void LegacyWsSession::CloseWith(int code, std::string_view reason) {
  peer_.Send(Message("connection_error", ErrorObject(reason)));
  peer_.Close(code, reason);
}

void LegacyWsSession::SendError(const nlohmann::json& message, std::string_view text) {
  const std::string* id = JsonOperationId(message);
  if (id == nullptr) return peer_.Send(Message("error", ErrorObject(text)));
  peer_.Send(OperationMessage("error", *id, ErrorObject(text).dump()));
}

}  // namespace netgraph::ws
