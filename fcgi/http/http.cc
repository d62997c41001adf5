#include "fcgi/http/http.h"

#include <nlohmann/json.hpp>

namespace netgraph::fcgi {

HttpResponse ErrorResponse(int status, std::string_view message) {
  HttpResponse response;
  response.status = status;
  response.SetHeader("Content-Type", "application/json; charset=utf-8");
  response.SetHeader("Cache-Control", "no-store");
  response.body =
      nlohmann::json{{"errors", nlohmann::json::array({{{"message", message}}})}}.dump();
  return response;
}

std::string_view ReasonPhrase(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 204:
      return "No Content";
    case 304:
      return "Not Modified";
    case 400:
      return "Bad Request";
    case 404:
      return "Not Found";
    case 405:
      return "Method Not Allowed";
    case 406:
      return "Not Acceptable";
    case 413:
      return "Content Too Large";
    case 415:
      return "Unsupported Media Type";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Unknown";
  }
}

}  // namespace netgraph::fcgi
