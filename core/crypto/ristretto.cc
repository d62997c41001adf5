#include "core/crypto/ristretto.h"

#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace netgraph::crypto {
namespace {

// libsodium selects its implementations and seeds its generator in sodium_init(); every entry
// point of this file that reaches libsodium calls this first.
void EnsureSodium() {
  static const bool initialized = [] {
    if (sodium_init() < 0) {
      std::fputs("netgraph: libsodium failed to initialize\n", stderr);
      std::abort();
    }
    return true;
  }();
  (void)initialized;
}

constexpr Bytes32 kBasepointG = {0xe2, 0xf2, 0xae, 0x0a, 0x6a, 0xbc, 0x4e, 0x71, 0xa8, 0x84, 0xa9,
                                 0x61, 0xc5, 0x00, 0x51, 0x5f, 0x58, 0xe3, 0x0b, 0x6a, 0xa5, 0x82,
                                 0xdd, 0x8d, 0xb6, 0xa6, 0x59, 0x45, 0xe0, 0x8d, 0x2d, 0x76};
constexpr Bytes32 kPedersenH = {0x8c, 0x92, 0x40, 0xb4, 0x56, 0xa9, 0xe6, 0xdc, 0x65, 0xc3, 0x77,
                                0xa1, 0x04, 0x8d, 0x74, 0x5f, 0x94, 0xa0, 0x8c, 0xdb, 0x7f, 0x44,
                                0xcb, 0xcd, 0x7b, 0x46, 0xf3, 0x40, 0x48, 0x87, 0x11, 0x34};

}  // namespace

Scalar Scalar::FromU64(std::uint64_t value) {
  Bytes32 bytes{};
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<std::uint8_t>(value >> (8 * i));
  return Scalar(bytes);
}

Scalar Scalar::Random() {
  EnsureSodium();
  Bytes32 bytes;
  crypto_core_ristretto255_scalar_random(bytes.data());
  return Scalar(bytes);
}

std::optional<Scalar> Scalar::FromCanonicalBytes(const Bytes32& bytes) {
  // Canonical exactly when reducing the value modulo L leaves it unchanged.
  Bytes64 wide{};
  std::copy(bytes.begin(), bytes.end(), wide.begin());
  if (FromWideBytes(wide).bytes() != bytes) return std::nullopt;
  return Scalar(bytes);
}

Scalar Scalar::FromWideBytes(const Bytes64& bytes) {
  EnsureSodium();
  Bytes32 reduced;
  crypto_core_ristretto255_scalar_reduce(reduced.data(), bytes.data());
  return Scalar(reduced);
}

bool Scalar::IsZero() const { return bytes_ == Bytes32{}; }

std::optional<Scalar> Scalar::Inverse() const {
  EnsureSodium();
  Bytes32 inverse;
  if (crypto_core_ristretto255_scalar_invert(inverse.data(), bytes_.data()) != 0) {
    return std::nullopt;
  }
  return Scalar(inverse);
}

Scalar Scalar::operator+(const Scalar& other) const {
  EnsureSodium();
  Bytes32 sum;
  crypto_core_ristretto255_scalar_add(sum.data(), bytes_.data(), other.bytes_.data());
  return Scalar(sum);
}

Scalar Scalar::operator*(const Scalar& other) const {
  EnsureSodium();
  Bytes32 product;
  crypto_core_ristretto255_scalar_mul(product.data(), bytes_.data(), other.bytes_.data());
  return Scalar(product);
}

void Scalar::Wipe() { sodium_memzero(bytes_.data(), bytes_.size()); }

std::optional<RistrettoPoint> RistrettoPoint::FromBytes(const Bytes32& bytes) {
  EnsureSodium();
  if (crypto_core_ristretto255_is_valid_point(bytes.data()) != 1) return std::nullopt;
  return RistrettoPoint(bytes);
}

RistrettoPoint RistrettoPoint::FromUniformBytes(const Bytes64& bytes) {
  EnsureSodium();
  Bytes32 point;
  crypto_core_ristretto255_from_hash(point.data(), bytes.data());
  return RistrettoPoint(point);
}

RistrettoPoint RistrettoPoint::MultiplyBase(const Scalar& k) {
  EnsureSodium();
  Bytes32 product;
  // Scalars are below L, so libsodium's clearing of bit 255 never changes them; -1 means the
  // product is the identity, and libsodium has then written zeros.
  if (crypto_scalarmult_ristretto255_base(product.data(), k.bytes().data()) != 0) return {};
  return RistrettoPoint(product);
}

bool RistrettoPoint::IsIdentity() const { return bytes_ == Bytes32{}; }

// Both operands are valid encodings by construction, so libsodium's add and sub cannot fail; they
// take and give the identity as 32 zero bytes.
RistrettoPoint RistrettoPoint::operator+(const RistrettoPoint& other) const {
  EnsureSodium();
  Bytes32 sum;
  crypto_core_ristretto255_add(sum.data(), bytes_.data(), other.bytes_.data());
  return RistrettoPoint(sum);
}

RistrettoPoint RistrettoPoint::operator-(const RistrettoPoint& other) const {
  EnsureSodium();
  Bytes32 difference;
  crypto_core_ristretto255_sub(difference.data(), bytes_.data(), other.bytes_.data());
  return RistrettoPoint(difference);
}

RistrettoPoint operator*(const Scalar& k, const RistrettoPoint& point) {
  EnsureSodium();
  Bytes32 product;
  if (crypto_scalarmult_ristretto255(product.data(), k.bytes().data(), point.bytes().data()) != 0) {
    return {};
  }
  return RistrettoPoint(product);
}

const RistrettoPoint& BasepointG() {
  static const RistrettoPoint g = *RistrettoPoint::FromBytes(kBasepointG);
  return g;
}

const RistrettoPoint& PedersenH() {
  static const RistrettoPoint h = *RistrettoPoint::FromBytes(kPedersenH);
  return h;
}

}  // namespace netgraph::crypto
