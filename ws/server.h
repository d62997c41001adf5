// The WebSocket endpoint: a libwebsockets context joined to the process's libuv loop (a "foreign"
// loop, so Redis and timers share the one thread), serving graphql-transport-ws and graphql-ws on
// the connections it accepts from a listening socket.
//
// The socket is accepted here (not by libwebsockets) and each connection adopted, so the socket can
// come from systemd or daemon::OpenListenSocket like netgraph-fcgi's.
#ifndef NETGRAPH_WS_SERVER_H_
#define NETGRAPH_WS_SERVER_H_

#include <libwebsockets.h>
#include <uv.h>

#include <array>
#include <cstddef>
#include <functional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/status.h"
#include "ws/hub.h"
#include "ws/options.h"
#include "ws/session.h"

namespace netgraph::ws {

class Connection;

// Each connection is counted under its client address (X-Real-IP from nginx, see ClientAddress in
// ws/handshake.h): past Options::max_connections_per_address it is closed with 1013, and the
// address is what `clients` charges the connection's subscriptions to. Connections with no token
// and no subscription are closed with 4408 after Options::idle_anonymous_timeout.
class Server {
 public:
  Server(uv_loop_t* loop, const Options& options, Backend& backend, ClientDirectory& clients);
  // Completes the context's destruction: destroy the server after Stop, once the loop has run
  // out of handles.
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Creates the libwebsockets context on the loop and accepts connections from `listen_fd`, a
  // listening stream socket (the server does not own it: the caller closes it after Stop).
  Status Start(int listen_fd);
  // Stops accepting and closes every connection with 1001; once all are gone (or the shutdown
  // timeout passed) destroys the context and calls `stopped`. The loop then has no handle of the
  // server's left.
  void Stop(std::function<void()> stopped);

 private:
  static int Callback(lws* wsi, lws_callback_reasons reason, void* user, void* in, size_t length);
  int OnConfirmUpgrade(lws* wsi);
  void OnEstablished(lws* wsi, void* user);
  void OnClosed(void* user);
  static void OnListenReadable(uv_poll_t* poll, int status, int events);
  void Accept();
  void PauseAccepting();
  void CloseIdleAnonymous();
  void CheckKeepalives();
  void Finish();

  uv_loop_t* loop_;
  const Options& options_;
  Backend& backend_;
  ClientDirectory& clients_;
  lws_retry_bo_t idle_policy_{};
  std::array<lws_protocols, 4> protocols_{};
  lws_context* context_ = nullptr;
  int listen_fd_ = -1;
  uv_poll_t* listen_poll_ = nullptr;       // heap handles: libuv closes them asynchronously
  uv_timer_t* timer_ = nullptr;            // accept pause, then the shutdown deadline
  uv_timer_t* idle_timer_ = nullptr;       // the sweep for idle anonymous connections
  uv_timer_t* keepalive_timer_ = nullptr;  // the pings' sweep (ws/keepalive.h)
  std::unordered_set<Connection*> connections_;
  std::unordered_map<std::string, std::size_t> connections_per_address_;  // sessions started
  std::vector<unsigned char> write_buffer_;
  bool stopping_ = false;
  std::function<void()> stopped_;
};

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_SERVER_H_
