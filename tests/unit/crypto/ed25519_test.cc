#include "core/crypto/ed25519.h"

#include <gtest/gtest.h>
#include <sodium.h>

#include <vector>

#include "core/crypto/hex.h"
#include "test_bytes.h"

namespace netgraph::crypto {
namespace {

struct Rfc8032Vector {
  std::string_view secret, public_key, message, signature;
};

// RFC 8032 section 7.1, tests 1 and 2.
constexpr Rfc8032Vector kVectors[] = {
    {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9"
     "b46bd25bf5f0595bbe24655141438e7a100b"},
    {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f1"
     "1d8c387b2eaeb4302aeeb00d291612bb0c00"},
};

std::vector<std::uint8_t> MessageBytes(std::string_view hex) {
  std::vector<std::uint8_t> bytes(hex.size() / 2);
  EXPECT_TRUE(HexDecodeExact(hex, bytes).ok());
  return bytes;
}

TEST(Ed25519Test, MatchesRfc8032) {
  for (const Rfc8032Vector& vector : kVectors) {
    Result<Ed25519Keypair> keypair = Ed25519Keypair::FromSeed(FromHex<32>(vector.secret));
    ASSERT_TRUE(keypair.ok()) << keypair.status().message();
    EXPECT_EQ(HexEncode(keypair->public_key()), vector.public_key);
    EXPECT_EQ(HexEncode(keypair->Seed()), vector.secret);
    std::vector<std::uint8_t> message = MessageBytes(vector.message);
    Result<Bytes64> signature = keypair->Sign(message);
    ASSERT_TRUE(signature.ok()) << signature.status().message();
    EXPECT_EQ(HexEncode(*signature), vector.signature);
    EXPECT_TRUE(Ed25519Verify(keypair->public_key(), message, *signature));
  }
}

TEST(Ed25519Test, SignaturesVerifyWithLibsodiumToo) {
  Result<Ed25519Keypair> keypair = Ed25519Keypair::Generate();
  ASSERT_TRUE(keypair.ok());
  std::string_view message = "netgraph";
  Result<Bytes64> signature = keypair->Sign(AsBytes(message));
  ASSERT_TRUE(signature.ok());
  ASSERT_GE(sodium_init(), 0);
  EXPECT_EQ(crypto_sign_verify_detached(signature->data(), AsBytes(message).data(), message.size(),
                                        keypair->public_key().data()),
            0);
}

TEST(Ed25519Test, RejectsTamperedMessagesSignaturesAndKeys) {
  Result<Ed25519Keypair> keypair = Ed25519Keypair::Generate();
  ASSERT_TRUE(keypair.ok());
  std::string message = "pay 100 to alice";
  Bytes64 signature = *keypair->Sign(AsBytes(message));
  EXPECT_TRUE(Ed25519Verify(keypair->public_key(), AsBytes(message), signature));

  std::string tampered = message;
  tampered[4] = '9';
  EXPECT_FALSE(Ed25519Verify(keypair->public_key(), AsBytes(tampered), signature));
  Bytes64 bad_signature = signature;
  bad_signature[10] ^= 1;
  EXPECT_FALSE(Ed25519Verify(keypair->public_key(), AsBytes(message), bad_signature));
  Result<Ed25519Keypair> other = Ed25519Keypair::Generate();
  EXPECT_FALSE(Ed25519Verify(other->public_key(), AsBytes(message), signature));
  Bytes32 not_a_key;
  not_a_key.fill(0xff);
  EXPECT_FALSE(Ed25519Verify(not_a_key, AsBytes(message), signature));
}

TEST(Ed25519Test, GeneratedKeysDiffer) {
  Result<Ed25519Keypair> a = Ed25519Keypair::Generate();
  Result<Ed25519Keypair> b = Ed25519Keypair::Generate();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_NE(a->public_key(), b->public_key());
}

TEST(Ed25519Test, SignaturesAreBase58OfSixtyFourBytes) {
  Bytes64 signature = FromHex<64>(kVectors[0].signature);
  std::string text = SignatureToBase58(signature);
  EXPECT_LE(text.size(), 88u);
  Result<Bytes64> parsed = ParseBase58Signature(text);
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(*parsed, signature);
  EXPECT_EQ(SignatureToBase58(Bytes64{}), std::string(64, '1'));
  EXPECT_FALSE(ParseBase58Signature("4WCfDRZGuArEsp3BRU3H7mLu14r8gdna63E2A7SSuLne").ok());
  EXPECT_FALSE(ParseBase58Signature(std::string(89, '2')).ok());
  EXPECT_FALSE(ParseBase58Signature(text + "0").ok());
}

}  // namespace
}  // namespace netgraph::crypto
