// What the FastCGI pool answers, by path: /graphql (GraphQL over HTTP; OPTIONS preflights and the
// CORS headers from options.cors), /health (200 while PostgreSQL answers, else 503), anything else
// 404. Pure request-to-response, no FastCGI.
#ifndef NETGRAPH_FCGI_ROUTES_H_
#define NETGRAPH_FCGI_ROUTES_H_

#include "core/api/service.h"
#include "fcgi/graphql_http.h"
#include "fcgi/http.h"

namespace netgraph::fcgi {

HttpResponse Route(const HttpRequest& request, api::Service& service,
                   const GraphQLHttpOptions& options);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_ROUTES_H_
