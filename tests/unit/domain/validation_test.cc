// Input validation and the stable refusal texts (docs/api.md, "Conventions").
#include <gtest/gtest.h>

#include "core/domain/failure.h"
#include "core/domain/internal/wallet_address.h"
#include "core/domain/network_graph.h"
#include "core/domain/voucher_admin.h"

namespace netgraph::domain {
namespace {

TEST(WalletAddress, AcceptsBase58ThatDecodesToThirtyTwoBytes) {
  EXPECT_TRUE(IsValidWalletAddress("HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp"));
  EXPECT_TRUE(IsValidWalletAddress("11111111111111111111111111111111"));  // 32 zero bytes
  EXPECT_TRUE(IsValidWalletAddress("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb"));
}

TEST(WalletAddress, RefusesAnythingElse) {
  for (const char* text : {
           "",
           "not a wallet",
           "HpYod2BktndMTZPWPm3rFhCRVpoBK8LZ",               // 24 bytes
           "HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqpp",  // 33 bytes, 45 characters
           "0pYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp",   // 0 is not base58
           "HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqI",   // nor is I
           "1111111111111111111111111111111",                // 31 zero bytes
           " HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp",
           "0x5a3f",
       }) {
    EXPECT_FALSE(IsValidWalletAddress(text)) << text;
  }
}

TEST(Limits, GraphLimitIsOneToOneThousand) {
  EXPECT_FALSE(IsValidGraphLimit(0));
  EXPECT_TRUE(IsValidGraphLimit(1));
  EXPECT_TRUE(IsValidGraphLimit(kDefaultGraphLimit));
  EXPECT_TRUE(IsValidGraphLimit(1000));
  EXPECT_FALSE(IsValidGraphLimit(1001));
  EXPECT_FALSE(IsValidGraphLimit(-5));
}

TEST(Limits, VoucherPageIsOneToOneThousand) {
  EXPECT_FALSE(IsValidVoucherPage(0));
  EXPECT_TRUE(IsValidVoucherPage(1));
  EXPECT_TRUE(IsValidVoucherPage(1000));
  EXPECT_FALSE(IsValidVoucherPage(1001));
}

TEST(VoucherIds, ParsesOnlyDecimalIds) {
  EXPECT_EQ(ParseVoucherId("42"), 42);
  EXPECT_EQ(ParseVoucherId("0"), 0);
  EXPECT_EQ(ParseVoucherId("999999999999999999"), 999999999999999999LL);
  for (const char* text : {"", "-1", "4a", "1e3", " 1", "9999999999999999999"}) {
    EXPECT_EQ(ParseVoucherId(text), std::nullopt) << text;
  }
}

TEST(VoucherStates, AreParsedFromTheNamesTheyAreWrittenAs) {
  for (VoucherState state :
       {VoucherState::kAvailable, VoucherState::kClaimed, VoucherState::kRedeemed,
        VoucherState::kExpired, VoucherState::kRevoked}) {
    EXPECT_EQ(ParseVoucherState(VoucherStateName(state)), state) << VoucherStateName(state);
  }
  EXPECT_EQ(VoucherStateName(VoucherState::kRevoked), "REVOKED");
  EXPECT_EQ(ParseVoucherState("revoked"), std::nullopt);
  EXPECT_EQ(ParseVoucherState("LOST"), std::nullopt);
  EXPECT_EQ(ParseVoucherState(""), std::nullopt);
}

TEST(Failures, StableTextsAreTheDesignsOwn) {
  const std::pair<Failure, const char*> expected[] = {
      {Failure::kAuthenticationRequired, "Authentication required"},
      {Failure::kInvalidVoucherCode, "Invalid voucher code"},
      {Failure::kVoucherNotFound, "Voucher not found"},
      {Failure::kVoucherAlreadyClaimed, "Voucher already claimed"},
      {Failure::kVoucherExpired, "Voucher expired"},
      {Failure::kVoucherRevoked, "Voucher revoked"},
      {Failure::kInvalidWalletAddress, "Invalid wallet address"},
      {Failure::kWalletBelongsToAnotherUser, "Wallet belongs to another user"},
      {Failure::kInvalidConfidentialPublicKey, "Invalid confidential public key"},
      {Failure::kNoClaimedVouchers, "No claimed vouchers for this wallet"},
      {Failure::kConfidentialKeyMismatch,
       "Confidential public key does not match the token account"},
      {Failure::kBalanceLimitExceeded, "Balance limit exceeded"},
      {Failure::kTooManyAttempts, "Too many attempts"},
      {Failure::kWalletProvenByAnotherUser, "Wallet belongs to another user"},
      {Failure::kTooManyWalletChallenges, "Too many attempts"},
      {Failure::kNoWalletChallenge, "No wallet challenge"},
      {Failure::kWalletChallengeExpired, "Wallet challenge expired"},
      {Failure::kWalletChallengeUsed, "Wallet challenge already used"},
      {Failure::kInvalidWalletSignature, "Invalid wallet signature"},
  };
  for (const auto& [failure, text] : expected) {
    EXPECT_EQ(FailureText(failure), text);
    EXPECT_FALSE(FailureMessage(failure).empty());
    EXPECT_NE(FailureMessage(failure), FailureText(failure));
  }
}

}  // namespace
}  // namespace netgraph::domain
