// GraphQL over HTTP (the GraphQL-over-HTTP spec as the graphql-http audit suite checks it): turns
// one HTTP request to /graphql into an engine request and the engine's result into status, media
// type and body.
//
// - POST with Content-Type application/json (UTF-8); GET with URL parameters, queries only: a
//   mutation over GET is 405 with Allow: POST. Other methods: 405 with Allow: GET, POST.
// - Accept negotiation with q-values between application/graphql-response+json and application/json
//   (no Accept, */* and application/* choose application/json); nothing acceptable: 406.
// - A malformed request (bad JSON, a parameter of the wrong type) is 400 with application/json.
//   A request error (syntax, validation, operation selection, variable coercion) is 400 under
//   application/graphql-response+json and 200 under application/json. An executed operation is 200.
// - Never an empty "errors" list.
#ifndef NETGRAPH_FCGI_GRAPHQL_HTTP_H_
#define NETGRAPH_FCGI_GRAPHQL_HTTP_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "core/api/client_json.h"
#include "core/api/service.h"
#include "fcgi/cors.h"
#include "fcgi/http.h"

namespace netgraph::fcgi {

enum class ResponseMediaType { kGraphQLResponseJson, kJson };

// The media type to answer with for an Accept header (nullopt: nothing acceptable).
std::optional<ResponseMediaType> NegotiateMediaType(bool has_accept, std::string_view accept);

// Decodes application/x-www-form-urlencoded text ('+' is a space). nullopt on a bad %-escape.
std::optional<std::string> DecodeFormComponent(std::string_view encoded);

struct GraphQLHttpOptions {
  std::size_t max_body_bytes = 1024 * 1024;
  std::size_t max_json_depth = api::kMaxClientJsonDepth;  // deeper request JSON is refused
  CorsPolicy cors;  // which other web origins may call the endpoint (applied by Route)
};

HttpResponse HandleGraphQL(const HttpRequest& request, api::Service& service,
                           const GraphQLHttpOptions& options);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_GRAPHQL_HTTP_H_
