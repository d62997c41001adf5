#include "core/domain/voucher.h"

#include "core/domain/graph_change.h"
#include "core/domain/internal/amount.h"
#include "core/domain/internal/graph_ids.h"
#include "core/domain/internal/voucher_code.h"
#include "core/domain/internal/wallet_address.h"
#include "core/store/ledger.h"
#include "core/store/wallets.h"

namespace netgraph::domain {
namespace {

std::optional<Timestamp> Instant(const std::optional<std::int64_t>& micros) {
  if (!micros) return std::nullopt;
  return FromEpochMicros(*micros);
}

// Why the claim of an existing, unclaimable voucher fails, as `user` may learn it.
Failure WhyUnclaimable(const store::VoucherRow& voucher, const User& user) {
  if (voucher.user_id && *voucher.user_id != user.id) return Failure::kVoucherNotFound;
  if (voucher.state == VoucherState::kExpired) return Failure::kVoucherExpired;
  if (voucher.state == VoucherState::kRevoked) return Failure::kVoucherRevoked;
  if (voucher.user_id) return Failure::kVoucherAlreadyClaimed;
  return Failure::kVoucherNotFound;  // AVAILABLE a moment ago, gone at the claim: not yours
}

// The claim's outcome as the API tells it. kGraphToWrite is the caller's to handle.
Outcome<Voucher> OutcomeOf(const store::ClaimResult& result, const User& user) {
  switch (result.outcome) {
    case store::ClaimOutcome::kTooManyAttempts:
      return Failure::kTooManyAttempts;
    case store::ClaimOutcome::kInvalidVoucherCode:
      return Failure::kInvalidVoucherCode;
    case store::ClaimOutcome::kInvalidWalletAddress:
      return Failure::kInvalidWalletAddress;
    case store::ClaimOutcome::kWalletProvenByAnotherUser:
      return Failure::kWalletProvenByAnotherUser;
    case store::ClaimOutcome::kWalletBelongsToAnotherUser:
      return Failure::kWalletBelongsToAnotherUser;
    case store::ClaimOutcome::kUnclaimable:
      return result.voucher ? WhyUnclaimable(*result.voucher, user) : Failure::kVoucherNotFound;
    case store::ClaimOutcome::kClaimed:
    case store::ClaimOutcome::kClaimedBefore:
      return VoucherFromRow(*result.voucher, result.decimals);
    case store::ClaimOutcome::kGraphToWrite:
      break;
  }
  return Status::Internal("voucher: a claim's graph change was left unwritten");
}

// The graph's change a claim makes: the investor owns the wallet, which invested in the round.
// The wallet keeps its Confidential label while it holds a confidential balance.
// migrations/0013_confidential_wallet_label.sql checks the same nodes and links.
GraphChange ClaimGraphChange(const User& user, const store::ClaimResult& claimed,
                             bool wallet_confidential) {
  GraphChange change;
  change.AddNode(InvestorNode(user.public_id));
  change.AddNode(WalletNode(claimed.wallet_public_id, wallet_confidential));
  change.AddNode(RoundNode(claimed.round));
  change.AddLink(GraphLink{user.public_id, claimed.wallet_public_id, kOwnsLink});
  change.AddLink(
      GraphLink{claimed.wallet_public_id, RoundNodeId(claimed.round.id), kInvestedInLink});
  return change;
}

}  // namespace

Voucher VoucherFromRow(const store::VoucherRow& row, int decimals) {
  Voucher v;
  v.id = row.id;
  v.code = FormatVoucherCode(row.code);
  v.amount = ToTokenUnits(row.amount, decimals);
  v.status = row.state;
  v.wallet_address = row.wallet_address;
  v.claimed_at = Instant(row.claimed_at);
  v.redeemed_at = Instant(row.redeemed_at);
  v.expires_at = Instant(row.expires_at);
  return v;
}

ClaimPolicy ClaimPolicy::FromEnvironment(config::Environment& env) {
  ClaimPolicy policy;
  policy.max_failures = env.Int("NETGRAPH_CLAIM_MAX_FAILURES", policy.max_failures, 1, 1000000);
  policy.window_seconds =
      env.Int("NETGRAPH_CLAIM_FAILURE_WINDOW_SECONDS", policy.window_seconds, 1, 86400);
  return policy;
}

Outcome<Voucher> ClaimVoucher(store::Connection& db, const ClaimPolicy& policy, const User& user,
                              std::string_view code, std::string_view wallet_address) {
  store::ClaimRequest request;
  request.user_id = user.id;
  request.user_public_id = user.public_id;
  request.code = NormalizeVoucherCode(code);
  if (IsValidWalletAddress(wallet_address)) request.wallet = std::string(wallet_address);
  request.window_seconds = policy.window_seconds;
  request.max_failures = policy.max_failures;
  // The whole claim in one round trip (migration 0010), unless the graph must change as well: the
  // first claim to a wallet, its first in a round, or one after someone else changed those nodes.
  NETGRAPH_ASSIGN_OR_RETURN(store::ClaimResult result,
                            store::ClaimVoucherInOneStatement(db, request));
  if (result.outcome != store::ClaimOutcome::kGraphToWrite) return OutcomeOf(result, user);

  // Then the same claim in a transaction that writes the graph's change and announces it.
  request.graph_by_caller = true;
  Status committed = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    NETGRAPH_ASSIGN_OR_RETURN(result, store::ClaimVoucherInOneStatement(db, request));
    if (result.outcome != store::ClaimOutcome::kClaimed) return Status::Ok();
    // A redemption of the wallet in flight may be saving the wallet's first account: wait for it,
    // and keep the next one out, before reading the account.
    NETGRAPH_RETURN_IF_ERROR(store::FindWallet(db, *request.wallet, store::RowLock::kForShare));
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::TokenAccountRow> account,
                              store::FindTokenAccount(db, *request.wallet));
    return ClaimGraphChange(user, result, account.has_value()).Write(db).status();
  });
  if (!committed.ok()) return committed;
  return OutcomeOf(result, user);
}

}  // namespace netgraph::domain
