// Redeeming: crediting all of a user's claimed vouchers on a wallet to the wallet's confidential
// token account, in one transaction.
#ifndef NETGRAPH_CORE_DOMAIN_REDEMPTION_H_
#define NETGRAPH_CORE_DOMAIN_REDEMPTION_H_

#include <string>
#include <string_view>

#include "core/domain/confidential_ledger.h"
#include "core/domain/date_time.h"
#include "core/domain/failure.h"
#include "core/domain/user.h"
#include "core/store/connection.h"

namespace netgraph::domain {

struct Redemption {
  double amount = 0;         // token units
  std::string tx_signature;  // the treasury's receipt signature, base58
  std::string wallet_address;
  std::string token_account;
  std::string encrypted_amount;
  Timestamp redeemed_at;
};

// Redeems every CLAIMED, unexpired voucher of `user` bound to `wallet_address`: marks them
// REDEEMED, adds their sum to the account's plaintext and encrypted balances, stores the signed
// receipt, and announces the wallet's new Confidential label, in one transaction; two concurrent
// redemptions of a wallet take each voucher once (the wallet row is locked and the vouchers are
// taken by a conditional UPDATE). The first redemption registers `confidential_public_key` on the
// account. Refusals, in order: kInvalidWalletAddress, kInvalidConfidentialPublicKey,
// kWalletBelongsToAnotherUser, kConfidentialKeyMismatch, kNoClaimedVouchers,
// kBalanceLimitExceeded; a refusal writes nothing. `ledger` null (not configured) is an internal
// error.
Outcome<Redemption> RedeemVouchers(store::Connection& db, const ConfidentialLedger* ledger,
                                   const User& user, std::string_view wallet_address,
                                   std::string_view confidential_public_key);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_REDEMPTION_H_
