#include "core/domain/failure.h"

namespace netgraph::domain {

std::string_view FailureText(Failure failure) {
  switch (failure) {
    case Failure::kAuthenticationRequired:
      return "Authentication required";
    case Failure::kInvalidVoucherCode:
      return "Invalid voucher code";
    case Failure::kVoucherNotFound:
      return "Voucher not found";
    case Failure::kVoucherAlreadyClaimed:
      return "Voucher already claimed";
    case Failure::kVoucherExpired:
      return "Voucher expired";
    case Failure::kVoucherRevoked:
      return "Voucher revoked";
    case Failure::kInvalidWalletAddress:
      return "Invalid wallet address";
    case Failure::kWalletBelongsToAnotherUser:
    case Failure::kWalletProvenByAnotherUser:
      return "Wallet belongs to another user";
    case Failure::kInvalidConfidentialPublicKey:
      return "Invalid confidential public key";
    case Failure::kNoClaimedVouchers:
      return "No claimed vouchers for this wallet";
    case Failure::kConfidentialKeyMismatch:
      return "Confidential public key does not match the token account";
    case Failure::kBalanceLimitExceeded:
      return "Balance limit exceeded";
    case Failure::kTooManyAttempts:
    case Failure::kTooManyWalletChallenges:
      return "Too many attempts";
    case Failure::kNoWalletChallenge:
      return "No wallet challenge";
    case Failure::kWalletChallengeExpired:
      return "Wallet challenge expired";
    case Failure::kWalletChallengeUsed:
      return "Wallet challenge already used";
    case Failure::kInvalidWalletSignature:
      return "Invalid wallet signature";
  }
  return "Unknown failure";
}

std::string_view FailureMessage(Failure failure) {
  switch (failure) {
    case Failure::kAuthenticationRequired:
      return "Sign in: this operation needs a valid bearer token.";
    case Failure::kInvalidVoucherCode:
      return "That is not a voucher code: codes have 20 letters and digits, e.g. "
             "ABCD-EFGH-JKMN-PQRS-TVWX.";
    case Failure::kVoucherNotFound:
      return "No voucher with this code is available to you.";
    case Failure::kVoucherAlreadyClaimed:
      return "You have already claimed this voucher to another wallet.";
    case Failure::kVoucherExpired:
      return "This voucher has expired.";
    case Failure::kVoucherRevoked:
      return "This voucher was revoked by the operator.";
    case Failure::kInvalidWalletAddress:
      return "The wallet address must be a base58 Solana address (32 bytes).";
    case Failure::kWalletBelongsToAnotherUser:
      return "This wallet is registered to another user. If you hold its key, prove it with "
             "walletChallenge and verifyWallet to take it over.";
    case Failure::kWalletProvenByAnotherUser:
      return "Another user proved possession of this wallet; only an operator can reassign it.";
    case Failure::kInvalidConfidentialPublicKey:
      return "The confidential public key must be a base64 ElGamal public key (32 bytes, a valid "
             "non-identity point).";
    case Failure::kNoClaimedVouchers:
      return "You have no claimed vouchers bound to this wallet.";
    case Failure::kConfidentialKeyMismatch:
      return "This wallet's token account is registered with a different confidential public "
             "key.";
    case Failure::kBalanceLimitExceeded:
      return "The confidential balance must stay below 2^32 base units; this redemption would "
             "pass that.";
    case Failure::kTooManyAttempts:
      return "Too many failed claim attempts; try again later.";
    case Failure::kTooManyWalletChallenges:
      return "Too many open wallet challenges; use them or let them expire first.";
    case Failure::kNoWalletChallenge:
      return "There is no challenge for you and this wallet: request one with walletChallenge.";
    case Failure::kWalletChallengeExpired:
      return "The wallet challenge has expired: request a new one with walletChallenge.";
    case Failure::kWalletChallengeUsed:
      return "This wallet challenge was already used: request a new one with walletChallenge.";
    case Failure::kInvalidWalletSignature:
      return "The signature must be base58 or base64 of 64 bytes: the wallet's Ed25519 "
             "signature of the challenge's off-chain message.";
  }
  return "The operation failed.";
}

}  // namespace netgraph::domain
