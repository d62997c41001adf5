#include "fcgi/http/cors.h"

#include <algorithm>
#include <cctype>
#include <utility>

namespace netgraph::fcgi {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// "scheme://host[:port]" with an http(s) scheme, a host of letters, digits, '-', '.' (or an IPv6
// literal in brackets) and a numeric port: what a browser sends as Origin.
bool IsOrigin(std::string_view text) {
  std::string lower = Lower(text);
  std::string_view rest = lower;
  if (rest.substr(0, 7) == "http://") {
    rest.remove_prefix(7);
  } else if (rest.substr(0, 8) == "https://") {
    rest.remove_prefix(8);
  } else {
    return false;
  }
  std::size_t host_end = 0;
  if (!rest.empty() && rest.front() == '[') {
    host_end = rest.find(']');
    if (host_end == std::string_view::npos || host_end < 2) return false;
    for (char c : rest.substr(1, host_end - 1)) {
      if (!std::isxdigit(static_cast<unsigned char>(c)) && c != ':' && c != '.') return false;
    }
    ++host_end;
  } else {
    while (host_end < rest.size() && (std::isalnum(static_cast<unsigned char>(rest[host_end])) ||
                                      rest[host_end] == '-' || rest[host_end] == '.')) {
      ++host_end;
    }
    if (host_end == 0) return false;
  }
  std::string_view port = rest.substr(host_end);
  if (port.empty()) return true;
  if (port.front() != ':' || port.size() < 2 || port.size() > 6) return false;
  return std::all_of(port.begin() + 1, port.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

}  // namespace

Result<CorsPolicy> CorsPolicy::FromOrigins(const std::vector<std::string>& origins) {
  CorsPolicy policy;
  std::string bad;
  for (const std::string& origin : origins) {
    if (!IsOrigin(origin)) {
      bad += (bad.empty() ? "'" : ", '") + origin + "'";
      continue;
    }
    policy.origins_.push_back(Lower(origin));
  }
  if (!bad.empty()) {
    return Status::InvalidArgument(
        "NETGRAPH_CORS_ORIGINS must list origins like https://app.example or "
        "http://127.0.0.1:8080, not " +
        bad);
  }
  return policy;
}

bool CorsPolicy::Allows(std::string_view origin) const {
  if (origin.empty()) return false;
  return std::find(origins_.begin(), origins_.end(), Lower(origin)) != origins_.end();
}

HttpResponse CorsPolicy::Preflight(const HttpRequest& request) const {
  HttpResponse response;
  response.status = 204;
  response.SetHeader("Allow", "GET, POST, OPTIONS");
  Decorate(request, response);
  if (Allows(request.origin)) {
    response.SetHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    response.SetHeader("Access-Control-Allow-Headers", "authorization, content-type");
    response.SetHeader("Access-Control-Max-Age", std::to_string(kCorsMaxAgeSeconds));
  }
  return response;
}

void CorsPolicy::Decorate(const HttpRequest& request, HttpResponse& response) const {
  if (origins_.empty()) return;
  response.SetHeader("Vary", "Origin");
  if (Allows(request.origin)) {
    response.SetHeader("Access-Control-Allow-Origin", std::string(request.origin));
  }
}

}  // namespace netgraph::fcgi
