#include "core/domain/redemption.h"

#include <optional>

#include "core/domain/graph_change.h"
#include "core/domain/internal/amount.h"
#include "core/domain/internal/graph_ids.h"
#include "core/domain/internal/wallet_address.h"
#include "core/store/ledger.h"

namespace netgraph::domain {
namespace {

// The redemption inside the caller's transaction; on a refusal the caller rolls back.
Outcome<Redemption> AttemptRedemption(store::Connection& db, const ConfidentialLedger& ledger,
                                      const User& user, std::string_view wallet_address,
                                      std::string_view key) {
  NETGRAPH_ASSIGN_OR_RETURN(store::RedemptionStart start,
                            store::StartRedemption(db, user.id, wallet_address, key));
  if (!start.wallet.has_value()) return Failure::kNoClaimedVouchers;
  if (start.wallet->user_id != user.id) return Failure::kWalletBelongsToAnotherUser;
  const std::optional<store::TokenAccountRow>& account = start.account;
  if (account.has_value() && account->confidential_public_key != key) {
    return Failure::kConfidentialKeyMismatch;
  }
  if (start.vouchers == 0) return Failure::kNoClaimedVouchers;
  const std::int64_t amount = start.amount;
  const std::int64_t previous_balance = account.has_value() ? account->balance : 0;
  if (previous_balance + amount >= kBalanceLimit) return Failure::kBalanceLimitExceeded;

  const store::TokenRow& token = start.token;
  const std::int64_t now = start.time_us;
  CreditRequest request;
  request.redemption_id = start.redemption_id;
  request.wallet_address = std::string(wallet_address);
  request.confidential_public_key = std::string(key);
  request.amount = static_cast<std::uint64_t>(amount);
  request.decimals = token.decimals;
  request.time = FormatDateTime(FromEpochMicros(now));
  if (account.has_value()) {
    request.encrypted_balance = account->encrypted_balance;
    request.previous_receipt_hash = account->last_receipt_hash;
  }
  NETGRAPH_ASSIGN_OR_RETURN(Credit credit, ledger.CreditAccount(request));

  store::RedemptionRow row{start.redemption_id,     user.id,
                           request.wallet_address,  amount,
                           credit.token_account,    request.confidential_public_key,
                           credit.encrypted_amount, credit.encrypted_balance,
                           credit.receipt,          credit.receipt_hash,
                           credit.signature};
  NETGRAPH_RETURN_IF_ERROR(store::InsertRedemption(db, row, previous_balance + amount));

  GraphChange change;
  change.AddNode(WalletNode(start.wallet->public_id, /*confidential=*/true));
  change.AddNode(TokenNode(token));
  change.AddLink(GraphLink{start.wallet->public_id, kTokenNodeId, kHoldsLink});
  NETGRAPH_RETURN_IF_ERROR(change.Write(db));
  return Redemption{ToTokenUnits(amount, token.decimals),
                    credit.signature,
                    request.wallet_address,
                    credit.token_account,
                    credit.encrypted_amount,
                    FromEpochMicros(now)};
}

}  // namespace

Outcome<Redemption> RedeemVouchers(store::Connection& db, const ConfidentialLedger* ledger,
                                   const User& user, std::string_view wallet_address,
                                   std::string_view confidential_public_key) {
  if (!IsValidWalletAddress(wallet_address)) return Failure::kInvalidWalletAddress;
  if (ledger == nullptr) {
    return Status::FailedPrecondition(
        "redemptions are not configured: set NETGRAPH_TREASURY_KEYPAIR_FILE and "
        "NETGRAPH_MINT_ADDRESS");
  }
  if (!ledger->IsValidPublicKey(confidential_public_key)) {
    return Failure::kInvalidConfidentialPublicKey;
  }
  // A refused redemption keeps nothing of its attempt.
  return InAttemptTransaction<Redemption>(db, store::Isolation::kReadCommitted, [&] {
    return AttemptRedemption(db, *ledger, user, wallet_address, confidential_public_key);
  });
}

}  // namespace netgraph::domain
