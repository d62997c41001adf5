#include "core/crypto/internal/field25519.h"

#include <vector>

namespace netgraph::crypto {
namespace {

__extension__ using Uint128 = unsigned __int128;

constexpr std::uint64_t kLimbMask = (std::uint64_t{1} << 51) - 1;

// 4p in limbs, added before a subtraction so that no limb goes below zero.
constexpr std::array<std::uint64_t, 5> kFourP = {4 * (kLimbMask - 18), 4 * kLimbMask, 4 * kLimbMask,
                                                 4 * kLimbMask, 4 * kLimbMask};

// Exponents, little-endian: p - 2 (inversion), (p - 5)/8 = 2^252 - 3 (square roots) and
// (p - 1)/4 = 2^253 - 5 (sqrt(-1)).
constexpr Bytes32 AllOnesExcept(std::uint8_t low, std::uint8_t high) {
  Bytes32 bytes{};
  for (auto& byte : bytes) byte = 0xff;
  bytes[0] = low;
  bytes[31] = high;
  return bytes;
}
constexpr Bytes32 kPMinus2 = AllOnesExcept(0xeb, 0x7f);
constexpr Bytes32 kPMinus5Over8 = AllOnesExcept(0xfd, 0x0f);
constexpr Bytes32 kPMinus1Over4 = AllOnesExcept(0xfb, 0x1f);

// Carries each limb's excess into the next one, the top one folding back as 19 (2^255 = 19 mod p).
void Carry(std::array<std::uint64_t, 5>& limbs) {
  for (int i = 0; i < 4; ++i) {
    limbs[i + 1] += limbs[i] >> 51;
    limbs[i] &= kLimbMask;
  }
  limbs[0] += 19 * (limbs[4] >> 51);
  limbs[4] &= kLimbMask;
}

}  // namespace

FieldElement FieldElement::FromU64(std::uint64_t value) {
  FieldElement element;
  element.limbs_[0] = value & kLimbMask;
  element.limbs_[1] = value >> 51;
  return element;
}

FieldElement FieldElement::FromBytes(const Bytes32& bytes) {
  auto load64 = [&bytes](int offset) {
    std::uint64_t word = 0;
    for (int i = 7; i >= 0; --i) word = word << 8 | bytes[offset + i];
    return word;
  };
  FieldElement element;
  element.limbs_[0] = load64(0) & kLimbMask;
  element.limbs_[1] = (load64(6) >> 3) & kLimbMask;
  element.limbs_[2] = (load64(12) >> 6) & kLimbMask;
  element.limbs_[3] = (load64(19) >> 1) & kLimbMask;
  element.limbs_[4] = (load64(24) >> 12) & kLimbMask;
  return element;
}

Bytes32 FieldElement::ToBytes() const {
  std::array<std::uint64_t, 5> limbs = limbs_;
  Carry(limbs);
  Carry(limbs);
  // Now limbs 1..4 are below 2^51 and the value is below 2^255 + 19. Subtract p once if the value
  // is at least p, i.e. if value + 19 reaches 2^255.
  std::uint64_t at_least_p = (limbs[0] + 19) >> 51;
  for (int i = 1; i < 5; ++i) at_least_p = (limbs[i] + at_least_p) >> 51;
  limbs[0] += 19 * at_least_p;
  for (int i = 0; i < 4; ++i) {
    limbs[i + 1] += limbs[i] >> 51;
    limbs[i] &= kLimbMask;
  }
  limbs[4] &= kLimbMask;

  const std::uint64_t words[4] = {limbs[0] | limbs[1] << 51, limbs[1] >> 13 | limbs[2] << 38,
                                  limbs[2] >> 26 | limbs[3] << 25, limbs[3] >> 39 | limbs[4] << 12};
  Bytes32 bytes;
  for (int i = 0; i < 32; ++i) bytes[i] = static_cast<std::uint8_t>(words[i / 8] >> (8 * (i % 8)));
  return bytes;
}

FieldElement FieldElement::operator+(const FieldElement& other) const {
  FieldElement sum;
  for (int i = 0; i < 5; ++i) sum.limbs_[i] = limbs_[i] + other.limbs_[i];
  Carry(sum.limbs_);
  return sum;
}

FieldElement FieldElement::operator-(const FieldElement& other) const {
  FieldElement difference;
  for (int i = 0; i < 5; ++i) {
    difference.limbs_[i] = limbs_[i] + kFourP[i] - other.limbs_[i];
  }
  Carry(difference.limbs_);
  return difference;
}

FieldElement FieldElement::operator-() const { return FieldElement() - *this; }

FieldElement FieldElement::operator*(const FieldElement& other) const {
  const auto& a = limbs_;
  const auto& b = other.limbs_;
  auto product = [](std::uint64_t x, std::uint64_t y) { return Uint128{x} * y; };
  // Limb products at position i + j >= 5 wrap around multiplied by 19.
  std::uint64_t b1 = 19 * b[1], b2 = 19 * b[2], b3 = 19 * b[3], b4 = 19 * b[4];
  Uint128 r0 = product(a[0], b[0]) + product(a[1], b4) + product(a[2], b3) + product(a[3], b2) +
               product(a[4], b1);
  Uint128 r1 = product(a[0], b[1]) + product(a[1], b[0]) + product(a[2], b4) + product(a[3], b3) +
               product(a[4], b2);
  Uint128 r2 = product(a[0], b[2]) + product(a[1], b[1]) + product(a[2], b[0]) + product(a[3], b4) +
               product(a[4], b3);
  Uint128 r3 = product(a[0], b[3]) + product(a[1], b[2]) + product(a[2], b[1]) +
               product(a[3], b[0]) + product(a[4], b4);
  Uint128 r4 = product(a[0], b[4]) + product(a[1], b[3]) + product(a[2], b[2]) +
               product(a[3], b[1]) + product(a[4], b[0]);
  r1 += r0 >> 51;
  r2 += r1 >> 51;
  r3 += r2 >> 51;
  r4 += r3 >> 51;
  Uint128 r0_low = (r0 & kLimbMask) + (r4 >> 51) * 19;
  FieldElement result;
  result.limbs_ = {
      static_cast<std::uint64_t>(r0_low & kLimbMask),
      static_cast<std::uint64_t>(r1 & kLimbMask) + static_cast<std::uint64_t>(r0_low >> 51),
      static_cast<std::uint64_t>(r2 & kLimbMask), static_cast<std::uint64_t>(r3 & kLimbMask),
      static_cast<std::uint64_t>(r4 & kLimbMask)};
  return result;
}

FieldElement FieldElement::Square() const { return *this * *this; }

FieldElement FieldElement::Pow(const Bytes32& exponent) const {
  FieldElement result = FromU64(1);
  for (int bit = 255; bit >= 0; --bit) {
    result = result.Square();
    if ((exponent[bit / 8] >> (bit % 8)) & 1) result = result * *this;
  }
  return result;
}

FieldElement FieldElement::Invert() const { return Pow(kPMinus2); }

std::optional<FieldElement> FieldElement::InverseSquareRoot() const {
  // r = x^3 (x^7)^((p-5)/8) gives x r^2 = x^(7(p-1)/4), which is 1 or -1 for a non-zero square
  // x; in the second case r·sqrt(-1) is the root.
  const FieldElement& x = *this;
  FieldElement x3 = x.Square() * x;
  FieldElement r = x3 * (x3.Square() * x).Pow(kPMinus5Over8);
  FieldElement check = x * r.Square();
  if (check == FromU64(1)) return r;
  if (check == -FromU64(1)) return r * SqrtMinusOne();
  return std::nullopt;
}

bool FieldElement::IsZero() const { return ToBytes() == Bytes32{}; }

bool FieldElement::IsNegative() const { return (ToBytes()[0] & 1) != 0; }

FieldElement FieldElement::Abs() const { return IsNegative() ? -*this : *this; }

void BatchInvert(std::span<FieldElement> elements) {
  if (elements.empty()) return;
  // prefix[i] = elements[0] * ... * elements[i].
  std::vector<FieldElement> prefix(elements.size());
  prefix[0] = elements[0];
  for (std::size_t i = 1; i < elements.size(); ++i) prefix[i] = prefix[i - 1] * elements[i];
  FieldElement inverse = prefix.back().Invert();  // 1 / (elements[0] * ... * elements[i])
  for (std::size_t i = elements.size() - 1; i > 0; --i) {
    FieldElement element = elements[i];
    elements[i] = inverse * prefix[i - 1];
    inverse = inverse * element;
  }
  elements[0] = inverse;
}

const FieldElement& EdwardsD() {
  static const FieldElement d =
      -FieldElement::FromU64(121665) * FieldElement::FromU64(121666).Invert();
  return d;
}

const FieldElement& SqrtMinusOne() {
  static const FieldElement root = FieldElement::FromU64(2).Pow(kPMinus1Over4);
  return root;
}

}  // namespace netgraph::crypto
