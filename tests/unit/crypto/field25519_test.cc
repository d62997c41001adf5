#include "core/crypto/internal/field25519.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "core/crypto/hex.h"
#include "test_bytes.h"

namespace netgraph::crypto {
namespace {

FieldElement Random(std::mt19937_64& random) {
  Bytes32 bytes;
  for (auto& byte : bytes) byte = static_cast<std::uint8_t>(random());
  return FieldElement::FromBytes(bytes);
}

TEST(FieldElementTest, EncodingIsCanonical) {
  // p, p + 1 and 2^255 - 1 (bit 255 is ignored) reduce to 0, 1 and 18.
  EXPECT_TRUE(FieldElement::FromBytes(
                  FromHex<32>("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))
                  .IsZero());
  EXPECT_EQ(FieldElement::FromBytes(
                FromHex<32>("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f")),
            FieldElement::FromU64(1));
  Bytes32 all_ones;
  all_ones.fill(0xff);
  EXPECT_EQ(FieldElement::FromBytes(all_ones).ToBytes(), FieldElement::FromU64(18).ToBytes());
  // p - 1 stays as it is.
  Bytes32 p_minus_1 =
      FromHex<32>("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f");
  EXPECT_EQ(FieldElement::FromBytes(p_minus_1).ToBytes(), p_minus_1);
  EXPECT_EQ(-FieldElement::FromU64(1), FieldElement::FromBytes(p_minus_1));
}

TEST(FieldElementTest, BytesRoundTrip) {
  std::mt19937_64 random(1);
  for (int i = 0; i < 1000; ++i) {
    Bytes32 bytes = Random(random).ToBytes();
    EXPECT_EQ(FieldElement::FromBytes(bytes).ToBytes(), bytes);
    EXPECT_EQ(bytes[31] & 0x80, 0);
  }
}

TEST(FieldElementTest, FieldLaws) {
  std::mt19937_64 random(2);
  for (int i = 0; i < 200; ++i) {
    FieldElement a = Random(random), b = Random(random), c = Random(random);
    EXPECT_EQ((a + b) * c, a * c + b * c);
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ((a - b) + b, a);
    EXPECT_EQ(a + (-a), FieldElement());
    EXPECT_EQ(a.Square(), a * a);
    EXPECT_EQ(a * a.Invert(), FieldElement::FromU64(1));
  }
}

TEST(FieldElementTest, SmallProductsMatchIntegers) {
  // (2^51 + 3) * (2^40 + 7) < p, so the field product equals the integer product.
  FieldElement a = FieldElement::FromU64((std::uint64_t{1} << 51) + 3);
  FieldElement b = FieldElement::FromU64((std::uint64_t{1} << 40) + 7);
  // 2^91 + 7*2^51 + 3*2^40 + 21
  Bytes32 expected{};
  auto set_bit = [&expected](int bit) {
    expected[bit / 8] |= static_cast<std::uint8_t>(1 << (bit % 8));
  };
  set_bit(91);
  expected[0] = 21;
  for (int bit : {51, 52, 53}) set_bit(bit);  // 7 * 2^51
  for (int bit : {40, 41}) set_bit(bit);      // 3 * 2^40
  EXPECT_EQ((a * b).ToBytes(), expected);
}

TEST(FieldElementTest, Constants) {
  EXPECT_EQ(SqrtMinusOne().Square(), -FieldElement::FromU64(1));
  EXPECT_EQ(EdwardsD() * FieldElement::FromU64(121666), -FieldElement::FromU64(121665));
  // RFC 8032's d, little-endian.
  EXPECT_EQ(HexEncode(EdwardsD().ToBytes()),
            "a3785913ca4deb75abd841414d0a700098e879777940c78c73fe6f2bee6c0352");
}

TEST(FieldElementTest, InverseSquareRoot) {
  std::mt19937_64 random(3);
  int squares = 0;
  for (int i = 0; i < 100; ++i) {
    FieldElement a = Random(random);
    std::optional<FieldElement> root = a.InverseSquareRoot();
    if (root) {
      ++squares;
      EXPECT_EQ(root->Square() * a, FieldElement::FromU64(1));
    }
    // Every a^2 is a square; 2 is not one, since p = 5 mod 8.
    ASSERT_TRUE(a.Square().InverseSquareRoot().has_value());
  }
  EXPECT_GT(squares, 20);
  EXPECT_LT(squares, 80);
  EXPECT_FALSE(FieldElement::FromU64(2).InverseSquareRoot().has_value());
  EXPECT_FALSE(FieldElement().InverseSquareRoot().has_value());
}

TEST(FieldElementTest, BatchInvertMatchesSingleInversions) {
  std::mt19937_64 random(4);
  std::vector<FieldElement> elements;
  for (int i = 0; i < 37; ++i) elements.push_back(Random(random));
  std::vector<FieldElement> inverted = elements;
  BatchInvert(inverted);
  for (std::size_t i = 0; i < elements.size(); ++i) {
    EXPECT_EQ(inverted[i], elements[i].Invert());
  }
  std::vector<FieldElement> one = {FieldElement::FromU64(5)};
  BatchInvert(one);
  EXPECT_EQ(one[0] * FieldElement::FromU64(5), FieldElement::FromU64(1));
}

TEST(FieldElementTest, NegativeMeansOddEncoding) {
  // RFC 9496: 1 is "negative" (odd), -1 = p - 1 is not.
  FieldElement one = FieldElement::FromU64(1);
  EXPECT_TRUE(one.IsNegative());
  EXPECT_FALSE((-one).IsNegative());
  EXPECT_EQ(one.Abs(), -one);
  EXPECT_EQ(FieldElement::FromU64(2).Abs(), FieldElement::FromU64(2));
}

}  // namespace
}  // namespace netgraph::crypto
