// Twisted ElGamal over ristretto255 exactly as Solana's zk-sdk and Token-2022 confidential
// transfers use it, with their byte and text encodings.
//
//   secret key  s, a non-zero scalar               public key  P = s^-1 · H   (not s·G)
//   encryption of amount m with opening r:  commitment C = m·G + r·H,  handle D = r·P
//   ciphertext bytes = C (32) ‖ D (32); decryption: C - s·D = m·G, then a discrete log
//
// Public keys and ciphertexts are written as standard padded base64 of their bytes (44 and 88
// characters). The service only ever encrypts and adds ciphertexts; decryption, which needs the
// owner's secret key, lives in elgamal_decryptor.h.
#ifndef NETGRAPH_CORE_CRYPTO_ELGAMAL_H_
#define NETGRAPH_CORE_CRYPTO_ELGAMAL_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/crypto/bytes.h"
#include "core/crypto/ristretto.h"
#include "core/status.h"

namespace netgraph::crypto {

// The largest amount a standard Solana client can decrypt from one ciphertext (zk-sdk's
// decrypt_u32 searches [0, 2^32)). A balance the service keeps must stay at or below it.
inline constexpr std::uint64_t kMaxDecryptableAmount = (std::uint64_t{1} << 32) - 1;

class ElGamalSecretKey {
 public:
  // A fresh random key.
  static ElGamalSecretKey Generate();
  // `bytes` must be a canonical non-zero scalar (zk-sdk's ElGamalSecretKey::try_from).
  static Result<ElGamalSecretKey> FromBytes(const Bytes32& bytes);
  // The 32 bytes in standard padded base64.
  static Result<ElGamalSecretKey> Parse(std::string_view base64);

  ElGamalSecretKey(const ElGamalSecretKey&) = default;
  ElGamalSecretKey& operator=(const ElGamalSecretKey&) = default;
  // Wipes the scalar.
  ~ElGamalSecretKey();

  const Scalar& scalar() const { return scalar_; }
  std::string ToBase64() const;

 private:
  explicit ElGamalSecretKey(const Scalar& scalar) : scalar_(scalar) {}
  Scalar scalar_;
};

// Why a text is not a usable public key, checked in this order.
enum class PublicKeyError {
  kBadBase64,    // not strict standard padded base64
  kWrongLength,  // decodes, but not to 32 bytes
  kIdentity,     // 32 zero bytes: the identity, which Token-2022 reads as "no key"
  kNotAPoint,    // not the canonical encoding of a ristretto255 element
};

// A valid, non-identity public key. (Token-2022 also asks the owner for a proof of knowledge of the
// secret key when registering it; that proof is not checked here.)
class ElGamalPublicKey {
 public:
  static ElGamalPublicKey FromSecretKey(const ElGamalSecretKey& secret);
  // On failure the Status says why in words and, when `error` is given, *error says it as a value.
  static Result<ElGamalPublicKey> FromBytes(const Bytes32& bytes, PublicKeyError* error = nullptr);
  static Result<ElGamalPublicKey> Parse(std::string_view base64, PublicKeyError* error = nullptr);

  const RistrettoPoint& point() const { return point_; }
  const Bytes32& bytes() const { return point_.bytes(); }
  std::string ToBase64() const;
  friend bool operator==(const ElGamalPublicKey&, const ElGamalPublicKey&) = default;

 private:
  explicit ElGamalPublicKey(const RistrettoPoint& point) : point_(point) {}
  RistrettoPoint point_;
};

class ElGamalCiphertext {
 public:
  // 64 zero bytes: (identity, identity), an encryption of 0 under every key. Token-2022 starts
  // every confidential balance from it.
  ElGamalCiphertext() = default;
  ElGamalCiphertext(const RistrettoPoint& commitment, const RistrettoPoint& handle)
      : commitment_(commitment), handle_(handle) {}

  // Both halves must be valid encodings (the identity included).
  static Result<ElGamalCiphertext> FromBytes(const Bytes64& bytes);
  static Result<ElGamalCiphertext> Parse(std::string_view base64);

  const RistrettoPoint& commitment() const { return commitment_; }
  const RistrettoPoint& handle() const { return handle_; }
  Bytes64 bytes() const;
  std::string ToBase64() const;

  // Homomorphic: Enc(m1, r1) + Enc(m2, r2) = Enc(m1 + m2, r1 + r2) under the same key.
  ElGamalCiphertext operator+(const ElGamalCiphertext& other) const;
  friend bool operator==(const ElGamalCiphertext&, const ElGamalCiphertext&) = default;

 private:
  RistrettoPoint commitment_;
  RistrettoPoint handle_;
};

// Encrypts `amount` under `key` with a fresh random opening. Standard Solana clients decrypt only
// amounts up to kMaxDecryptableAmount; keeping within that is the caller's business.
ElGamalCiphertext Encrypt(const ElGamalPublicKey& key, std::uint64_t amount);

// The same with a given opening r. For test vectors only: an opening must never be reused, or the
// difference of two amounts leaks.
ElGamalCiphertext EncryptWithOpening(const ElGamalPublicKey& key, std::uint64_t amount,
                                     const Scalar& opening);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_ELGAMAL_H_
