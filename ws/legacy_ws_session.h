// The legacy graphql-ws protocol of subscriptions-transport-ws (ws/README.md, "Protocols"):
// connection_init -> connection_ack then "ka" keep-alives; start -> data* then complete, stop ->
// complete; connection_terminate closes. It has no close codes of its own: a bad message gets an
// error or connection_error message, and the socket stays open. netgraph adds what it needs to
// protect itself, with the graphql-transport-ws codes: 4408 without connection_init in time; and
// after a connection_error message whose payload's message is the close reason, 4403 for a refused
// or expired token and 4429 past the operation rate.
#ifndef NETGRAPH_WS_LEGACY_WS_SESSION_H_
#define NETGRAPH_WS_LEGACY_WS_SESSION_H_

#include <string>
#include <string_view>
#include <utility>

#include "ws/session.h"

namespace netgraph::ws {

class LegacyWsSession final : public Session {
 public:
  LegacyWsSession(Peer& peer, Backend& backend, const Options& options,
                  std::string upgrade_authorization)
      : Session(peer, backend, options, std::move(upgrade_authorization)) {}

  void OnMessage(std::string_view text) override;
  void OnTimer() override;
  void OnNext(const std::string& id, const SharedText& result) override;
  void OnFailed(const std::string& id, const graphql::ExecutionResult& failure) override;

 private:
  // Sends connection_error {"message": reason}, then closes with `code` and `reason`.
  void CloseWith(int code, std::string_view reason) override;
  void SendOutcome(const std::string& id, const StartResult& result) override;
  void OnConnectionInit(const nlohmann::json& message);
  void OnStart(nlohmann::json& message);
  void OnStop(const nlohmann::json& message);
  // {"id":..., "type":"error", "payload":{"message": text}} (no id when the message had none).
  void SendError(const nlohmann::json& message, std::string_view text);

  bool acknowledged_ = false;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_LEGACY_WS_SESSION_H_
