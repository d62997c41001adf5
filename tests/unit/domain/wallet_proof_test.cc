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

constexpr const char* kOrigin = "https://netgraph.example";

TEST(WalletChallengeText, NamesTheOriginFirstThenTheWalletTheUsersHashTheNonceAndTheExpiry) {
  const std::string text =
      WalletChallengeText(kOrigin, kWallet, "did:example:alice", "3xAmPLeNonce",
                          FromEpochMicros(1'795'000'000'123'456));
  // SHA-256("did:example:alice"), so the signed text does not carry the DID itself.
  EXPECT_EQ(text,
            "https://netgraph.example wants you to prove that you control this wallet.\n"
            "Sign only if you are on https://netgraph.example. Signing costs nothing.\n"
            "Wallet: HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp\n"
            "User: 6742201863cf8f216b0144c823f892132f0793b104b1883473befac73da0c16f\n"
            "Nonce: 3xAmPLeNonce\n"
            "Expires: 2026-11-18T11:06:40.123Z");
  EXPECT_TRUE(text.starts_with(std::string(kOrigin) + " "));
  EXPECT_EQ(text.find("did:example:alice"), std::string::npos);
}

TEST(WalletChallengeText, DiffersPerUserAndFitsTheLimitedUtf8OffchainFormat) {
  const Timestamp expires = FromEpochMicros(0);
  EXPECT_NE(WalletChallengeText(kOrigin, kWallet, "did:a", "n", expires),
            WalletChallengeText(kOrigin, kWallet, "did:b", "n", expires));
  // The longest origin the setting takes still fits what hardware wallets display.
  const std::string longest = "https://" + std::string(kMaxPublicOriginBytes - 8, 'a');
  for (const std::string& origin : {std::string(kOrigin), longest}) {
    Result<crypto::OffchainMessageFormat> format = crypto::ChooseOffchainMessageFormat(
        WalletChallengeText(origin, kWallet, "did:a", std::string(22, 'n'), expires));
    ASSERT_TRUE(format.ok());
    EXPECT_EQ(*format, crypto::OffchainMessageFormat::kLimitedUtf8) << origin;
  }
}

// The signature a phishing page obtains for its own origin's text does not verify this one's; a
// challenge of another origin is not one of this origin's, even one whose origin starts alike.
TEST(WalletChallengeText, AnotherOriginsChallengeIsNotThisOnes) {
  const Timestamp expires = FromEpochMicros(0);
  const std::string ours = WalletChallengeText(kOrigin, kWallet, "did:a", "n", expires);
  const std::string theirs =
      WalletChallengeText("https://netgraph.example.evil.test", kWallet, "did:a", "n", expires);
  EXPECT_TRUE(IsWalletChallengeOf(ours, kOrigin));
  EXPECT_FALSE(IsWalletChallengeOf(theirs, kOrigin));
  EXPECT_FALSE(IsWalletChallengeOf(ours, "https://netgraph.example.evil.test"));
  EXPECT_FALSE(IsWalletChallengeOf(ours, ""));
  Result<crypto::Ed25519Keypair> wallet = crypto::Ed25519Keypair::Generate();
  ASSERT_TRUE(wallet.ok());
  Result<crypto::Bytes64> signature = crypto::SignOffchainMessage(*wallet, theirs);
  ASSERT_TRUE(signature.ok());
  EXPECT_TRUE(crypto::VerifyOffchainMessage(wallet->public_key(), theirs, *signature));
  EXPECT_FALSE(crypto::VerifyOffchainMessage(wallet->public_key(), ours, *signature));
}

TEST(WalletProofPolicy, ReadsThePublicOriginAndRefusesWhatIsNotOne) {
  auto read = [](std::optional<std::string> value) {
    config::Environment env([value](const std::string& name) -> std::optional<std::string> {
      return name == kPublicOriginVariable ? value : std::nullopt;
    });
    WalletProofPolicy policy = WalletProofPolicy::FromEnvironment(env);
    return std::make_pair(policy.public_origin, env.problems());
  };
  EXPECT_EQ(read(std::nullopt).first, "");
  EXPECT_TRUE(read(std::nullopt).second.empty());
  EXPECT_EQ(read("HTTPS://NetGraph.Example:8443").first, "https://netgraph.example:8443");
  EXPECT_EQ(read("https://netgraph.example/").first, "https://netgraph.example");
  for (const char* bad : {"netgraph.example", "https://netgraph.example//", "https://a/path",
                          "ftp://netgraph.example", "https://netgraph.example\nSign"}) {
    auto [origin, problems] = read(bad);
    EXPECT_EQ(origin, "") << bad;
    ASSERT_EQ(problems.size(), 1u) << bad;
    EXPECT_NE(problems[0].find("NETGRAPH_PUBLIC_ORIGIN"), std::string::npos);
  }
  EXPECT_EQ(read("https://" + std::string(kMaxPublicOriginBytes, 'a')).second.size(), 1u);
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
