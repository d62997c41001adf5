#include "core/auth/authorization_header.h"

#include <strings.h>

#include <algorithm>

namespace netgraph::auth {

Result<std::string_view> BearerToken(std::string_view header_value) {
  constexpr std::string_view kScheme = "Bearer";
  if (header_value.size() <= kScheme.size() ||
      strncasecmp(header_value.data(), kScheme.data(), kScheme.size()) != 0 ||
      header_value[kScheme.size()] != ' ') {
    return Status::Unauthenticated("Authorization header is not 'Bearer <token>'");
  }
  std::string_view token = header_value.substr(kScheme.size());
  token.remove_prefix(std::min(token.find_first_not_of(' '), token.size()));
  if (token.empty()) return Status::Unauthenticated("Authorization header has no bearer token");
  if (token.find_first_of(" \t") != std::string_view::npos) {
    return Status::Unauthenticated("Authorization header has more than one word after Bearer");
  }
  return token;
}

}  // namespace netgraph::auth
