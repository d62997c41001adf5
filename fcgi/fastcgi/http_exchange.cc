#include "fcgi/fastcgi/http_exchange.h"

#include <charconv>
#include <utility>

namespace netgraph::fcgi::fastcgi {

HttpExchangeRequest ReadHttpRequest(const Request& request, std::size_t max_body_bytes) {
  HttpExchangeRequest read;
  HttpRequest& http = read.http;
  std::string_view script_name;
  std::string_view length_text;
  const std::pair<std::string_view, std::string_view*> wanted[] = {
      {"REQUEST_METHOD", &http.method},
      {"DOCUMENT_URI", &http.path},
      {"SCRIPT_NAME", &script_name},
      {"QUERY_STRING", &http.query_string},
      {"CONTENT_TYPE", &http.content_type},
      {"CONTENT_LENGTH", &length_text},
      {"HTTP_ACCEPT", &http.accept},
      {"HTTP_AUTHORIZATION", &http.authorization},
      {"HTTP_ORIGIN", &http.origin},
      {"REQUEST_ID", &read.request_id},
      {"HTTP_IF_NONE_MATCH", &http.if_none_match},
      {"HTTP_TRACEPARENT", &http.traceparent},
  };
  for (const auto& [name, value] : request.params) {
    for (const auto& [wanted_name, field] : wanted) {
      if (name != wanted_name) continue;
      // A field not yet set has no data; an empty parameter sets it to "", not to unset.
      if (field->data() == nullptr) *field = value.data() == nullptr ? std::string_view("") : value;
      break;
    }
  }
  http.has_accept = http.accept.data() != nullptr;
  if (http.path.empty()) http.path = script_name;

  unsigned long long length = 0;
  if (!length_text.empty()) {
    const auto [end, error] =
        std::from_chars(length_text.data(), length_text.data() + length_text.size(), length);
    if (error != std::errc() || end != length_text.data() + length_text.size()) {
      length = max_body_bytes + 1;
    }
  }
  read.body_too_large = length > max_body_bytes || request.body_too_large;
  if (!read.body_too_large) http.body = std::string_view(request.body).substr(0, length);
  return read;
}

std::string ResponseHead(const HttpResponse& response) {
  std::string head;
  head.reserve(256);
  char status[4];
  head.append("Status: ");
  auto [status_end, ignored] = std::to_chars(status, status + sizeof(status), response.status);
  head.append(status, status_end).push_back(' ');
  head.append(ReasonPhrase(response.status)).append("\r\n");
  for (const auto& [name, value] : response.headers)
    head.append(name).append(": ").append(value).append("\r\n");
  // A 204 has no body; a 304's would be the 200's, whose length it must not misstate.
  if (response.status != 204 && response.status != 304) {
    char length[24];
    auto [length_end, unused] =
        std::to_chars(length, length + sizeof(length), response.body.size());
    head.append("Content-Length: ").append(length, length_end).append("\r\n");
  }
  head.append("\r\n");
  return head;
}

bool WriteResponse(const Reply& reply, const HttpResponse& response) {
  const std::string head = ResponseHead(response);
  ResponseFrames frames(reply.request_id, {head, response.body});
  return reply.output.Send(reply.fd, frames.segments(),
                           std::chrono::steady_clock::now() + reply.io_timeout);
}

}  // namespace netgraph::fcgi::fastcgi
