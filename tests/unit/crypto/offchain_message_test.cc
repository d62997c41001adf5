#include "core/crypto/offchain_message.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/crypto/base58.h"
#include "core/crypto/digest.h"

namespace netgraph::crypto {
namespace {

// solana-offchain-message's own tests.
TEST(OffchainMessageTest, SerializesTestMessage) {
  Result<std::vector<std::uint8_t>> bytes = SerializeOffchainMessage("Test Message");
  ASSERT_TRUE(bytes.ok());
  const std::vector<std::uint8_t> expected = {0xff, 0x73, 0x6f, 0x6c, 0x61, 0x6e, 0x61, 0x20,
                                              0x6f, 0x66, 0x66, 0x63, 0x68, 0x61, 0x69, 0x6e,
                                              0x00, 0x00, 0x0c, 0x00, 0x54, 0x65, 0x73, 0x74,
                                              0x20, 0x4d, 0x65, 0x73, 0x73, 0x61, 0x67, 0x65};
  EXPECT_EQ(*bytes, expected);
  EXPECT_EQ(Base58Encode(Sha256(*bytes)), "HG5JydBGjtjTfD3sSn21ys5NTWPpXzmqifiGC2BVUjkD");
}

TEST(OffchainMessageTest, SerializesUtf8Message) {
  std::string_view message = "Тестовое сообщение";
  EXPECT_EQ(*ChooseOffchainMessageFormat(message), OffchainMessageFormat::kLimitedUtf8);
  Result<std::vector<std::uint8_t>> bytes = SerializeOffchainMessage(message);
  ASSERT_TRUE(bytes.ok());
  ASSERT_EQ(bytes->size(), 20u + 35u);
  EXPECT_EQ((*bytes)[17], 1);   // format
  EXPECT_EQ((*bytes)[18], 35);  // length, little-endian
  EXPECT_EQ((*bytes)[19], 0);
  EXPECT_EQ(Base58Encode(Sha256(*bytes)), "6GXTveatZQLexkX4WeTpJ3E7uk1UojRXpKp43c4ArSun");
}

TEST(OffchainMessageTest, ChoosesFormatByContentAndLength) {
  EXPECT_EQ(*ChooseOffchainMessageFormat("a=b c=d"), OffchainMessageFormat::kRestrictedAscii);
  EXPECT_EQ(*ChooseOffchainMessageFormat("line\nbreak"), OffchainMessageFormat::kLimitedUtf8);
  EXPECT_EQ(*ChooseOffchainMessageFormat(std::string(1212, 'a')),
            OffchainMessageFormat::kRestrictedAscii);
  EXPECT_EQ(*ChooseOffchainMessageFormat(std::string(1213, 'a')),
            OffchainMessageFormat::kExtendedUtf8);
  EXPECT_EQ(*ChooseOffchainMessageFormat(std::string(65515, 'a')),
            OffchainMessageFormat::kExtendedUtf8);
  EXPECT_FALSE(ChooseOffchainMessageFormat(std::string(65516, 'a')).ok());
  EXPECT_FALSE(ChooseOffchainMessageFormat("").ok());

  Result<std::vector<std::uint8_t>> long_message = SerializeOffchainMessage(std::string(1213, 'a'));
  ASSERT_TRUE(long_message.ok());
  EXPECT_EQ((*long_message)[17], 2);
  EXPECT_EQ((*long_message)[18], 1213 & 0xff);
  EXPECT_EQ((*long_message)[19], 1213 >> 8);
}

TEST(OffchainMessageTest, AcceptsOnlyWellFormedUtf8) {
  EXPECT_TRUE(ChooseOffchainMessageFormat("\xf0\x9f\x98\x80").ok());  // U+1F600
  EXPECT_TRUE(ChooseOffchainMessageFormat("\xf4\x8f\xbf\xbf").ok());  // U+10FFFF
  EXPECT_TRUE(ChooseOffchainMessageFormat("\xed\x9f\xbf").ok());      // U+D7FF
  EXPECT_TRUE(ChooseOffchainMessageFormat(std::string_view("\0", 1)).ok());
  EXPECT_FALSE(ChooseOffchainMessageFormat("\xc0\x80").ok());          // overlong NUL
  EXPECT_FALSE(ChooseOffchainMessageFormat("\xe0\x80\xaf").ok());      // overlong '/'
  EXPECT_FALSE(ChooseOffchainMessageFormat("\xed\xa0\x80").ok());      // surrogate
  EXPECT_FALSE(ChooseOffchainMessageFormat("\xf4\x90\x80\x80").ok());  // above U+10FFFF
  EXPECT_FALSE(ChooseOffchainMessageFormat("\xf0\x9f\x98").ok());      // truncated
  EXPECT_FALSE(ChooseOffchainMessageFormat("\x80").ok());              // lone continuation
  EXPECT_FALSE(ChooseOffchainMessageFormat("\xff").ok());
}

TEST(OffchainMessageTest, SignsTheEnvelopeNotTheBareMessage) {
  Result<Ed25519Keypair> signer = Ed25519Keypair::Generate();
  ASSERT_TRUE(signer.ok());
  Result<Bytes64> signature = SignOffchainMessage(*signer, "Test Message");
  ASSERT_TRUE(signature.ok());
  EXPECT_TRUE(VerifyOffchainMessage(signer->public_key(), "Test Message", *signature));
  EXPECT_TRUE(
      Ed25519Verify(signer->public_key(), *SerializeOffchainMessage("Test Message"), *signature));
  EXPECT_FALSE(Ed25519Verify(signer->public_key(), AsBytes("Test Message"), *signature));
  EXPECT_FALSE(VerifyOffchainMessage(signer->public_key(), "Test message", *signature));
  EXPECT_FALSE(SignOffchainMessage(*signer, "").ok());
}

}  // namespace
}  // namespace netgraph::crypto
