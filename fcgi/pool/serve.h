// Serving one request in a pool worker: the FastCGI request as HTTP (fcgi/fastcgi/http_exchange.h),
// routed (fcgi/http/routes.h), answered, and accounted for.
//
// The request's id is nginx's $request_id (FastCGI parameter REQUEST_ID) when it is plainly one,
// else one made here, and is returned as X-Request-Id. The worker's scoreboard slot shows it busy
// with the operation while it runs and counts it after (fcgi/pool/scoreboard.h); the access and
// slow lines are logged after the answer is written (fcgi/pool/access_log.h), so they do not delay
// the client. A handler that throws is answered 500 and logged.
#ifndef NETGRAPH_FCGI_POOL_SERVE_H_
#define NETGRAPH_FCGI_POOL_SERVE_H_

#include "core/api/service.h"
#include "fcgi/fastcgi/http_exchange.h"
#include "fcgi/fastcgi/record.h"
#include "fcgi/http/routes.h"
#include "fcgi/pool/worker.h"

namespace netgraph::fcgi {

// Answers `request` with `reply`, then accounts for it. False when the answer could not be
// written: the connection is then closed.
bool Serve(const fastcgi::Request& request, const fastcgi::Reply& reply, api::Service& service,
           const Router& router, const WorkerOptions& worker);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_POOL_SERVE_H_
