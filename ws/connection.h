// One upgraded WebSocket connection: a GraphQL session, its outgoing queue, and the way both meet
// libwebsockets' rules (conformance of writes: only from SERVER_WRITEABLE, one lws_write per
// callback, LWS_PRE bytes of headroom; incoming messages may arrive in fragments).
//
// Server-initiated closes (protocol violations, slow consumers, shutdown) all go the same way: the
// queue drains (or is dropped, for a slow consumer), then the close frame with its code and reason
// goes out from SERVER_WRITEABLE, and the connection is hung up once lws has written it. A client
// that does not take it within a few seconds is cut off.
#ifndef NETGRAPH_WS_CONNECTION_H_
#define NETGRAPH_WS_CONNECTION_H_

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ws/options.h"
#include "ws/outgoing.h"
#include "ws/session.h"

struct lws;

namespace netgraph::ws {

class Connection final : public Peer {
 public:
  // `write_buffer` is scratch space shared by the connections of one event loop.
  Connection(lws* wsi, const Options& options, std::vector<unsigned char>& write_buffer,
             std::string peer_address);
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
  void OnClosed();

  // Peer
  void Send(OutgoingMessage message) override;
  void Close(int code, std::string_view reason) override;
  void SetTimer(std::chrono::milliseconds delay) override;

 private:
  // Writes the close frame; the connection is hung up on the next WRITEABLE.
  int SendCloseFrame();

  lws* wsi_;
  const Options& options_;
  std::vector<unsigned char>& write_buffer_;
  std::string peer_address_;  // for logs: nginx's X-Real-IP, when present
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
