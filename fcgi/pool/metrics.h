// What the pool says about itself: /status (per-worker JSON, like php-fpm's pm.status_path),
// /metrics (the Prometheus text format, aggregated over the scoreboard) and the reachability of
// netgraph-ws that /health reports. nginx exposes /status and /metrics only to the addresses an
// operator allows (nginx/netgraph-observability-allow.conf, docs/operations.md).
#ifndef NETGRAPH_FCGI_POOL_METRICS_H_
#define NETGRAPH_FCGI_POOL_METRICS_H_

#include <chrono>
#include <optional>
#include <string>

#include "fcgi/pool/scoreboard.h"

namespace netgraph::fcgi {

// What the pool needs to answer /status, /metrics and /health beyond the service.
struct PoolView {
  const Scoreboard* scoreboard = nullptr;
  int listen_fd = -1;
  // Where netgraph-ws listens (NETGRAPH_WS_LISTEN: a unix socket path or host:port).
  std::string ws_address;
};

// The connections waiting in the listening socket's accept queue and the queue's bound, as the
// kernel reports them: sock_diag (UNIX_DIAG_RQLEN) for a unix socket, TCP_INFO for TCP; nullopt
// when it does not say.
struct ListenQueue {
  unsigned waiting = 0;
  unsigned limit = 0;
};
std::optional<ListenQueue> ReadListenQueue(int listen_fd);

std::string PoolStatusJson(const PoolView& pool);
std::string PoolMetricsText(const PoolView& pool);

// Whether netgraph-ws answers GET /ws/health with 200 within `timeout`.
bool WsHealthy(const std::string& address, std::chrono::milliseconds timeout);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_METRICS_H_
