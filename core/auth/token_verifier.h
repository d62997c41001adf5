// Verifies identity-provider bearer tokens (compact JWS) with libjwt 1.10.2 and turns them into an
// Identity.
//
// libjwt 1.10.2 takes the algorithm from the token's own header, verifies HS* with the key bytes as
// the HMAC secret, skips verification for `none` when given no key, and checks no claims. So Verify
// does the rest itself, in this order:
//   1. refuses tokens longer than max_token_bytes, and anything but three base64url parts with a
//      non-empty signature;
//   2. decodes the header and refuses an `alg` other than the pinned one, a `typ` other than JWT,
//      and any `crit`;
//   3. picks the key: a PEM file's single key; from a JWKS the key whose kid equals the header's
//      (an unknown kid is refused; without a kid, only a JWKS with one suitable key will do). With
//      a JWKS URL the set is JwksKeySet's (core/auth/jwks_key_set.h), as it is now: an unknown
//      kid asks its owner for an early fetch, but Verify never waits for one;
//   4. calls jwt_decode with that key (never NULL) and checks jwt_get_alg is still the pinned
//      algorithm, so an HS256 token signed with the public key's PEM text cannot pass;
//   5. checks the claims: exp required and now < exp + leeway; nbf, when present,
//      now >= nbf - leeway; iat, when present, iat <= now + leeway; iss and aud (aud a string or
//      an array), both configured unless the deployment allows any; sub a non-empty string.
// Steps 2-4 are skipped for a token that passed them recently with the same key set (see
// internal/verified_token_cache.h): the claims of step 5 are checked on every call. A refusal
// comes as a TokenRefusal (core/auth/token_refusal.h: what counters count) beside a Status whose
// message names the reason in detail for the logs ("token expired at ...", "unknown kid 'k2'",
// "algorithm HS256 not allowed"); clients should only ever see "Authentication required".
//
// Thread-safety: Verify may run on many threads at once (the cache of verified tokens locks).
#ifndef NETGRAPH_CORE_AUTH_TOKEN_VERIFIER_H_
#define NETGRAPH_CORE_AUTH_TOKEN_VERIFIER_H_

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/auth/auth_config.h"
#include "core/auth/identity.h"
#include "core/auth/internal/keys.h"
#include "core/auth/jwks_key_set.h"
#include "core/auth/token_refusal.h"
#include "core/status.h"

namespace netgraph::auth {

class VerifiedTokenCache;

// What Verify made of a token.
struct Verification {
  // The caller, or the Status (kUnauthenticated) whose message says for the logs why the token was
  // refused.
  Result<Identity> identity;
  // Why the token was refused; set exactly when `identity` is not ok.
  std::optional<TokenRefusal> refusal;

  static Verification Accepted(Identity identity);
  static Verification Refused(TokenRefusal refusal, std::string message);
  bool ok() const { return identity.ok(); }
};

class TokenVerifier {
 public:
  // Reads and converts the configured key file once. Errors name the file and the reason (cannot
  // be read, not a PEM public key, not JSON, no key for the algorithm, wrong key type or size...).
  // With a JWKS URL, fetches nothing (see jwks_key_set()) and checks the CA file can be read.
  // Errors too when the issuer or the audience is not configured, unless the configuration
  // explicitly allows any (AuthConfig::allow_any_issuer_audience).
  static Result<TokenVerifier> Create(const AuthConfig& config);

  TokenVerifier(TokenVerifier&&) noexcept;
  TokenVerifier& operator=(TokenVerifier&&) noexcept;
  ~TokenVerifier();

  // `token` is the bare token (see BearerToken for the Authorization header). Does no I/O: with
  // a JWKS URL it uses the set fetched so far.
  Verification Verify(std::string_view token, std::chrono::system_clock::time_point now) const;

  // The JWKS URL's key set, for the owner to refresh (and to fetch first when it loads the
  // configuration); null with key files.
  const std::shared_ptr<JwksKeySet>& jwks_key_set() const { return remote_; }

 private:
  TokenVerifier(AuthConfig config, std::vector<VerificationKey> keys, bool keys_from_jwks,
                std::shared_ptr<JwksKeySet> remote);

  // The keys in use now (a file's, or the URL's current set).
  JwksKeySet::Snapshot Keys() const;
  // An unknown kid, or no kid and more than one key: refused as kUnknownKey.
  Result<const VerificationKey*> SelectKey(const std::vector<VerificationKey>& keys,
                                           const std::optional<std::string>& kid) const;

  AuthConfig config_;
  std::shared_ptr<const std::vector<VerificationKey>> keys_;  // from a file
  bool keys_from_jwks_;
  std::shared_ptr<JwksKeySet> remote_;
  std::unique_ptr<VerifiedTokenCache> verified_;
};

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_TOKEN_VERIFIER_H_
