#include "core/domain/voucher.h"

#include "core/domain/graph_change.h"
#include "core/domain/internal/amount.h"
#include "core/domain/internal/graph_ids.h"
#include "core/domain/internal/voucher_code.h"
#include "core/domain/internal/wallet_address.h"
#include "core/store/token.h"
#include "core/store/users.h"
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

// The claim itself, inside the caller's transaction. Refusals leave rows written here for the
// caller to roll back.
Outcome<Voucher> AttemptClaim(store::Connection& db, const User& user, std::string_view code_text,
                              std::string_view wallet_address) {
  const std::optional<std::string> code = NormalizeVoucherCode(code_text);
  if (!code) return Failure::kInvalidVoucherCode;
  if (!IsValidWalletAddress(wallet_address)) return Failure::kInvalidWalletAddress;

  NETGRAPH_ASSIGN_OR_RETURN(store::WalletRow wallet,
                            store::RegisterWallet(db, wallet_address, user.id));
  if (wallet.user_id != user.id) {
    return wallet.proven ? Failure::kWalletProvenByAnotherUser
                         : Failure::kWalletBelongsToAnotherUser;
  }

  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::ClaimedVoucher> claimed,
                            store::ClaimAvailableVoucher(db, *code, user.id, wallet_address));
  if (!claimed.has_value()) {
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::VoucherRow> found,
                              store::FindVoucherByCode(db, *code));
    if (!found.has_value()) return Failure::kVoucherNotFound;
    const store::VoucherRow& voucher = *found;
    const bool same_claim =
        voucher.user_id == user.id && voucher.wallet_address == wallet_address &&
        (voucher.state == VoucherState::kClaimed || voucher.state == VoucherState::kRedeemed);
    if (!same_claim) return WhyUnclaimable(voucher, user);
    NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
    return VoucherFromRow(voucher, token.decimals);
  }

  const store::RoundRow& round = claimed->round;
  GraphChange change;
  change.AddNode(InvestorNode(user.public_id));
  change.AddNode(WalletNode(wallet.public_id, /*confidential=*/false));
  change.AddNode(RoundNode(round));
  change.AddLink(GraphLink{user.public_id, wallet.public_id, kOwnsLink});
  change.AddLink(GraphLink{wallet.public_id, RoundNodeId(round.id), kInvestedInLink});
  NETGRAPH_RETURN_IF_ERROR(change.Write(db));
  return VoucherFromRow(claimed->voucher, claimed->decimals);
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
  std::optional<Outcome<Voucher>> outcome;
  Status committed = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    outcome.reset();
    // One claim per user at a time, so the rate limit counts exactly.
    NETGRAPH_ASSIGN_OR_RETURN(std::int64_t failures,
                              store::LockClaimant(db, user.id, policy.window_seconds));
    if (failures >= policy.max_failures) {
      outcome = Failure::kTooManyAttempts;
      return Status::Ok();
    }
    // A refused claim undoes what it wrote (a wallet it registered) but still counts as a failure.
    NETGRAPH_RETURN_IF_ERROR(db.InSavepoint([&]() -> Result<store::Connection::SavepointEnd> {
      outcome = AttemptClaim(db, user, code, wallet_address);
      return SavepointEndFor(*outcome);
    }));
    if (outcome->failure()) return store::RecordClaimFailure(db, user.id, policy.window_seconds);
    return Status::Ok();
  });
  if (!committed.ok()) return committed;
  return std::move(*outcome);
}

}  // namespace netgraph::domain
