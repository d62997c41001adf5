// One WebSocket connection's GraphQL protocol: a state machine fed the connection's complete text
// messages, which answers through a Peer (send, close, timer) and runs operations through a
// Backend. It knows nothing of libwebsockets, so every protocol rule is testable with fakes.
//
// Two dialects share this interface (ws/README.md, "Protocols"): graphql-transport-ws (the
// graphql-ws npm package) and the legacy graphql-ws of subscriptions-transport-ws.
#ifndef NETGRAPH_WS_SESSION_H_
#define NETGRAPH_WS_SESSION_H_

#include <chrono>
#include <cstddef>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/api/operation_request.h"
#include "core/graphql/engine.h"
#include "core/status.h"
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
inline constexpr int kForbidden = 4403;  // an invalid or expired token, or an Origin not allowed
inline constexpr int kSubprotocolNotAcceptable = 4406;
inline constexpr int kInitTimeout = 4408;       // no connection_init in time
inline constexpr int kSubscriberExists = 4409;  // subscribe with an id still running
inline constexpr int kTooManyInitRequests = 4429;
inline constexpr int kTooManyOperations = 4429;  // past the operation rate (Options::operations)
inline constexpr int kInternalError = 4500;
inline constexpr int kSlowConsumer = 4503;  // the client fell too far behind (queue limits)
}  // namespace close_code

// A GraphQL request as a subscribe (or legacy start) message carries it in its payload, parsed as
// HTTP's is (OperationRequestOf below).
using OperationRequest = api::OperationRequest;

// How starting an operation ended.
struct StartResult {
  enum class Kind {
    kSubscribed,    // a subscription is running; its results come through Subscriber::OnNext
    kResult,        // a query or mutation ran: `result` is its ExecutionResult
    kRequestError,  // nothing ran: `result` holds only errors
    kPending,       // a query or mutation runs elsewhere: Subscriber::OnResult brings its result
  };
  Kind kind = Kind::kRequestError;
  graphql::ExecutionResult result;
};

// Whoever starts subscriptions receives their results.
class Subscriber {
 public:
  virtual ~Subscriber() = default;
  // A result of subscription `id`: a serialised ExecutionResult shared with other subscribers.
  virtual void OnNext(const std::string& id, const SharedText& result) = 0;
  // Subscription `id` ended with a request error (`failure` holds only errors); it is no longer
  // running and must not be stopped.
  virtual void OnFailed(const std::string& id, const graphql::ExecutionResult& failure) = 0;
  // The outcome (kResult or kRequestError) of operation `id`, which Backend::Start left pending.
  virtual void OnResult(const std::string& id, const StartResult& result) = 0;
};

// What Backend::Authenticate made of a connection's credentials.
struct Authentication {
  // The request context to run one operation with; null when a token was presented and is not
  // valid now.
  std::unique_ptr<graphql::RequestContext> context;
  // How much longer the token is accepted (until its exp plus the configured leeway). Unset when
  // no token was presented: anonymous credentials never expire.
  std::optional<std::chrono::milliseconds> remaining;
};

// The service as a session sees it: credentials, the GraphQL engine and the fan-out hub.
class Backend {
 public:
  virtual ~Backend() = default;
  // Verifies `authorization` (an Authorization header value such as "Bearer eyJ..."; empty when
  // there is none) now. Sessions call it for every operation, so that neither an expired token nor
  // a role the token no longer grants outlives the token: nothing derived from it is kept.
  virtual Authentication Authenticate(std::string_view authorization) = 0;
  // The clock of a session's deadlines (token expiry, operation rate); tests substitute theirs.
  virtual std::chrono::steady_clock::time_point Now() { return std::chrono::steady_clock::now(); }
  // Starts operation `id` of `subscriber`. A query or mutation runs to completion here, or, when
  // it is left kPending, elsewhere: its outcome then comes through Subscriber::OnResult unless the
  // operation is stopped first (Stop, StopAll).
  virtual StartResult Start(Subscriber& subscriber, const std::string& id,
                            const OperationRequest& request, graphql::RequestContext* context) = 0;
  virtual void Stop(Subscriber& subscriber, const std::string& id) = 0;
  virtual void StopAll(Subscriber& subscriber) = 0;
};

// What a session tells of one operation (subscribe, or legacy start) when its start has an outcome,
// for the operation's log line (ws/access_log.h): one line as it starts, and one more when a
// query or mutation left pending, or a subscription, ends with a result or an error later.
struct OperationLog {
  std::string id;  // the client's operation id
  std::optional<std::string> operation_name;
  // The operation's own span (daemon::NewSpanId), under the connection's: the same on every line of
  // the operation, so one subscribe can be followed.
  std::string span_id;
  // "subscribed", "result" (a query or mutation ran, perhaps with errors), "error" (a request
  // error: nothing ran, or a subscription failed) or "refused" (the connection was closed instead,
  // with `closed_with`).
  std::string_view outcome;
  std::vector<std::string> error_codes;  // extensions.code of the errors answered
  int closed_with = 0;
  // From the start to this outcome, for one that came later (a pending operation, a subscription's
  // failure).
  std::optional<std::chrono::milliseconds> duration;
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
  // Writes the log line of an operation's outcome, under the connection's trace.
  virtual void LogOperation(const OperationLog& line) = 0;
};

// A token bucket: holds at most `burst` tokens and gains `per_second` each second; an operation
// takes one. A client may so start `burst` operations at once, then `per_second` a second.
class TokenBucket {
 public:
  using TimePoint = std::chrono::steady_clock::time_point;
  TokenBucket(std::size_t per_second, std::size_t burst, TimePoint now)
      : per_second_(static_cast<double>(per_second)),
        burst_(static_cast<double>(burst)),
        tokens_(burst_),
        refilled_(now) {}
  // Takes a token; false (and nothing taken) when the bucket is empty.
  bool Take(TimePoint now);

 private:
  double per_second_;
  double burst_;
  double tokens_;
  TimePoint refilled_;
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
  // Subscriber: a pending operation's outcome, sent unless the operation was stopped meanwhile or
  // the token expired.
  void OnResult(const std::string& id, const StartResult& result) override;

  const std::set<std::string>& running() const { return running_; }

 protected:
  Session(Peer& peer, Backend& backend, const Options& options, std::string upgrade_authorization)
      : peer_(peer),
        backend_(backend),
        options_(options),
        upgrade_authorization_(std::move(upgrade_authorization)),
        operation_rate_(options.operations_per_second, options.operations_burst, backend.Now()) {}

  // Closes the connection the protocol's way, with `code` and `reason`.
  virtual void CloseWith(int code, std::string_view reason) = 0;
  // Sends a finished query's or mutation's outcome (kResult or kRequestError) the protocol's way.
  virtual void SendOutcome(const std::string& id, const StartResult& result) = 0;

  // Authenticates with connection_init's `payload` (an object or null): its "Authorization"
  // ("Bearer ...") or "authToken" member, else the upgrade request's header. False when refused.
  // Accepted credentials are remembered (not what they grant) until the token expires.
  bool Authenticate(const nlohmann::json& payload);
  // Starts `id`, authorised by the connection's credentials verified again now. Closes the
  // connection (and returns nullopt) when the client passed its operation rate (4429) or the
  // credentials are no longer accepted (4403). A request error says so when the connection already
  // runs the most subscriptions it may. A started subscription, and a pending operation until its
  // outcome arrives, joins running().
  std::optional<StartResult> StartOperation(const std::string& id, const OperationRequest& request);
  // Stops `id` if it runs; false if it did not.
  bool StopOperation(const std::string& id);
  // Running operation `id` ended with `result` (kResult, or kRequestError for a failed
  // subscription) after it started: logs it under its span and forgets it. False when `id` was not
  // running.
  bool FinishOperation(const std::string& id, const StartResult& result);
  // Closes with 4403 and returns true when the token has expired (exp plus leeway has passed).
  bool CloseIfExpired();
  // Sets the timer to fire after `delay` (none: only for the expiry), or when the token expires if
  // that is sooner.
  void ArmTimer(std::optional<std::chrono::milliseconds> delay);

  Peer& peer_;
  Backend& backend_;
  const Options& options_;
  std::string upgrade_authorization_;
  std::set<std::string> running_;

 private:
  // A running operation's span, for the line of its later outcome.
  struct Span {
    std::string span_id;
    std::optional<std::string> operation_name;
    std::chrono::steady_clock::time_point started_at;
  };
  // Logs `line` refused: the connection was closed with `code` (and returns nullopt).
  std::nullopt_t Refused(OperationLog line, int code);

  std::map<std::string, Span> spans_;  // of the operations in running_
  std::string authorization_;          // the credentials Authenticate accepted
  std::optional<std::chrono::steady_clock::time_point> expires_at_;  // unset: anonymous
  TokenBucket operation_rate_;
};

// The operation request of a subscribe/start message's `payload` ({query, operationName?,
// variables?, extensions?}; null when the message has none), its members moved out: the parse of
// GraphQL over HTTP (api::OperationRequest::FromJson). A bad shape is InvalidArgument, its message
// saying what is wrong for the protocol's error or close reason.
Result<OperationRequest> OperationRequestOf(nlohmann::json* payload);

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_SESSION_H_
