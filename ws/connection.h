// One upgraded WebSocket connection: a GraphQL session, its outgoing queue, and the way both meet
// libwebsockets' rules (writes from SERVER_WRITEABLE, one lws_write per callback, LWS_PRE bytes of
// headroom; incoming messages may arrive in fragments). A message sent while nothing waits in the
// queue and the socket is not choked is written at once instead (Send says why).
//
// Server-initiated closes (protocol violations, slow consumers, shutdown) all go the same way: the
// queue drains (or is dropped, for a slow consumer), then the close frame with its code and reason
// goes out from SERVER_WRITEABLE, and the connection is hung up once lws has written it. A client
// that does not take it within a few seconds is cut off.
//
// The connection is pinged and hung up as ws/keepalive.h says, when the server checks it
// (CheckKeepalive); the ping goes out from SERVER_WRITEABLE before any queued message.
#ifndef NETGRAPH_WS_CONNECTION_H_
#define NETGRAPH_WS_CONNECTION_H_

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ws/access_log.h"
#include "ws/keepalive.h"
#include "ws/options.h"
#include "ws/outgoing.h"
#include "ws/session.h"

struct lws;

namespace netgraph::ws {

// The connection stands between its session and the Backend (it forwards every call) so it knows
// whether the client presented a valid token: a connection with none and no subscription is idle
// anonymous, and the server closes it after Options::idle_anonymous_timeout.
class Connection final : public Peer, public Backend {
 public:
  // `write_buffer` is scratch space shared by the connections of one event loop. `identity` names
  // the connection on its log lines (its client address: see ClientAddress in ws/handshake.h).
  Connection(lws* wsi, const Options& options, Backend& backend,
             std::vector<unsigned char>& write_buffer, ConnectionIdentity identity);
  ~Connection() override;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Starts `session` (arms its connection_init timer).
  void Start(std::unique_ptr<Session> session);
  // Refuses the connection: closes it with `code` without a session.
  void Refuse(int code, std::string_view reason);

  // libwebsockets events. OnWritable returns what the callback must return (-1 closes).
  void OnReceive(const char* data, std::size_t length, bool message_complete);
  int OnWritable();
  void OnTimer();
  // A pong arrived.
  void OnPong();
  // The client's close frame arrived (`payload`: its code and reason, if any), before any of ours.
  void OnPeerClose(const unsigned char* payload, std::size_t length);
  // The connection is gone: ends the session and writes the close line.
  void OnClosed();

  const std::string& peer_address() const { return identity_.client; }
  const ConnectionIdentity& identity() const { return identity_; }
  // " (request_id …, trace_id …)": what a free-text log line about the connection ends with, so
  // grepping a trace id finds it too.
  std::string Traced() const;
  Session* session() const { return session_.get(); }
  // Whether the connection has been without a token and without a subscription or operation for
  // at least `timeout` by `now` (a connection that is not idle restarts its clock here).
  bool IdleAnonymous(std::chrono::steady_clock::time_point now, std::chrono::milliseconds timeout);
  // Pings the client, or hangs up on it, if either is due at `now`.
  void CheckKeepalive(std::chrono::steady_clock::time_point now);

  // Peer
  void Send(OutgoingMessage message) override;
  void Close(int code, std::string_view reason) override;
  void SetTimer(std::chrono::milliseconds delay) override;
  void LogOperation(const OperationLog& line) override;

  // Backend: forwarded to the process's backend.
  Authentication Authenticate(std::string_view authorization) override;
  StartResult Start(Subscriber& subscriber, const std::string& id, const OperationRequest& request,
                    graphql::RequestContext* context) override;
  void Stop(Subscriber& subscriber, const std::string& id) override;
  void StopAll(Subscriber& subscriber) override;

 private:
  // Writes the close frame; the connection is hung up on the next WRITEABLE.
  int SendCloseFrame();
  // Writes `message` as one text frame; false when the socket failed.
  bool WriteText(const OutgoingMessage& message);
  // Closes the connection without a close frame (no pong, or the socket failed).
  void HangUp();

  lws* wsi_;
  const Options& options_;
  Backend& backend_;
  bool token_presented_ = false;  // a valid token authenticated the connection
  std::chrono::steady_clock::time_point active_at_ = std::chrono::steady_clock::now();
  std::vector<unsigned char>& write_buffer_;
  ConnectionIdentity identity_;
  const std::chrono::steady_clock::time_point opened_at_ = std::chrono::steady_clock::now();
  Keepalive keepalive_;
  bool ping_due_ = false;
  bool hang_up_ = false;                // the client left a ping unanswered
  std::optional<int> peer_close_code_;  // the client's close frame came first
  bool peer_closed_ = false;
  OutgoingQueue queue_;
  std::string incoming_;  // the fragments of a message received so far
  std::unique_ptr<Session> session_;
  bool closing_ = false;
  bool close_sent_ = false;
  int close_code_ = 0;
  std::string close_reason_;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_CONNECTION_H_
