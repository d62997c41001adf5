// What the FastCGI pool answers, by path: /graphql (GraphQL over HTTP; OPTIONS preflights and the
// CORS headers from options.cors), /health (readiness: 200 while PostgreSQL answers, else 503; it
// also says whether netgraph-ws answers, without failing on it; its warnings about a dependency are
// throttled to a line a minute), /graphql/schema.graphql (the schema's SDL, also with introspection
// off, unless options.publish_schema is false), /live (liveness: 200 with no dependency asked), the
// pages added with AddPage (the pool's /status and /metrics: fcgi/pool/status_page.h), anything
// else 404. Pure request-to-response: no FastCGI, no pool.
#ifndef NETGRAPH_FCGI_HTTP_ROUTES_H_
#define NETGRAPH_FCGI_HTTP_ROUTES_H_

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/api/service.h"
#include "fcgi/http/graphql_http.h"
#include "fcgi/http/http.h"

namespace netgraph::fcgi {

inline constexpr std::string_view kSchemaPath = "/graphql/schema.graphql";

// A page read with GET or HEAD (other methods: 405 with Allow), never cached.
struct Page {
  std::string content_type;
  std::function<std::string()> render;  // the body, made for each GET
};

class Router {
 public:
  // `ws_address`: where netgraph-ws listens (NETGRAPH_WS_LISTEN: a unix socket path or host:port),
  // for /health.
  Router(GraphQLHttpOptions options, std::string ws_address);

  // Answers `path` with `page` from now on.
  void AddPage(std::string path, Page page);

  // `trace` (optional) receives what a /graphql request was (fcgi/http/graphql_http.h).
  HttpResponse Route(const HttpRequest& request, api::Service& service,
                     GraphQLTrace* trace = nullptr) const;

  const GraphQLHttpOptions& options() const { return options_; }

 private:
  GraphQLHttpOptions options_;
  std::string ws_address_;
  std::vector<std::pair<std::string, Page>> pages_;
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_HTTP_ROUTES_H_
