// Why a bearer token was refused, as a fixed set of reasons: what TokenVerifier::Verify returns
// beside its Status (whose message, for the logs, says it in detail) and what the refusal counters
// count, one per reason (netgraph_jwt_refusals_total{reason=...}). Nothing reads the message to
// tell the reasons apart.
#ifndef NETGRAPH_CORE_AUTH_TOKEN_REFUSAL_H_
#define NETGRAPH_CORE_AUTH_TOKEN_REFUSAL_H_

#include <cstdint>
#include <string_view>

namespace netgraph::auth {

enum class TokenRefusal {
  kMalformed,    // not `Bearer <token>`, not a JWT, bad base64url or JSON, oversized, bad header
  kAlgorithm,    // alg is not the configured one
  kUnknownKey,   // unknown kid, or no key to choose (none fetched yet from a JWKS URL)
  kSignature,    // the signature does not verify
  kExpired,      // exp has passed
  kNotYetValid,  // nbf not reached, or iat in the future
  kClaims,       // iss, aud, sub or another required claim wrong or missing
};

inline constexpr TokenRefusal kTokenRefusals[] = {
    TokenRefusal::kMalformed, TokenRefusal::kAlgorithm, TokenRefusal::kUnknownKey,
    TokenRefusal::kSignature, TokenRefusal::kExpired,   TokenRefusal::kNotYetValid,
    TokenRefusal::kClaims,
};

// "malformed", "algorithm", "unknown_key", "signature", "expired", "not_yet_valid", "claims": the
// label /metrics gives the reason.
std::string_view TokenRefusalName(TokenRefusal refusal);

// Counts one refused token (the process's counters, core/telemetry.h).
void CountRefusal(TokenRefusal refusal);
// The tokens refused for `refusal` so far (in this process's counter storage).
std::uint64_t RefusalsCounted(TokenRefusal refusal);

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_TOKEN_REFUSAL_H_
