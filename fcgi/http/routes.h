// What the FastCGI pool answers, by path: /graphql (GraphQL over HTTP; OPTIONS preflights and the
// CORS headers from options.cors), /health (200 while PostgreSQL answers, else 503; it also says
// whether netgraph-ws answers, without failing on it), /status and /metrics (fcgi/pool/metrics.h;
// 404 without a scoreboard), anything else 404. Pure request-to-response, no FastCGI.
#ifndef NETGRAPH_FCGI_HTTP_ROUTES_H_
#define NETGRAPH_FCGI_HTTP_ROUTES_H_

#include "core/api/service.h"
#include "fcgi/http/graphql_http.h"
#include "fcgi/http/http.h"
#include "fcgi/pool/metrics.h"

namespace netgraph::fcgi {

// `trace` (optional) receives what a /graphql request was (graphql_http.h).
HttpResponse Route(const HttpRequest& request, api::Service& service,
                   const GraphQLHttpOptions& options, const PoolView& pool = {},
                   GraphQLTrace* trace = nullptr);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_HTTP_ROUTES_H_
