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
// - Every answer to a GET or POST says Vary: Accept.
// - Caching (docs/api.md, "Caching"): the answer to a GET without a token that the read cache
//   serves whole (core/api/operation.h) carries a strong ETag made from the answer itself
//   (fcgi/http/entity_tag.h) and Cache-Control "no-cache" (or "public, max-age=N" with
//   public_max_age N); a GET whose If-None-Match names the current answer's tag is 304, from the
//   read cache when it holds the answer, without executing. Everything else, errors, answers to a
//   token and POSTs included, is Cache-Control: no-store with no ETag.
//
// Running the operation is core/api's (core/api/operation.h): this adapter keeps the method, the
// media types, the status codes and the headers.
#ifndef NETGRAPH_FCGI_HTTP_GRAPHQL_HTTP_H_
#define NETGRAPH_FCGI_HTTP_GRAPHQL_HTTP_H_

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/client_json.h"
#include "core/api/service.h"
#include "fcgi/http/cors.h"
#include "fcgi/http/http.h"

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
  // NETGRAPH_PUBLIC_MAX_AGE: seconds shared caches and browsers may keep a public answer without
  // asking again; 0 makes them revalidate every time (no-cache).
  int public_max_age = 0;
  bool publish_schema = true;  // Route serves the SDL at kSchemaPath (fcgi/http/routes.h)
};

// What the handler learnt about one request, for the access log, the slow log and the metrics.
// Never the variables or the token.
struct GraphQLTrace {
  std::shared_ptr<const graphql::PreparedDocument> document;  // keeps `operation`'s views alive
  std::optional<graphql::OperationSummary> operation;         // when the document selects one
  std::optional<std::string> operation_name;                  // the request's operationName
  std::vector<std::string> error_codes;  // extensions.code of the errors that carry one
  // The text (domain::FailureText) of the first refusal a resolver reported, if any: one of a
  // fixed vocabulary, never read from the answer (core/api/operation.h).
  std::string failure;
  bool executed = false;    // the engine ran (or refused) the document
  bool has_errors = false;  // the response has "errors"
  std::string caller;       // the first 12 hex digits of SHA-256 of a valid token's sub; else empty
  std::chrono::nanoseconds prepare{0};  // parse and validate (or the cache lookup)
  std::chrono::nanoseconds execute{0};
  // Called once the operation is known, before it runs (the pool's status page shows it).
  std::function<void(const GraphQLTrace&)> on_operation;
};

HttpResponse HandleGraphQL(const HttpRequest& request, api::Service& service,
                           const GraphQLHttpOptions& options, GraphQLTrace* trace = nullptr);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_HTTP_GRAPHQL_HTTP_H_
