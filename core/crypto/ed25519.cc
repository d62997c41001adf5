#include "core/crypto/ed25519.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include "core/crypto/base58.h"

namespace netgraph::crypto {
namespace {

struct DigestContextDeleter {
  void operator()(EVP_MD_CTX* context) const { EVP_MD_CTX_free(context); }
};
using DigestContext = std::unique_ptr<EVP_MD_CTX, DigestContextDeleter>;

std::shared_ptr<EVP_PKEY> Wrap(EVP_PKEY* key) {
  return std::shared_ptr<EVP_PKEY>(key, EVP_PKEY_free);
}

}  // namespace

Result<Ed25519Keypair> Ed25519Keypair::FromSeed(const Bytes32& seed) {
  std::shared_ptr<EVP_PKEY> key =
      Wrap(EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, seed.data(), seed.size()));
  if (!key) return Status::Internal("OpenSSL could not make an Ed25519 key");
  Bytes32 public_key;
  std::size_t length = public_key.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), public_key.data(), &length) != 1 ||
      length != public_key.size()) {
    return Status::Internal("OpenSSL could not derive the Ed25519 public key");
  }
  return Ed25519Keypair(std::move(key), public_key);
}

Result<Ed25519Keypair> Ed25519Keypair::Generate() {
  Bytes32 seed;
  if (RAND_bytes(seed.data(), static_cast<int>(seed.size())) != 1) {
    return Status::Internal("OpenSSL could not generate a random seed");
  }
  Result<Ed25519Keypair> keypair = FromSeed(seed);
  OPENSSL_cleanse(seed.data(), seed.size());
  return keypair;
}

Bytes32 Ed25519Keypair::Seed() const {
  Bytes32 seed{};
  std::size_t length = seed.size();
  // Cannot fail for a key made by FromSeed.
  EVP_PKEY_get_raw_private_key(key_.get(), seed.data(), &length);
  return seed;
}

Result<Bytes64> Ed25519Keypair::Sign(std::span<const std::uint8_t> message) const {
  DigestContext context(EVP_MD_CTX_new());
  Bytes64 signature;
  std::size_t length = signature.size();
  if (!context || EVP_DigestSignInit(context.get(), nullptr, nullptr, nullptr, key_.get()) != 1 ||
      EVP_DigestSign(context.get(), signature.data(), &length, message.data(), message.size()) !=
          1 ||
      length != signature.size()) {
    return Status::Internal("OpenSSL could not sign with Ed25519");
  }
  return signature;
}

bool Ed25519Verify(const Bytes32& public_key, std::span<const std::uint8_t> message,
                   const Bytes64& signature) {
  std::shared_ptr<EVP_PKEY> key = Wrap(
      EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr, public_key.data(), public_key.size()));
  DigestContext context(EVP_MD_CTX_new());
  return key && context &&
         EVP_DigestVerifyInit(context.get(), nullptr, nullptr, nullptr, key.get()) == 1 &&
         EVP_DigestVerify(context.get(), signature.data(), signature.size(), message.data(),
                          message.size()) == 1;
}

std::string SignatureToBase58(const Bytes64& signature) { return Base58Encode(signature); }

Result<Bytes64> ParseBase58Signature(std::string_view text) {
  Bytes64 signature;
  Status status = Base58DecodeExact(text, signature, kMaxBase58SignatureLength);
  if (!status.ok()) return status.WithContext("signature");
  return signature;
}

}  // namespace netgraph::crypto
