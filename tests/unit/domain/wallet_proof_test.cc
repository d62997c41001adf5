// The wallet challenge's text and the signature forms verifyWallet accepts
// (core/domain/wallet_proof.h).
#include "core/domain/wallet_proof.h"

#include <gtest/gtest.h>

#include "core/crypto/base58.h"
#include "core/crypto/base64.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/offchain_message.h"

namespace netgraph::domain {
namespace {

constexpr const char* kWallet = "HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp";

TEST(WalletChallengeText, NamesTheWalletTheUsersHashTheNonceAndTheExpiry) {
  const std::string text = WalletChallengeText(kWallet, "did:example:alice", "3xAmPLeNonce",
                                               FromEpochMicros(1'795'000'000'123'456));
  // SHA-256("did:example:alice"), so the signed text does not carry the DID itself.
  EXPECT_EQ(text,
            "netgraph wallet proof\n"
            "Sign this message to prove that you control this wallet. It costs nothing.\n"
            "Wallet: HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp\n"
            "User: 6742201863cf8f216b0144c823f892132f0793b104b1883473befac73da0c16f\n"
            "Nonce: 3xAmPLeNonce\n"
            "Expires: 2026-11-18T11:06:40.123Z");
  EXPECT_EQ(text.find("did:example:alice"), std::string::npos);
}

TEST(WalletChallengeText, DiffersPerUserAndFitsTheLimitedUtf8OffchainFormat) {
  const Timestamp expires = FromEpochMicros(0);
  EXPECT_NE(WalletChallengeText(kWallet, "did:a", "n", expires),
            WalletChallengeText(kWallet, "did:b", "n", expires));
  Result<crypto::OffchainMessageFormat> format =
      crypto::ChooseOffchainMessageFormat(WalletChallengeText(kWallet, "did:a", "n", expires));
  ASSERT_TRUE(format.ok());
  EXPECT_EQ(*format, crypto::OffchainMessageFormat::kLimitedUtf8);
}

TEST(ParseWalletSignature, AcceptsBase58AndBase64OfSixtyFourBytes) {
  crypto::Bytes64 signature{};
  for (std::size_t i = 0; i < signature.size(); ++i) {
    signature[i] = static_cast<std::uint8_t>(i * 7);
  }
  EXPECT_EQ(ParseWalletSignature(crypto::SignatureToBase58(signature)), signature);
  EXPECT_EQ(ParseWalletSignature(crypto::Base64Encode(signature)), signature);
}

TEST(ParseWalletSignature, RefusesAnythingElse) {
  const std::vector<std::uint8_t> short_signature(63, 1);
  for (const std::string& text :
       {std::string(), std::string("not a signature"), crypto::Base64Encode(short_signature),
        crypto::Base58Encode(short_signature), std::string(200, 'A')}) {
    EXPECT_FALSE(ParseWalletSignature(text).has_value()) << text;
  }
}

}  // namespace
}  // namespace netgraph::domain
