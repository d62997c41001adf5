// The bearer token in an HTTP Authorization header value (RFC 6750 §2.1).
#ifndef NETGRAPH_CORE_AUTH_AUTHORIZATION_HEADER_H_
#define NETGRAPH_CORE_AUTH_AUTHORIZATION_HEADER_H_

#include <string_view>

#include "core/status.h"

namespace netgraph::auth {

// The token of `Bearer <token>`: the scheme in any letter case, one or more spaces, then a token
// without whitespace. Anything else (another scheme, no token, trailing words) is an error. The
// result points into `header_value`.
Result<std::string_view> BearerToken(std::string_view header_value);

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_AUTHORIZATION_HEADER_H_
