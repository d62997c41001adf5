// The HTTP request and response as the FastCGI adapter hands them to the handlers: plain data, so
// the handlers are testable without a web server.
#ifndef NETGRAPH_FCGI_HTTP_HTTP_H_
#define NETGRAPH_FCGI_HTTP_HTTP_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace netgraph::fcgi {

struct HttpRequest {
  std::string_view method;        // REQUEST_METHOD
  std::string_view path;          // DOCUMENT_URI: the path without the query string
  std::string_view query_string;  // QUERY_STRING, still URL-encoded
  std::string_view content_type;  // CONTENT_TYPE, empty when absent
  std::string_view accept;        // HTTP_ACCEPT, empty when absent
  bool has_accept = false;
  std::string_view authorization;  // HTTP_AUTHORIZATION
  std::string_view origin;         // HTTP_ORIGIN, empty when absent
  std::string_view if_none_match;  // HTTP_IF_NONE_MATCH, empty when absent
  std::string_view traceparent;    // HTTP_TRACEPARENT (W3C Trace Context), empty when absent
  std::string_view body;
};

struct HttpResponse {
  int status = 200;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  void SetHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

// The reason phrase for the status codes the service uses.
std::string_view ReasonPhrase(int status);

// Every error the pool answers itself (a request refused before execution, an unknown path, a
// failure) has this one shape, the one GraphQL over HTTP gives request errors and the one nginx's
// own refusals use (nginx/netgraph-locations.conf): `status`, JSON `{"errors":[{"message":…}]}`,
// never cached.
HttpResponse ErrorResponse(int status, std::string_view message);

}  // namespace netgraph::fcgi

#endif  // NETGRAPH_FCGI_HTTP_HTTP_H_
