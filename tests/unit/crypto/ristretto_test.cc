#include "core/crypto/ristretto.h"

#include <gtest/gtest.h>

#include "core/crypto/base64.h"
#include "core/crypto/digest.h"
#include "core/crypto/hex.h"
#include "test_bytes.h"

namespace netgraph::crypto {
namespace {

// L, the group order, little-endian.
constexpr std::string_view kOrderHex =
    "edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010";

TEST(RistrettoTest, BasepointIsOneTimesG) {
  EXPECT_EQ(HexEncode(BasepointG().bytes()),
            "e2f2ae0a6abc4e71a884a961c500515f58e30b6aa582dd8db6a65945e08d2d76");
  EXPECT_EQ(RistrettoPoint::MultiplyBase(Scalar::FromU64(1)), BasepointG());
}

// Vector E1: H = from_uniform_bytes(SHA3-512(G)), as zk-sdk's pedersen.rs defines it.
TEST(RistrettoTest, PedersenHIsHashOfG) {
  Bytes64 digest = Sha3_512(BasepointG().bytes());
  EXPECT_EQ(HexEncode(digest),
            "e7b3207eecbf367e6bbbbd3aac880be644fc0ce9c4d689508e76154322d72c1f"
            "42d8c5354fed12898b41139e83323a7e2f3d05936793973ab1c6b5e24780187c");
  EXPECT_EQ(RistrettoPoint::FromUniformBytes(digest), PedersenH());
  EXPECT_EQ(HexEncode(PedersenH().bytes()),
            "8c9240b456a9e6dc65c377a1048d745f94a08cdb7f44cbcd7b46f34048871134");
  EXPECT_EQ(Base64Encode(PedersenH().bytes()), "jJJAtFap5txlw3ehBI10X5SgjNt/RMvNe0bzQEiHETQ=");
}

TEST(RistrettoTest, IdentityIsAnOrdinaryValue) {
  RistrettoPoint identity;
  EXPECT_TRUE(identity.IsIdentity());
  EXPECT_EQ(identity.bytes(), Bytes32{});
  // libsodium reports these products as failures; they are the identity.
  EXPECT_TRUE(RistrettoPoint::MultiplyBase(Scalar()).IsIdentity());
  EXPECT_TRUE((Scalar() * PedersenH()).IsIdentity());
  EXPECT_TRUE((Scalar::FromU64(5) * identity).IsIdentity());
  EXPECT_EQ(BasepointG() + identity, BasepointG());
  EXPECT_TRUE((PedersenH() - PedersenH()).IsIdentity());
  ASSERT_TRUE(RistrettoPoint::FromBytes(Bytes32{}).has_value());
}

TEST(RistrettoTest, ScalarArithmeticMatchesGroupArithmetic) {
  Scalar a = Scalar::FromU64(1234567), b = Scalar::Random();
  EXPECT_EQ(RistrettoPoint::MultiplyBase(a + b),
            RistrettoPoint::MultiplyBase(a) + RistrettoPoint::MultiplyBase(b));
  EXPECT_EQ(RistrettoPoint::MultiplyBase(a * b), a * RistrettoPoint::MultiplyBase(b));
  EXPECT_EQ(RistrettoPoint::MultiplyBase(Scalar::FromU64(3)),
            BasepointG() + BasepointG() + BasepointG());
  EXPECT_EQ(RistrettoPoint::MultiplyBase(Scalar::FromU64(2)) - BasepointG(), BasepointG());
}

TEST(RistrettoTest, InverseOfZeroDoesNotExist) {
  EXPECT_FALSE(Scalar().Inverse().has_value());
  Scalar s = Scalar::FromU64(7);
  ASSERT_TRUE(s.Inverse().has_value());
  EXPECT_EQ(*s.Inverse() * s, Scalar::FromU64(1));
}

TEST(RistrettoTest, CanonicalScalarsAreBelowTheOrder) {
  Bytes32 order = FromHex<32>(kOrderHex);
  EXPECT_FALSE(Scalar::FromCanonicalBytes(order).has_value());
  Bytes32 order_minus_one = order;
  order_minus_one[0] -= 1;
  EXPECT_TRUE(Scalar::FromCanonicalBytes(order_minus_one).has_value());
  Bytes32 high_bit{};
  high_bit[31] = 0x80;
  EXPECT_FALSE(Scalar::FromCanonicalBytes(high_bit).has_value());
  EXPECT_EQ(Scalar::FromCanonicalBytes(Scalar::FromU64(99).bytes()), Scalar::FromU64(99));
}

TEST(RistrettoTest, WideBytesAreReducedModuloTheOrder) {
  Bytes64 wide{};
  Bytes32 order = FromHex<32>(kOrderHex);
  std::copy(order.begin(), order.end(), wide.begin());
  wide[0] += 5;  // L + 5
  EXPECT_EQ(Scalar::FromWideBytes(wide), Scalar::FromU64(5));
}

TEST(RistrettoTest, RejectsNonCanonicalAndInvalidEncodings) {
  // A negative field element (odd encoding) is never canonical.
  Bytes32 odd{};
  odd[0] = 1;
  EXPECT_FALSE(RistrettoPoint::FromBytes(odd).has_value());
  // p itself, a non-canonical encoding of zero.
  EXPECT_FALSE(RistrettoPoint::FromBytes(
                   FromHex<32>("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f"))
                   .has_value());
  Bytes32 all_ones;
  all_ones.fill(0xff);
  EXPECT_FALSE(RistrettoPoint::FromBytes(all_ones).has_value());
}

TEST(RistrettoTest, FromU64IsLittleEndian) {
  EXPECT_EQ(HexEncode(Scalar::FromU64(0x0102030405060708).bytes()),
            "0807060504030201000000000000000000000000000000000000000000000000");
}

TEST(RistrettoTest, WipeZeroesAScalar) {
  Scalar s = Scalar::Random();
  s.Wipe();
  EXPECT_TRUE(s.IsZero());
}

}  // namespace
}  // namespace netgraph::crypto
