// One WebSocket connection's GraphQL protocol: a state machine fed the connection's complete text
// messages, which answers through a Peer (send, close, timer) and runs operations through a
// Backend. It knows nothing of libwebsockets, so every protocol rule is testable with fakes.
//
// Two dialects share this interface (conformance notes §3): graphql-transport-ws (the graphql-ws
// npm package) and the legacy graphql-ws of subscriptions-transport-ws.
#ifndef NETGRAPH_WS_SESSION_H_
#define NETGRAPH_WS_SESSION_H_

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/graphql/engine.h"
#include "ws/handshake.h"
#include "ws/options.h"
#include "ws/outgoing.h"

namespace netgraph::ws {

// The WebSocket close codes netgraph-ws sends. 44xx follow graphql-transport-ws; the legacy
// protocol has no codes of its own and gets the same ones.
namespace close_code {
inline constexpr int kNormal = 1000;
inline constexpr int kGoingAway = 1001;      // the server is stopping
inline constexpr int kMessageTooBig = 1009;  // an incoming message passed the size limit
inline constexpr int kTryAgainLater = 1013;  // the connection limit is reached
inline constexpr int kBadRequest = 4400;     // invalid JSON, bad shape, unknown type
inline constexpr int kUnauthorized = 4401;   // subscribe before connection_ack
inline constexpr int kForbidden = 4403;      // an invalid token, or an Origin not allowed
inline constexpr int kSubprotocolNotAcceptable = 4406;
inline constexpr int kInitTimeout = 4408;       // no connection_init in time
inline constexpr int kSubscriberExists = 4409;  // subscribe with an id still running
inline constexpr int kTooManyInitRequests = 4429;
inline constexpr int kInternalError = 4500;
inline constexpr int kSlowConsumer = 4503;  // the client fell too far behind (queue limits)
}  // namespace close_code

// A GraphQL request as a subscribe (or legacy start) message carries it.
struct OperationRequest {
  std::string query;
  std::optional<std::string> operation_name;
  nlohmann::json variables;  // an object, or null when the message had none
};

// How starting an operation ended.
struct StartResult {
  enum class Kind {
    kSubscribed,    // a subscription is running; its results come through Subscriber::OnNext
    kResult,        // a query or mutation ran: `body` is its ExecutionResult
    kRequestError,  // nothing ran: `body` is {"errors":[...]}
  };
  Kind kind = Kind::kRequestError;
  std::string body;
};

// Whoever starts subscriptions receives their results.
class Subscriber {
 public:
  virtual ~Subscriber() = default;
  // A result of subscription `id`: a serialised ExecutionResult shared with other subscribers.
  virtual void OnNext(const std::string& id, const SharedText& result) = 0;
  // Subscription `id` ended with a request error (`errors_body` is {"errors":[...]}); it is no
  // longer running and must not be stopped.
  virtual void OnFailed(const std::string& id, const std::string& errors_body) = 0;
};

// The service as a session sees it: credentials, the GraphQL engine and the fan-out hub.
class Backend {
 public:
  virtual ~Backend() = default;
  // The request context of a connection that presents `authorization` (an Authorization header
  // value such as "Bearer eyJ..."; empty when there is none), or nullptr when a token was presented
  // and is not valid.
  virtual std::unique_ptr<graphql::RequestContext> Authenticate(std::string_view authorization) = 0;
  // Starts operation `id` of `subscriber`; a query or mutation runs to completion here.
  virtual StartResult Start(Subscriber& subscriber, const std::string& id,
                            const OperationRequest& request, graphql::RequestContext* context) = 0;
  virtual void Stop(Subscriber& subscriber, const std::string& id) = 0;
  virtual void StopAll(Subscriber& subscriber) = 0;
};

// The connection a session speaks through.
class Peer {
 public:
  virtual ~Peer() = default;
  virtual void Send(OutgoingMessage message) = 0;
  // Closes the connection after what is already queued; later sends are dropped.
  virtual void Close(int code, std::string_view reason) = 0;
  // Calls Session::OnTimer once after `delay`, replacing any timer set before.
  virtual void SetTimer(std::chrono::milliseconds delay) = 0;
};

class Session : public Subscriber {
 public:
  // A session of `subprotocol` (graphql-transport-ws or graphql-ws). `upgrade_authorization`: the
  // upgrade request's Authorization header (empty when absent); a token in connection_init's
  // payload takes precedence over it.
  static std::unique_ptr<Session> Create(Subprotocol subprotocol, Peer& peer, Backend& backend,
                                         const Options& options, std::string upgrade_authorization);
  ~Session() override = default;

  // The connection is established: arms the connection_init timer.
  void Open() { peer_.SetTimer(options_.init_timeout); }
  // One complete message from the client.
  virtual void OnMessage(std::string_view text) = 0;
  // The timer set through Peer::SetTimer fired.
  virtual void OnTimer() = 0;
  // The connection is gone: ends every running subscription.
  void OnClosed();

  const std::set<std::string>& running() const { return running_; }

 protected:
  Session(Peer& peer, Backend& backend, const Options& options, std::string upgrade_authorization)
      : peer_(peer),
        backend_(backend),
        options_(options),
        upgrade_authorization_(std::move(upgrade_authorization)) {}

  // Authenticates with connection_init's `payload` (an object or null): its "Authorization"
  // ("Bearer ...") or "authToken" member, else the upgrade request's header. False when refused.
  bool Authenticate(const nlohmann::json& payload);
  // Starts `id` unless the connection already runs the most subscriptions it may (then a request
  // error says so). A started subscription joins running().
  StartResult StartOperation(const std::string& id, const OperationRequest& request);
  // Stops `id` if it runs; false if it did not.
  bool StopOperation(const std::string& id);

  Peer& peer_;
  Backend& backend_;
  const Options& options_;
  std::string upgrade_authorization_;
  std::unique_ptr<graphql::RequestContext> context_;  // set by a successful Authenticate
  std::set<std::string> running_;
};

// Reads a subscribe/start payload ({query, operationName?, variables?, extensions?}); on a bad
// shape returns nullopt and says why in `problem`.
std::optional<OperationRequest> ParseOperationRequest(const nlohmann::json& payload,
                                                      std::string* problem);

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_SESSION_H_
