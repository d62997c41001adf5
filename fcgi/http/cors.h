// CORS for the HTTP API: which web origins other than the service's own may call /graphql from a
// browser (NETGRAPH_CORS_ORIGINS, docs/operations.md). An origin on the allow-list gets the CORS
// headers on its responses and an answered preflight; any other origin gets no CORS header at all,
// so the browser keeps the response from the page. An empty list allows no other origin. Requests
// carry no cookies (the API authenticates by the Authorization header), so credentials are never
// allowed.
#ifndef NETGRAPH_FCGI_HTTP_CORS_H_
#define NETGRAPH_FCGI_HTTP_CORS_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "fcgi/http/http.h"

namespace netgraph::fcgi {

// How long a browser may cache a preflight answer, in seconds (Chromium caps it at 7200).
inline constexpr int kCorsMaxAgeSeconds = 600;

// The response headers beyond the CORS-safelisted ones that a page on an allowed origin may read:
// the request id its log lines carry, how long to wait after a 429 or 503, the trace the request
// joined (W3C Trace Context), and the answer's entity tag. nginx's own error answers expose the
// same (nginx/netgraph-http.conf).
inline constexpr std::string_view kCorsExposedHeaders =
    "X-Request-Id, Retry-After, traceresponse, ETag";

class CorsPolicy {
 public:
  CorsPolicy() = default;  // allows no origin

  // Checks each entry is an origin, "http://host" or "https://host" with an optional ":port" and
  // nothing after it; the error names every entry that is not.
  static Result<CorsPolicy> FromOrigins(const std::vector<std::string>& origins);

  // Whether `origin` (the request's Origin header) is on the allow-list; scheme and host are
  // compared without regard to case.
  bool Allows(std::string_view origin) const;

  // Answers a preflight (OPTIONS): 204 with Allow, and the CORS headers when the origin is allowed.
  HttpResponse Preflight(const HttpRequest& request) const;

  // Adds the CORS headers (Access-Control-Allow-Origin, Access-Control-Expose-Headers) to
  // `response` when the request's origin is allowed. With a non-empty
  // allow-list every response says Vary: Origin, since its headers depend on the Origin.
  void Decorate(const HttpRequest& request, HttpResponse& response) const;

 private:
  std::vector<std::string> origins_;  // lower-cased
};

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_HTTP_CORS_H_
