#include "core/domain/redemption.h"

#include <optional>

#include "core/domain/graph_change.h"
#include "core/domain/internal/amount.h"
#include "core/domain/internal/graph_ids.h"
#include "core/domain/internal/wallet_address.h"
#include "core/store/ledger.h"
#include "core/store/token.h"
#include "core/store/vouchers.h"
#include "core/store/wallets.h"

namespace netgraph::domain {
namespace {

// The redemption inside the caller's transaction; on a refusal the caller rolls back.
Outcome<Redemption> AttemptRedemption(store::Connection& db, const ConfidentialLedger& ledger,
                                      const User& user, std::string_view wallet_address,
                                      std::string_view key) {
  // Locking the wallet serialises redemptions of it: the balance and receipt chain read below
  // stay current until commit.
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::WalletRow> wallet,
                            store::FindWallet(db, wallet_address, store::RowLock::kForUpdate));
  if (!wallet.has_value()) return Failure::kNoClaimedVouchers;
  if (wallet->user_id != user.id) return Failure::kWalletBelongsToAnotherUser;

  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::TokenAccountRow> account,
                            store::FindTokenAccount(db, wallet_address));
  if (account.has_value() && account->confidential_public_key != key) {
    return Failure::kConfidentialKeyMismatch;
  }

  Result<std::int64_t> redemption_id = store::NextRedemptionId(db);
  NETGRAPH_RETURN_IF_ERROR(redemption_id);
  NETGRAPH_ASSIGN_OR_RETURN(
      std::vector<store::VoucherRow> taken,
      store::RedeemClaimedVouchers(db, user.id, wallet_address, *redemption_id));
  if (taken.empty()) return Failure::kNoClaimedVouchers;
  std::int64_t amount = 0;
  for (const store::VoucherRow& voucher : taken) amount += voucher.amount;
  const std::int64_t previous_balance = account.has_value() ? account->balance : 0;
  if (previous_balance + amount >= kBalanceLimit) return Failure::kBalanceLimitExceeded;

  NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
  NETGRAPH_ASSIGN_OR_RETURN(std::int64_t now, store::TransactionTime(db));
  CreditRequest request;
  request.redemption_id = *redemption_id;
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

  store::RedemptionRow row{*redemption_id,          user.id,
                           request.wallet_address,  amount,
                           credit.token_account,    request.confidential_public_key,
                           credit.encrypted_amount, credit.encrypted_balance,
                           credit.receipt,          credit.receipt_hash,
                           credit.signature};
  NETGRAPH_RETURN_IF_ERROR(store::InsertRedemption(db, row));
  if (Status s = store::SaveTokenAccount(
          db, store::TokenAccountRow{request.wallet_address, credit.token_account,
                                     request.confidential_public_key, credit.encrypted_balance,
                                     previous_balance + amount, credit.receipt_hash});
      !s.ok()) {
    return s;
  }

  GraphChange change;
  change.AddNode(WalletNode(wallet->public_id, /*confidential=*/true));
  change.AddNode(TokenNode(token));
  change.AddLink(GraphLink{wallet->public_id, kTokenNodeId, kHoldsLink});
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
