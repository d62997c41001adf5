// The claim checks libjwt 1.10.2 leaves to its caller (RFC 7519 §4.1, RFC 8725 §3.8-3.9), applied
// to a payload whose signature has already been verified. Internal to core/auth.
#ifndef NETGRAPH_CORE_AUTH_INTERNAL_CLAIMS_H_
#define NETGRAPH_CORE_AUTH_INTERNAL_CLAIMS_H_

#include <chrono>
#include <nlohmann/json_fwd.hpp>

#include "core/auth/auth_config.h"
#include "core/auth/identity.h"
#include "core/auth/token_verifier.h"
#include "core/status.h"

namespace netgraph::auth {

// Checks exp (required), nbf and iat (when present) against `now` with the configured leeway, iss
// and aud when configured, and sub; reads email and the admin role claim. Refusals: kExpired,
// kNotYetValid (nbf, iat), kClaims (anything else, a malformed date claim included).
Verification IdentityFromClaims(const nlohmann::json& claims, const AuthConfig& config,
                                std::chrono::system_clock::time_point now);

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_INTERNAL_CLAIMS_H_
