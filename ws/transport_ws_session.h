// The graphql-transport-ws protocol (graphql-ws PROTOCOL.md; ws/README.md, "Protocols"):
// connection_init within the timeout -> connection_ack; ping/pong at any time; subscribe -> next*
// then complete, or error; client complete stops an operation. Every violation closes the socket
// with the protocol's code. netgraph adds 4403 when the token expires (its exp plus the leeway),
// and 4429 "Too many operations" past the operation rate.
#ifndef NETGRAPH_WS_TRANSPORT_WS_SESSION_H_
#define NETGRAPH_WS_TRANSPORT_WS_SESSION_H_

#include <string>
#include <string_view>
#include <utility>

#include "ws/session.h"

namespace netgraph::ws {

class TransportWsSession final : public Session {
 public:
  TransportWsSession(Peer& peer, Backend& backend, const Options& options,
                     std::string upgrade_authorization)
      : Session(peer, backend, options, std::move(upgrade_authorization)) {}

  void OnMessage(std::string_view text) override;
  void OnTimer() override;
  void OnNext(const std::string& id, const SharedText& result) override;
  void OnFailed(const std::string& id, const graphql::ExecutionResult& failure) override;

 private:
  void CloseWith(int code, std::string_view reason) override;
  void SendOutcome(const std::string& id, const StartResult& result) override;
  void OnConnectionInit(const nlohmann::json& message);
  void OnPing(const nlohmann::json& message, std::string_view type);
  void OnSubscribe(nlohmann::json& message);
  void OnComplete(const nlohmann::json& message);
  // Closes with 4400 and a reason that names the problem.
  void Reject(std::string problem);

  bool init_received_ = false;
  bool acknowledged_ = false;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_TRANSPORT_WS_SESSION_H_
