#include "fcgi/routes.h"

#include "core/log.h"

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

HttpResponse Health(const HttpRequest& request, api::Service& service) {
  if (request.method != "GET" && request.method != "HEAD") {
    HttpResponse response = ErrorResponse(405, "Use GET or HEAD");
    response.SetHeader("Allow", "GET, HEAD");
    return response;
  }
  api::Health health = service.CheckHealth();
  if (!health.database_connected) log::Warn("health: " + health.database_error);
  if (!health.redis_connected) log::Warn("health: " + health.redis_error);
  HttpResponse response = Json(health.serving() ? 200 : 503, health.ToJson());
  if (request.method == "HEAD") response.body.clear();
  return response;
}

}  // namespace

HttpResponse Route(const HttpRequest& request, api::Service& service,
                   const GraphQLHttpOptions& options) {
  if (request.path == "/graphql") {
    if (request.method == "OPTIONS") return options.cors.Preflight(request);
    HttpResponse response = HandleGraphQL(request, service, options);
    options.cors.Decorate(request, response);
    return response;
  }
  if (request.path == "/health") return Health(request, service);
  return ErrorResponse(404, "Not found: the GraphQL endpoint is /graphql");
}

}  // namespace netgraph::fcgi
