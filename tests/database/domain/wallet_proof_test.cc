// Proving a wallet: challenges and the origin they name (core/domain/wallet_proof.h).
#include "tests/database/domain/domain_store_test.h"

#include "core/crypto/offchain_message.h"
#include "core/domain/wallet_proof.h"

namespace netgraph::domain {
namespace {

// A phishing page elsewhere cannot have a challenge of this service issued in its name; and one
// issued under another origin (another deployment on the same database, or before the setting
// changed) does not prove a wallet here, signature or not.
TEST_F(DomainStoreTest, AWalletChallengeNamesTheOriginAndIsAcceptedOnlyUnderIt) {
  const User user = NewUser("did:test:origin");
  Result<crypto::Ed25519Keypair> key = crypto::Ed25519Keypair::Generate();
  ASSERT_TRUE(key.ok());
  const std::string wallet = crypto::Base58Encode(key->public_key());
  const WalletProofPolicy here{"https://netgraph.example"};
  const WalletProofPolicy elsewhere{"https://netgraph.example.evil.test"};

  Outcome<WalletChallenge> theirs = IssueWalletChallenge(*db_, elsewhere, user, wallet);
  ASSERT_TRUE(theirs.ok());
  EXPECT_TRUE(theirs->message.starts_with("https://netgraph.example.evil.test wants you"));
  Result<crypto::Bytes64> signed_theirs = crypto::SignOffchainMessage(*key, theirs->message);
  ASSERT_TRUE(signed_theirs.ok());
  Outcome<ProvenWallet> refused =
      VerifyWallet(*db_, here, user, wallet, crypto::SignatureToBase58(*signed_theirs));
  EXPECT_EQ(refused.failure(), Failure::kNoWalletChallenge);

  Outcome<WalletChallenge> ours = IssueWalletChallenge(*db_, here, user, wallet);
  ASSERT_TRUE(ours.ok());
  EXPECT_TRUE(ours->message.starts_with("https://netgraph.example wants you"));
  EXPECT_EQ(
      VerifyWallet(*db_, here, user, wallet, crypto::SignatureToBase58(*signed_theirs)).failure(),
      Failure::kInvalidWalletSignature)
      << "a signature over the other origin's text";
  Result<crypto::Bytes64> signed_ours = crypto::SignOffchainMessage(*key, ours->message);
  Outcome<ProvenWallet> proven =
      VerifyWallet(*db_, here, user, wallet, crypto::SignatureToBase58(*signed_ours));
  ASSERT_TRUE(proven.ok());
  EXPECT_EQ(proven->wallet_address, wallet);

  Outcome<WalletChallenge> unset = IssueWalletChallenge(*db_, WalletProofPolicy{}, user, wallet);
  ASSERT_NE(unset.error(), nullptr);
  EXPECT_NE(unset.error()->message().find("NETGRAPH_PUBLIC_ORIGIN"), std::string::npos);
}

}  // namespace
}  // namespace netgraph::domain
