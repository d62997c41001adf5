#include "fcgi/http/cors.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>

#include "core/config/web_origin.h"

namespace netgraph::fcgi {
namespace {

std::string Lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace

Result<CorsPolicy> CorsPolicy::FromOrigins(const std::vector<std::string>& origins) {
  CorsPolicy policy;
  std::string bad;
  for (const std::string& origin : origins) {
    std::optional<std::string> parsed = config::ParseWebOrigin(origin);
    if (!parsed) {
      bad += (bad.empty() ? "'" : ", '") + origin + "'";
      continue;
    }
    policy.origins_.push_back(std::move(*parsed));
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
    response.SetHeader("Access-Control-Expose-Headers", std::string(kCorsExposedHeaders));
  }
}

}  // namespace netgraph::fcgi
