// Signs bearer tokens with a private key, for development and tests only (`netgraphctl token
// mint`, unit and end-to-end tests). Production tokens come from the identity provider.
//
// Tokens are signed by libjwt 1.10.2 (jwt_encode_str), so their header is
// {"alg":"ES256"|"RS256","typ":"JWT"} plus `kid` when given.
#ifndef NETGRAPH_CORE_AUTH_TOKEN_MINTER_H_
#define NETGRAPH_CORE_AUTH_TOKEN_MINTER_H_

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "core/auth/auth_config.h"
#include "core/status.h"

namespace netgraph::auth {

struct MintOptions {
  std::string subject;               // `sub`
  std::optional<std::string> email;  // `email`
  std::chrono::seconds ttl{3600};    // exp = iat + ttl
  // exp one hour in the past (beyond any allowed leeway) and iat = exp - ttl.
  bool expired = false;
  std::optional<std::string> issuer;    // `iss`
  std::optional<std::string> audience;  // `aud`, a string
  std::vector<std::string> roles;       // `roles` array when not empty, e.g. {"admin"}
  std::optional<std::string> kid;       // header `kid`
};

class TokenMinter {
 public:
  // `private_key_pem` must hold an unencrypted private key that suits `algorithm` (EC P-256 for
  // ES256, RSA >= 2048 bits for RS256).
  static Result<TokenMinter> Create(JwtAlgorithm algorithm, std::string private_key_pem);
  // Create with the contents of the PEM file at `path`.
  static Result<TokenMinter> FromFile(JwtAlgorithm algorithm, const std::string& path);

  // A signed compact JWS with iat = now (see MintOptions::expired).
  Result<std::string> Mint(const MintOptions& options,
                           std::chrono::system_clock::time_point now) const;

 private:
  TokenMinter(JwtAlgorithm algorithm, std::string private_key_pem);

  JwtAlgorithm algorithm_;
  std::string private_key_pem_;
};

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_TOKEN_MINTER_H_
