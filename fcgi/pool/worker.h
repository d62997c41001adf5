// A FastCGI worker: one process serving one request at a time from the shared listening socket
// until it is asked to stop (SIGTERM, SIGINT, SIGQUIT: the current request finishes first) or has
// served `max_requests` (then it exits and the master starts a fresh one).
//
// Each request is served by fcgi/pool/serve.h (X-Request-Id, the scoreboard, the access and slow
// lines); the connections it holds and their hand-offs are fcgi/pool/held_connections.h.
//
// A peer of the pool's socket is not trusted to behave like nginx (docs/security.md, "The FastCGI
// socket"): a worker never blocks on one while idle, closes connections whose peer takes longer
// than the timeouts below, and holds at most 256 connections, accepted and taken over together.
#ifndef NETGRAPH_FCGI_POOL_WORKER_H_
#define NETGRAPH_FCGI_POOL_WORKER_H_

#include <chrono>

#include "core/api/service.h"
#include "fcgi/http/graphql_http.h"
#include "fcgi/pool/connection_handoff.h"
#include "fcgi/pool/scoreboard.h"
#include "fcgi/pool/status_page.h"

namespace netgraph::fcgi {

struct WorkerOptions {
  int listen_fd = -1;
  // Where idle kept-alive connections go between workers (null: nowhere; they are closed when the
  // worker stops).
  const ConnectionHandoff* handoff = nullptr;
  long max_requests = 0;  // 0: never recycle
  GraphQLHttpOptions http;
  // The scoreboard (null: none) and what /status, /metrics and /health need.
  Scoreboard* scoreboard = nullptr;
  PoolView pool;
  bool access_log = true;  // NETGRAPH_ACCESS_LOG
  // How long the worker may keep its access lines before writing them, several in one write
  // (core/log.h, KeepLines); 0: each at once.
  std::chrono::milliseconds access_log_flush{100};  // NETGRAPH_ACCESS_LOG_FLUSH_MS
  std::chrono::milliseconds slow_request{0};        // NETGRAPH_SLOW_REQUEST_MS; 0: no slow log
  // How long a peer may take to bring a whole request (from its first byte, or from the
  // connection's opening) and to take an answer; then the connection is closed.
  std::chrono::milliseconds io_timeout{10000};  // NETGRAPH_FCGI_IO_TIMEOUT_MS
  // How long a connection may stay idle between requests: longer than nginx's upstream
  // keepalive_timeout (60 s), so that nginx, not the worker, closes the connections it keeps.
  std::chrono::milliseconds idle_timeout{75000};  // NETGRAPH_FCGI_IDLE_TIMEOUT_MS
};

// Returns the process exit status.
int RunWorker(const WorkerOptions& options, api::Service& service);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_WORKER_H_
