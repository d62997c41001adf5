#include "core/crypto/base58.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <random>
#include <string>

#include "core/crypto/bytes.h"

namespace netgraph::crypto {
namespace {

using ::testing::HasSubstr;

TEST(Base58Test, EncodesKnownValues) {
  // Bitcoin's base58 test vectors.
  EXPECT_EQ(Base58Encode(AsBytes("Hello World!")), "2NEpo7TZRRrLZSi2U");
  EXPECT_EQ(Base58Encode(AsBytes("The quick brown fox jumps over the lazy dog.")),
            "USm3fpXnKG5EUBx2ndxBDMPVciP5hGey2Jh4NDv6gmeo1LkMeiKrLJUUBk6Z");
  EXPECT_EQ(Base58Encode({}), "");
}

TEST(Base58Test, LeadingZeroBytesBecomeOnes) {
  EXPECT_EQ(Base58Encode(Bytes32{}), std::string(32, '1'));
  const std::array<std::uint8_t, 3> bytes = {0x00, 0x00, 0x01};
  EXPECT_EQ(Base58Encode(bytes), "112");

  std::array<std::uint8_t, 3> out{};
  ASSERT_TRUE(Base58DecodeExact("112", out, 10).ok());
  EXPECT_EQ(out, bytes);
  Bytes32 zeros;
  zeros.fill(0xaa);
  ASSERT_TRUE(Base58DecodeExact(std::string(32, '1'), zeros, kMaxBase58AddressLength).ok());
  EXPECT_EQ(zeros, Bytes32{});
}

TEST(Base58Test, RoundTripsRandomAddressesAndSignatures) {
  std::mt19937 random(7);
  for (int i = 0; i < 200; ++i) {
    Bytes32 address;
    Bytes64 signature;
    for (auto& byte : address) byte = static_cast<std::uint8_t>(random());
    for (auto& byte : signature) byte = static_cast<std::uint8_t>(random());
    if (i % 4 == 0) address[0] = address[1] = 0;  // leading zeros too

    std::string address_text = Base58Encode(address);
    std::string signature_text = Base58Encode(signature);
    EXPECT_LE(address_text.size(), kMaxBase58AddressLength);
    EXPECT_LE(signature_text.size(), kMaxBase58SignatureLength);
    Bytes32 address_back;
    Bytes64 signature_back;
    ASSERT_TRUE(Base58DecodeExact(address_text, address_back, kMaxBase58AddressLength).ok());
    ASSERT_TRUE(Base58DecodeExact(signature_text, signature_back, kMaxBase58SignatureLength).ok());
    EXPECT_EQ(address_back, address);
    EXPECT_EQ(signature_back, signature);
  }
}

TEST(Base58Test, LongestValuesFitSolanasLimits) {
  Bytes32 address;
  address.fill(0xff);
  Bytes64 signature;
  signature.fill(0xff);
  EXPECT_EQ(Base58Encode(address).size(), 44u);
  EXPECT_EQ(Base58Encode(signature).size(), 88u);
}

TEST(Base58Test, RejectsCharactersOutsideTheAlphabet) {
  Bytes32 out;
  // '0', 'O', 'I' and 'l' are not in the Bitcoin alphabet; neither are spaces or '+'.
  for (std::string text : {"0", "O", "I", "l", " ", "+"}) {
    std::string address = "4WCfDRZGuArEsp3BRU3H7mLu14r8gdna63E2A7SSuLn" + text;
    Status status = Base58DecodeExact(address, out, kMaxBase58AddressLength);
    EXPECT_THAT(status.message(), HasSubstr("outside the alphabet")) << address;
    EXPECT_TRUE(status.IsInvalidArgument()) << address;
  }
}

TEST(Base58Test, RejectsTooLongText) {
  Bytes32 out;
  Status status = Base58DecodeExact(std::string(45, '2'), out, kMaxBase58AddressLength);
  EXPECT_THAT(status.message(), HasSubstr("longer than 44"));
  Bytes64 signature;
  status = Base58DecodeExact(std::string(89, '2'), signature, kMaxBase58SignatureLength);
  EXPECT_THAT(status.message(), HasSubstr("longer than 88"));
}

TEST(Base58Test, RejectsWrongDecodedLength) {
  Bytes32 out;
  // 31 and 33 bytes.
  EXPECT_THAT(Base58DecodeExact(std::string(31, '1'), out, 44).message(),
              HasSubstr("exactly 32 bytes"));
  EXPECT_THAT(Base58DecodeExact(std::string(33, '1'), out, 44).message(),
              HasSubstr("exactly 32 bytes"));
  // 44 characters whose value needs 33 bytes.
  EXPECT_THAT(Base58DecodeExact(std::string(44, 'z'), out, 44).message(),
              HasSubstr("exactly 32 bytes"));
  // A valid signature is not an address.
  Bytes64 signature;
  signature.fill(0x42);
  EXPECT_THAT(Base58DecodeExact(Base58Encode(signature), out, 88).message(),
              HasSubstr("exactly 32 bytes"));
}

TEST(Base58Test, RejectsEmptyText) {
  Bytes32 out;
  EXPECT_THAT(Base58DecodeExact("", out, 44).message(), HasSubstr("empty"));
}

}  // namespace
}  // namespace netgraph::crypto
