// Vouchers as the API shows them, and the voucher operations for their owners: claim and redeem.
//
// States: AVAILABLE --claim--> CLAIMED --redeem--> REDEEMED; AVAILABLE|CLAIMED --expiry--> EXPIRED;
// AVAILABLE|CLAIMED --operator--> REVOKED. Each transition is one conditional update (see
// core/store/vouchers.h), so exactly one of any number of concurrent claims of a code wins, and a
// voucher is redeemed at most once however many redemptions race.
#ifndef NETGRAPH_CORE_DOMAIN_VOUCHER_H_
#define NETGRAPH_CORE_DOMAIN_VOUCHER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/config/environment.h"
#include "core/domain/date_time.h"
#include "core/domain/failure.h"
#include "core/domain/user.h"
#include "core/store/connection.h"
#include "core/store/vouchers.h"

namespace netgraph::domain {

// The states, parsed once by the store from the database's text (core/store/vouchers.h).
using store::ParseVoucherState;
using store::VoucherState;
using store::VoucherStateName;

struct Voucher {
  std::int64_t id = 0;
  std::string code;   // display form, e.g. "7KQ2-M9XD-RT4B-PW0C-HN3F"
  double amount = 0;  // token units
  VoucherState status = VoucherState::kAvailable;
  std::optional<std::string> wallet_address;
  std::optional<Timestamp> claimed_at;
  std::optional<Timestamp> redeemed_at;
  std::optional<Timestamp> expires_at;

  bool redeemed() const { return status == VoucherState::kRedeemed; }
};

Voucher VoucherFromRow(const store::VoucherRow& row, int decimals);

// Failed claims a user may make per window before claims answer kTooManyAttempts.
struct ClaimPolicy {
  std::int64_t max_failures = 10;     // NETGRAPH_CLAIM_MAX_FAILURES, 1..1000000
  std::int64_t window_seconds = 600;  // NETGRAPH_CLAIM_FAILURE_WINDOW_SECONDS, 1..86400

  static ClaimPolicy FromEnvironment(config::Environment& env);
};

// Binds the voucher with `code` to `user` and `wallet_address`, registering the wallet to the user
// when it is new, and announces the graph change, all in one transaction. Claiming again with the
// same code and wallet returns the same voucher. Refusals, in the order they are checked:
// kTooManyAttempts, kInvalidVoucherCode, kInvalidWalletAddress, kWalletProvenByAnotherUser or
// kWalletBelongsToAnotherUser (the wallet's owner proved possession or not), then
// for a code that cannot be claimed: kVoucherAlreadyClaimed (the caller's voucher, other wallet),
// kVoucherNotFound (absent, or someone else's), kVoucherExpired, kVoucherRevoked. Every refusal
// counts against the rate limit and writes nothing else.
Outcome<Voucher> ClaimVoucher(store::Connection& db, const ClaimPolicy& policy, const User& user,
                              std::string_view code, std::string_view wallet_address);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_VOUCHER_H_
