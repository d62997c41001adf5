// Key material for token verification and minting: reading key files, checking that a key suits
// the pinned algorithm, and producing the SubjectPublicKeyInfo PEM text libjwt 1.10.2 verifies with
// (it re-reads that PEM with PEM_read_bio_PUBKEY inside every jwt_decode). Internal to core/auth.
#ifndef NETGRAPH_CORE_AUTH_INTERNAL_KEYS_H_
#define NETGRAPH_CORE_AUTH_INTERNAL_KEYS_H_

#include <openssl/evp.h>

#include <optional>
#include <string>
#include <string_view>

#include "core/auth/auth_config.h"
#include "core/status.h"

namespace netgraph::auth {

struct VerificationKey {
  std::optional<std::string> kid;  // a JWKS entry's `kid`; none for a key from a PEM file
  std::string public_key_pem;      // "-----BEGIN PUBLIC KEY-----..."
};

// The whole file (at most 1 MiB), or why it could not be read.
Result<std::string> ReadKeyFile(const std::string& path);

// Ok when `key` (public or private) is what `algorithm` needs: EC on P-256 for ES256, RSA of at
// least 2048 bits for RS256 (RFC 7518 §3.3). Each key is used with exactly one algorithm.
Status CheckKeyFitsAlgorithm(const EVP_PKEY* key, JwtAlgorithm algorithm);

// The public half of `key` as SubjectPublicKeyInfo PEM text.
Result<std::string> PublicKeyPem(const EVP_PKEY* key);

// Parses a PEM public key, checks it against `algorithm` and returns it re-encoded canonically.
Result<VerificationKey> VerificationKeyFromPem(std::string_view pem, JwtAlgorithm algorithm);

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_INTERNAL_KEYS_H_
