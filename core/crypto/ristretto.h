// The ristretto255 prime-order group (RFC 9496) and its scalars, on libsodium, as Solana's zk-sdk
// uses them. Points are kept in their canonical 32-byte encoding, so equal points have equal bytes.
//
// The identity is an ordinary value here, encoded as 32 zero bytes. libsodium's scalar
// multiplication instead reports an identity result as a failure (it returns -1 and writes zeros,
// e.g. for 0·G or r·identity); these wrappers turn that back into the identity.
#ifndef NETGRAPH_CORE_CRYPTO_RISTRETTO_H_
#define NETGRAPH_CORE_CRYPTO_RISTRETTO_H_

#include <cstdint>
#include <optional>

#include "core/crypto/bytes.h"

namespace netgraph::crypto {

// An integer modulo the group order L = 2^252 + 27742317777372353535851937790883648493, stored as
// 32 little-endian bytes below L.
class Scalar {
 public:
  // Zero.
  Scalar() = default;

  // The amount encoding of zk-sdk and Token-2022: the u64 little-endian in bytes 0..7.
  static Scalar FromU64(std::uint64_t value);
  // Uniform in [0, L), from libsodium's CSPRNG.
  static Scalar Random();
  // nullopt unless `bytes` is an integer below L (dalek's from_canonical_bytes).
  static std::optional<Scalar> FromCanonicalBytes(const Bytes32& bytes);
  // A 64-byte little-endian integer reduced modulo L (dalek's from_bytes_mod_order_wide).
  static Scalar FromWideBytes(const Bytes64& bytes);

  bool IsZero() const;
  // 1/s, or nullopt for zero.
  std::optional<Scalar> Inverse() const;
  Scalar operator+(const Scalar& other) const;
  Scalar operator*(const Scalar& other) const;
  // Sets the scalar to zero in a way the compiler cannot drop, for secrets going out of scope.
  void Wipe();

  const Bytes32& bytes() const { return bytes_; }
  friend bool operator==(const Scalar&, const Scalar&) = default;

 private:
  explicit Scalar(const Bytes32& bytes) : bytes_(bytes) {}
  Bytes32 bytes_{};
};

class RistrettoPoint {
 public:
  // The identity.
  RistrettoPoint() = default;

  // nullopt unless `bytes` is the canonical encoding of a group element; the identity (32 zero
  // bytes) is accepted.
  static std::optional<RistrettoPoint> FromBytes(const Bytes32& bytes);
  // RFC 9496's one-way map from 64 uniform bytes (dalek's from_uniform_bytes).
  static RistrettoPoint FromUniformBytes(const Bytes64& bytes);
  // k·G for the basepoint G.
  static RistrettoPoint MultiplyBase(const Scalar& k);

  bool IsIdentity() const;
  RistrettoPoint operator+(const RistrettoPoint& other) const;
  RistrettoPoint operator-(const RistrettoPoint& other) const;
  // k·P.
  friend RistrettoPoint operator*(const Scalar& k, const RistrettoPoint& point);

  const Bytes32& bytes() const { return bytes_; }
  friend bool operator==(const RistrettoPoint&, const RistrettoPoint&) = default;

 private:
  explicit RistrettoPoint(const Bytes32& bytes) : bytes_(bytes) {}
  Bytes32 bytes_{};
};

// G, the ristretto255 basepoint, which carries the amount in a Pedersen commitment.
const RistrettoPoint& BasepointG();
// H, zk-sdk's Pedersen blinding generator: FromUniformBytes(SHA3-512(G's 32 bytes)). Hard-coded
// (it is also a constant in Token-2022's ciphertext arithmetic); a unit test recomputes it.
const RistrettoPoint& PedersenH();

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_RISTRETTO_H_
