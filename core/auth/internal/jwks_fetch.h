// Fetching a JWKS over HTTPS with libcurl (NETGRAPH_JWT_JWKS_URL). Internal to core/auth.
#ifndef NETGRAPH_CORE_AUTH_INTERNAL_JWKS_FETCH_H_
#define NETGRAPH_CORE_AUTH_INTERNAL_JWKS_FETCH_H_

#include <string>

#include "core/auth/auth_config.h"
#include "core/auth/jwks_key_set.h"
#include "core/status.h"

namespace netgraph::auth {

// GET `endpoint.url`: https only (redirects are not followed), the server's certificate verified
// against endpoint.ca_file or the system's CAs and its name checked, the whole exchange bounded by
// endpoint.timeout, the body by 1 MiB. Anything but a 200 answer is an error naming the reason.
// Thread-safe (each call has its own libcurl handle; curl_global_init runs once, on first use).
Result<JwksDocument> FetchJwks(const JwksEndpoint& endpoint);

// Ok when `url` parses and is https with a host; otherwise why not (for the configuration check).
Status CheckJwksUrl(const std::string& url);

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_INTERNAL_JWKS_FETCH_H_
