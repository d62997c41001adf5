// Verification keys from a JWKS document (RFC 7517 §5), converted to the PEM text libjwt takes.
// libjwt 1.10.2 has no JWK support, so EC and RSA JWKs are rebuilt with OpenSSL 3
// (OSSL_PARAM_BLD + EVP_PKEY_fromdata). Internal to core/auth.
#ifndef NETGRAPH_CORE_AUTH_INTERNAL_JWKS_H_
#define NETGRAPH_CORE_AUTH_INTERNAL_JWKS_H_

#include <string_view>
#include <vector>

#include "core/auth/auth_config.h"
#include "core/auth/internal/keys.h"
#include "core/status.h"

namespace netgraph::auth {

// The keys of `jwks_json` that suit `algorithm`: kty "EC" with crv "P-256" for ES256, kty "RSA"
// for RS256, and, when present, `alg` equal to the algorithm, `use` "sig" and `key_ops` holding
// "verify". Other entries are skipped. A suitable entry that is malformed or fails OpenSSL's public
// key check, two suitable entries with the same kid, or no suitable entry at all is an error.
Result<std::vector<VerificationKey>> VerificationKeysFromJwks(std::string_view jwks_json,
                                                              JwtAlgorithm algorithm);

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_INTERNAL_JWKS_H_
