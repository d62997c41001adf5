// Arithmetic in GF(2^255 - 19), the field under Curve25519, for the discrete-log search alone:
// libsodium keeps its field and curve code private, and going through its byte-encoded point API
// costs three field exponentiations per addition, too slow for a 2^32 search. Nothing here runs in
// constant time; it only ever sees the public point being decrypted, never a key.
#ifndef NETGRAPH_CORE_CRYPTO_INTERNAL_FIELD25519_H_
#define NETGRAPH_CORE_CRYPTO_INTERNAL_FIELD25519_H_

#include <array>
#include <cstdint>
#include <optional>
#include <span>

#include "core/crypto/bytes.h"

namespace netgraph::crypto {

class FieldElement {
 public:
  // Zero.
  FieldElement() = default;
  static FieldElement FromU64(std::uint64_t value);
  // A 32-byte little-endian integer with bit 255 ignored; values from p to 2^255 - 1 are taken
  // modulo p.
  static FieldElement FromBytes(const Bytes32& bytes);
  // The canonical encoding: the integer below p, little-endian; bit 255 is zero.
  Bytes32 ToBytes() const;

  FieldElement operator+(const FieldElement& other) const;
  FieldElement operator-(const FieldElement& other) const;
  FieldElement operator-() const;
  FieldElement operator*(const FieldElement& other) const;
  FieldElement Square() const;
  // x^e for a 255-bit exponent e given little-endian.
  FieldElement Pow(const Bytes32& exponent) const;
  // 1/x; zero for zero.
  FieldElement Invert() const;
  // 1/sqrt(x) when x is a non-zero square (the root's sign unspecified), otherwise nullopt.
  std::optional<FieldElement> InverseSquareRoot() const;

  bool IsZero() const;
  // RFC 9496's IS_NEGATIVE: the canonical encoding is odd.
  bool IsNegative() const;
  // |x|: x or -x, whichever is not negative.
  FieldElement Abs() const;
  friend bool operator==(const FieldElement& a, const FieldElement& b) {
    return a.ToBytes() == b.ToBytes();
  }

 private:
  // Value = sum of limbs_[i] * 2^(51 i). Every operation returns limbs below 2^52.
  std::array<std::uint64_t, 5> limbs_{};
};

// Replaces each element by its inverse with one field inversion for the whole batch (Montgomery's
// trick). Every element must be non-zero.
void BatchInvert(std::span<FieldElement> elements);

// Curve constants: d = -121665/121666 of edwards25519, and sqrt(-1) = 2^((p-1)/4).
const FieldElement& EdwardsD();
const FieldElement& SqrtMinusOne();

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_INTERNAL_FIELD25519_H_
