#include "fcgi/http/routes.h"

#include <nlohmann/json.hpp>

#include "core/log.h"
#include "core/throttled_log.h"
#include "fcgi/http/ws_health.h"

namespace netgraph::fcgi {
namespace {

HttpResponse Json(int status, std::string body) {
  HttpResponse response;
  response.status = status;
  response.SetHeader("Content-Type", "application/json; charset=utf-8");
  response.SetHeader("Cache-Control", "no-store");
  response.body = std::move(body);
  return response;
}

// Netgraph-ws gets a second to answer; a stalled one must not stall the pool's health check.
constexpr std::chrono::milliseconds kWsHealthTimeout{1000};

std::optional<HttpResponse> RefuseUnlessGet(const HttpRequest& request) {
  if (request.method == "GET" || request.method == "HEAD") return std::nullopt;
  HttpResponse response = ErrorResponse(405, "Use GET or HEAD");
  response.SetHeader("Allow", "GET, HEAD");
  return response;
}

HttpResponse Health(const HttpRequest& request, api::Service& service,
                    const std::string& ws_address) {
  if (std::optional<HttpResponse> refused = RefuseUnlessGet(request)) return *refused;
  api::Health health = service.CheckHealth();
  // A load balancer probes every second or so: while a dependency is down, a line a minute.
  static log::ThrottledLog warnings("health", std::chrono::seconds(60),
                                    [](std::string_view line) { log::Warn(std::string(line)); });
  if (!health.database_connected) warnings.Record(health.database_error);
  if (!health.redis_connected) warnings.Record(health.redis_error);
  nlohmann::json body = nlohmann::json::parse(health.ToJson());
  // Informational: subscriptions are down without netgraph-ws, but queries and mutations serve.
  body["ws"] = {{"reachable", WsHealthy(ws_address, kWsHealthTimeout)}};
  HttpResponse response = Json(health.serving() ? 200 : 503, body.dump());
  if (request.method == "HEAD") response.body.clear();
  return response;
}

// Liveness: the worker answers; it asks nothing of PostgreSQL or Redis, so a supervisor that
// restarts on a failed liveness probe restarts the pool only for the pool's own failures.
HttpResponse Live(const HttpRequest& request) {
  if (std::optional<HttpResponse> refused = RefuseUnlessGet(request)) return *refused;
  HttpResponse response = Json(200, R"({"status":"alive"})");
  if (request.method == "HEAD") response.body.clear();
  return response;
}

HttpResponse Show(const HttpRequest& request, const Page& page) {
  if (std::optional<HttpResponse> refused = RefuseUnlessGet(request)) return *refused;
  HttpResponse response;
  response.SetHeader("Content-Type", page.content_type);
  response.SetHeader("Cache-Control", "no-store");
  if (request.method == "GET") response.body = page.render();
  return response;
}

// The schema's SDL, core/api/schema.graphql as compiled in, the file the package also installs:
// what client code generators read when introspection is off. Public, like the operations it
// describes.
HttpResponse SchemaDocument(const HttpRequest& request, bool published) {
  if (!published) {
    return ErrorResponse(404, "Not found: this service does not publish its schema here");
  }
  if (std::optional<HttpResponse> refused = RefuseUnlessGet(request)) return *refused;
  HttpResponse response;
  response.SetHeader("Content-Type", "text/plain; charset=utf-8");
  response.SetHeader("Cache-Control", "no-cache");
  if (request.method == "GET") response.body = std::string(api::ServiceSchema());
  return response;
}

}  // namespace

Router::Router(GraphQLHttpOptions options, std::string ws_address)
    : options_(std::move(options)), ws_address_(std::move(ws_address)) {}

void Router::AddPage(std::string path, Page page) {
  pages_.emplace_back(std::move(path), std::move(page));
}

HttpResponse Router::Route(const HttpRequest& request, api::Service& service,
                           GraphQLTrace* trace) const {
  if (request.path == "/graphql") {
    if (request.method == "OPTIONS") return options_.cors.Preflight(request);
    HttpResponse response = HandleGraphQL(request, service, options_, trace);
    options_.cors.Decorate(request, response);
    return response;
  }
  if (request.path == kSchemaPath) {
    HttpResponse response = SchemaDocument(request, options_.publish_schema);
    options_.cors.Decorate(request, response);
    return response;
  }
  if (request.path == "/health") return Health(request, service, ws_address_);
  if (request.path == "/live") return Live(request);
  for (const auto& [path, page] : pages_) {
    if (request.path == path) return Show(request, page);
  }
  return ErrorResponse(404, "Not found: the GraphQL endpoint is /graphql");
}

}  // namespace netgraph::fcgi
