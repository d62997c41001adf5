// Settings for bearer-token authentication, read from the environment.
//
//   NETGRAPH_JWT_ALG              ES256 (default) or RS256: the only algorithm a token may use.
//                                 Anything else (HS*, none, PS*, ...) is a configuration error.
//   NETGRAPH_JWT_PUBLIC_KEY_FILE  PEM file holding the identity provider's public key
//                                 ("-----BEGIN PUBLIC KEY-----", SubjectPublicKeyInfo): an EC
//                                 P-256 key for ES256, an RSA key of at least 2048 bits for RS256.
//   NETGRAPH_JWT_JWKS_FILE        JWKS JSON file ({"keys":[...]}) instead of the PEM file; a
//                                 token's `kid` header picks the key. Keys whose kty/crv/alg/use
//                                 do not fit the algorithm are ignored.
//   NETGRAPH_JWT_JWKS_URL         The identity provider's JWKS URL instead (https only), fetched
//                                 and refreshed by each process (core/auth/jwks_key_set.h). Set
//                                 exactly one of the three.
//   NETGRAPH_JWT_JWKS_CA_FILE     PEM CA bundle the URL's certificate must chain to; default the
//                                 system's CAs.
//   NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS, NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS
//                                 Bounds on the provider's Cache-Control max-age (1..86400, default
//                                 60 and 3600, min <= max); the min is also the wait after a failed
//                                 fetch and between fetches for unknown kids.
//   NETGRAPH_JWT_JWKS_TIMEOUT_MS  Bound on one fetch: 100..60000, default 5000.
//   NETGRAPH_JWT_ISSUER           A token's `iss` must equal it exactly.
//   NETGRAPH_JWT_AUDIENCE         A token's `aud` (a string or an array of strings) must equal or
//                                 contain it.
//   NETGRAPH_JWT_ALLOW_ANY_ISSUER_AUDIENCE
//                                 Boolean, default off. A TokenVerifier refuses to be created
//                                 without both settings above (RFC 8725, sections 3.8 and 3.9: a
//                                 token the same identity provider issued for another application
//                                 must not pass), unless this says the deployment accepts any
//                                 issuer and audience; then whichever of the two is set is checked.
//   NETGRAPH_JWT_LEEWAY_SECONDS   Clock skew allowed on exp, nbf and iat: 0..600, default 60.
//   NETGRAPH_ADMIN_ROLE_CLAIM     Optional `claim=value`, e.g. `roles=admin`: a token whose claim
//                                 equals the value, or is an array containing it, is an admin's.
//   NETGRAPH_JWT_MAX_BYTES        Longer tokens are refused before decoding: 512..65536, default
//                                 8192.
#ifndef NETGRAPH_CORE_AUTH_AUTH_CONFIG_H_
#define NETGRAPH_CORE_AUTH_AUTH_CONFIG_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/config/environment.h"
#include "core/status.h"

namespace netgraph::auth {

// The signature algorithms a deployment may pin (RFC 7518 names).
enum class JwtAlgorithm { kES256, kRS256 };

// "ES256" or "RS256".
std::string_view AlgorithmName(JwtAlgorithm algorithm);

// A claim that marks administrators: `name` equal to `value`, or an array containing `value`.
struct AdminRoleClaim {
  std::string name;
  std::string value;
};

// Where a JWKS is fetched from (NETGRAPH_JWT_JWKS_URL and its settings).
struct JwksEndpoint {
  std::string url;
  std::string ca_file;  // empty: the system's CAs
  std::chrono::milliseconds timeout{5000};
};

struct AuthConfig {
  static constexpr std::int64_t kMaxLeewaySeconds = 600;

  JwtAlgorithm algorithm = JwtAlgorithm::kES256;
  // Exactly one of the three is non-empty.
  std::string public_key_file;
  std::string jwks_file;
  JwksEndpoint jwks_endpoint;
  std::chrono::seconds jwks_min_refresh{60};
  std::chrono::seconds jwks_max_refresh{3600};
  std::optional<std::string> issuer;
  std::optional<std::string> audience;
  bool allow_any_issuer_audience = false;
  std::int64_t leeway_seconds = 60;
  std::optional<AdminRoleClaim> admin_role_claim;
  std::int64_t max_token_bytes = 8192;
};

// Reads the variables above. A malformed integer is recorded in `env` like every other concern's
// (the caller checks env.status()); the mistakes only this concern can judge (unknown algorithm,
// not exactly one key source, a malformed role claim, a JWKS URL that is not https) are returned,
// all of them in one Status. Key files are read later, by TokenVerifier::Create.
Result<AuthConfig> LoadAuthConfig(config::Environment& env);

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_AUTH_CONFIG_H_
