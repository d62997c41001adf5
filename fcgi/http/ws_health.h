// Whether netgraph-ws is up, as the pool's /health reports it (fcgi/http/routes.h): a GET
// /ws/health to the address netgraph-ws listens on, answered 200 within a timeout.
#ifndef NETGRAPH_FCGI_HTTP_WS_HEALTH_H_
#define NETGRAPH_FCGI_HTTP_WS_HEALTH_H_

#include <chrono>
#include <string>

namespace netgraph::fcgi {

// Whether netgraph-ws at `address` (a unix socket path, or host:port) answers GET /ws/health with
// 200 within `timeout`.
bool WsHealthy(const std::string& address, std::chrono::milliseconds timeout);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_HTTP_WS_HEALTH_H_
