// A FastCGI worker: one process serving one request at a time from the shared listening socket
// until it is asked to stop (SIGTERM, SIGINT, SIGQUIT: the current request finishes first) or has
// served `max_requests` (then it exits and the master starts a fresh one).
#ifndef NETGRAPH_FCGI_WORKER_H_
#define NETGRAPH_FCGI_WORKER_H_

#include "core/api/service.h"
#include "fcgi/graphql_http.h"

namespace netgraph::fcgi {

struct WorkerOptions {
  int listen_fd = -1;
  long max_requests = 0;  // 0: never recycle
  GraphQLHttpOptions http;
};

// Returns the process exit status.
int RunWorker(const WorkerOptions& options, api::Service& service);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_WORKER_H_
