// What the pool says about itself, after php-fpm's status page (fpm_status.c): /status (per-worker
// JSON, like php-fpm's pm.status_path) and /metrics (the Prometheus text format, summed over the
// scoreboard: fcgi/pool/scoreboard.h), both with the listen queue. The scoreboard keeps the
// figures; this file only shows them. nginx exposes /status and /metrics only to the addresses an
// operator allows (the geo $netgraph_observer of nginx/netgraph-http.conf, docs/operations.md).
#ifndef NETGRAPH_FCGI_POOL_STATUS_PAGE_H_
#define NETGRAPH_FCGI_POOL_STATUS_PAGE_H_

#include <string>

#include "fcgi/http/routes.h"
#include "fcgi/pool/scoreboard.h"

namespace netgraph::fcgi {

// What a worker needs to answer /status, /metrics and /health beyond the service.
struct PoolView {
  const Scoreboard* scoreboard = nullptr;  // null: no /status, no /metrics (404)
  int listen_fd = -1;
  // Where netgraph-ws listens (NETGRAPH_WS_LISTEN: a unix socket path or host:port), for /health.
  std::string ws_address;
};

std::string PoolStatusJson(const PoolView& pool);
std::string PoolMetricsText(const PoolView& pool);

// Adds /status and /metrics to `router`, when the pool has a scoreboard. `pool` must outlive it.
void AddStatusPages(Router& router, const PoolView& pool);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_STATUS_PAGE_H_
