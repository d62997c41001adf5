// What the FastCGI pool answers, by path: /graphql (GraphQL over HTTP; OPTIONS preflights and the
// CORS headers from options.cors), /health (readiness: 200 while PostgreSQL answers, else 503; it
// also says whether netgraph-ws answers, without failing on it; its warnings about a dependency are
// throttled to a line a minute), /live (liveness: 200 with no dependency asked), /status and
// /metrics (fcgi/metrics.h; 404 without a scoreboard), anything else 404. Pure request-to-response,
// no FastCGI.
#ifndef NETGRAPH_FCGI_ROUTES_H_
#define NETGRAPH_FCGI_ROUTES_H_

#include "core/api/service.h"
#include "fcgi/graphql_http.h"
#include "fcgi/http.h"
#include "fcgi/metrics.h"

namespace netgraph::fcgi {

// `trace` (optional) receives what a /graphql request was (graphql_http.h).
HttpResponse Route(const HttpRequest& request, api::Service& service,
                   const GraphQLHttpOptions& options, const PoolView& pool = {},
                   GraphQLTrace* trace = nullptr);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_ROUTES_H_
