// Ed25519 (RFC 8032, pure: the message is signed as is) on OpenSSL 3 raw keys: Solana's signature
// scheme. Signatures are deterministic, so they equal ed25519-dalek's, Node's and libsodium's for
// the same key and message. Solana writes public keys and signatures in base58.
#ifndef NETGRAPH_CORE_CRYPTO_ED25519_H_
#define NETGRAPH_CORE_CRYPTO_ED25519_H_

#include <openssl/types.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "core/crypto/bytes.h"
#include "core/status.h"

namespace netgraph::crypto {

class Ed25519Keypair {
 public:
  // The keypair of a 32-byte secret seed (RFC 8032's private key).
  static Result<Ed25519Keypair> FromSeed(const Bytes32& seed);
  // A fresh keypair from OpenSSL's CSPRNG.
  static Result<Ed25519Keypair> Generate();

  const Bytes32& public_key() const { return public_key_; }
  // The secret seed, for writing the keypair to a file; wipe the copy after use.
  Bytes32 Seed() const;

  Result<Bytes64> Sign(std::span<const std::uint8_t> message) const;

 private:
  Ed25519Keypair(std::shared_ptr<EVP_PKEY> key, const Bytes32& public_key)
      : key_(std::move(key)), public_key_(public_key) {}
  std::shared_ptr<EVP_PKEY> key_;  // immutable once made, so copies share it
  Bytes32 public_key_;
};

// True when `signature` is a valid signature of `message` by `public_key`. Malformed keys and
// signatures are simply invalid.
bool Ed25519Verify(const Bytes32& public_key, std::span<const std::uint8_t> message,
                   const Bytes64& signature);

// A signature as Solana writes it: base58, at most 88 characters, exactly 64 bytes.
std::string SignatureToBase58(const Bytes64& signature);
Result<Bytes64> ParseBase58Signature(std::string_view text);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_ED25519_H_
