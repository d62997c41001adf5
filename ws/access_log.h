// netgraph-ws's access lines (info, NETGRAPH_ACCESS_LOG; docs/operations.md, "Logs"): one when a
// WebSocket upgrade is answered, one per operation outcome (ws/session.h, OperationLog) and one
// when the connection closes. All carry the connection's request id (nginx's, the
// netgraph_request_id URL parameter) and its W3C trace (daemon/trace_context.h): the trace the
// client's traceparent named at the upgrade, or a new one. The upgrade and close lines carry the
// connection's span, which the 101 answer's `traceresponse` header names; an operation's line
// carries the operation's own span, whose parent_span_id is the connection's.
#ifndef NETGRAPH_WS_ACCESS_LOG_H_
#define NETGRAPH_WS_ACCESS_LOG_H_

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "daemon/trace_context.h"
#include "ws/session.h"

namespace netgraph::ws {

// What every line of one connection names it by.
struct ConnectionIdentity {
  std::string request_id;
  daemon::TraceContext trace;
  std::string protocol;  // the subprotocol, "none" when the upgrade named none netgraph-ws speaks
  std::string client;    // ClientAddress (ws/handshake.h)
};

// How a connection ended, for its close line.
struct CloseLog {
  // "server" (netgraph-ws sent the close frame: `code` and `reason` are its) or "client" (the
  // client's close frame came first: `code` is its, when it gave one; or the socket was lost).
  std::string_view closed_by;
  std::optional<int> code;
  std::string reason;
  std::chrono::milliseconds duration{0};  // from the upgrade
};

// The upgrade line: the subprotocol, the client address, and the close code when it was refused.
void LogUpgrade(const ConnectionIdentity& connection, int refused_with);
// An operation's line: its id, operationName, outcome (and error codes, close code, duration).
void LogOperation(const ConnectionIdentity& connection, const OperationLog& operation);
void LogClose(const ConnectionIdentity& connection, const CloseLog& close);

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_ACCESS_LOG_H_
