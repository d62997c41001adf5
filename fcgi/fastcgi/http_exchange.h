// HTTP over FastCGI's responder role, as CGI/1.1 maps it: a request's parameters and body as the
// HttpRequest the handlers take (fcgi/http/http.h), and an HttpResponse as the records that answer
// it, written without blocking (fcgi/fastcgi/connection_output.h).
#ifndef NETGRAPH_FCGI_FASTCGI_HTTP_EXCHANGE_H_
#define NETGRAPH_FCGI_FASTCGI_HTTP_EXCHANGE_H_

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fcgi/fastcgi/connection_output.h"
#include "fcgi/fastcgi/record.h"
#include "fcgi/http/http.h"

namespace netgraph::fcgi::fastcgi {

struct HttpExchangeRequest {
  // Views of the FastCGI request. Like CGI, the first of repeated parameters counts, and the body
  // is CONTENT_LENGTH bytes of what came.
  HttpRequest http;
  std::string_view request_id;  // REQUEST_ID (nginx's $request_id); empty when absent
  // CONTENT_LENGTH (or a malformed one), or what came, is over the limit: answer 413.
  bool body_too_large = false;
};

// The HTTP request `request` carries, with bodies over `max_body_bytes` refused.
HttpExchangeRequest ReadHttpRequest(const Request& request, std::size_t max_body_bytes);

// The response's CGI header block: FastCGI's Status line, the headers, and Content-Length (so
// nginx passes the body on as it is instead of framing it in chunks; a 204 or 304 has none).
std::string ResponseHead(const HttpResponse& response);

// Where an answer goes: the connection's socket, what its peer has not taken yet, and the request
// it answers.
struct Reply {
  int fd;
  ConnectionOutput& output;
  std::uint16_t request_id;
  // An answer the peer has not taken within this is abandoned (the connection is closed).
  std::chrono::milliseconds io_timeout;
};

// Sends `response` as the reply's answer: the header block and the body in one writev(2), and what
// the socket does not take at once kept for later. False when it could not be written: the
// connection is then closed.
bool WriteResponse(const Reply& reply, const HttpResponse& response);

}  // namespace netgraph::fcgi::fastcgi

#endif  // NETGRAPH_FCGI_FASTCGI_HTTP_EXCHANGE_H_
