#include "core/store/ledger.h"

#include <string>

namespace netgraph::store {
namespace {

constexpr Statement kFindAccount{
    "token_accounts_find",
    "SELECT wallet_address, account_address, confidential_public_key, encrypted_balance, balance, "
    "last_receipt_hash FROM token_accounts WHERE wallet_address = $1"};
constexpr Statement kLatestOfUser{
    "token_accounts_latest_of_user",
    "SELECT a.wallet_address, a.account_address, a.confidential_public_key, a.encrypted_balance, "
    "a.balance, a.last_receipt_hash FROM token_accounts a "
    "JOIN wallets w ON w.address = a.wallet_address WHERE w.user_id = $1 "
    "ORDER BY a.updated_at DESC, a.wallet_address LIMIT 1"};
constexpr Statement kSaveAccount{
    "token_accounts_save",
    "INSERT INTO token_accounts (wallet_address, account_address, confidential_public_key, "
    "encrypted_balance, balance, last_receipt_hash) VALUES ($1, $2, $3, $4, $5, $6) "
    "ON CONFLICT (wallet_address) DO UPDATE SET account_address = EXCLUDED.account_address, "
    "confidential_public_key = EXCLUDED.confidential_public_key, "
    "encrypted_balance = EXCLUDED.encrypted_balance, balance = EXCLUDED.balance, "
    "last_receipt_hash = EXCLUDED.last_receipt_hash, updated_at = now()"};
constexpr Statement kNextRedemptionId{
    "redemptions_next_id", "SELECT nextval(pg_get_serial_sequence('redemptions', 'id'))"};
constexpr Statement kTransactionTime{"transaction_time", "SELECT epoch_us(now())"};
constexpr Statement kInsertRedemption{
    "redemptions_insert",
    "INSERT INTO redemptions (id, user_id, wallet_address, amount, token_account, "
    "confidential_public_key, encrypted_amount, encrypted_balance, receipt, receipt_hash, "
    "signature) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"};

Result<std::optional<TokenAccountRow>> AtMostOneAccount(Result<Rows> rows) {
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return std::optional<TokenAccountRow>();
  return std::optional<TokenAccountRow>(TokenAccountRow{
      std::string(rows->Text(0, 0)), std::string(rows->Text(0, 1)), std::string(rows->Text(0, 2)),
      std::string(rows->Text(0, 3)), rows->Int(0, 4), std::string(rows->Text(0, 5))});
}

Result<std::int64_t> OneInteger(Result<Rows> rows) {
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return Status::Error("the statement returned no row");
  return rows->Int(0, 0);
}

}  // namespace

Result<std::optional<TokenAccountRow>> FindTokenAccount(Connection& db,
                                                        std::string_view wallet_address) {
  return AtMostOneAccount(db.Run(kFindAccount, {std::string(wallet_address)}));
}

Result<std::optional<TokenAccountRow>> LatestTokenAccountOfUser(Connection& db,
                                                                std::int64_t user_id) {
  return AtMostOneAccount(db.Run(kLatestOfUser, {std::to_string(user_id)}));
}

Status SaveTokenAccount(Connection& db, const TokenAccountRow& a) {
  return db.Execute(kSaveAccount, {a.wallet_address, a.account_address, a.confidential_public_key,
                                   a.encrypted_balance, std::to_string(a.balance),
                                   a.last_receipt_hash});
}

Result<std::int64_t> NextRedemptionId(Connection& db) {
  return OneInteger(db.Run(kNextRedemptionId));
}

Result<std::int64_t> TransactionTime(Connection& db) {
  return OneInteger(db.Run(kTransactionTime));
}

Status InsertRedemption(Connection& db, const RedemptionRow& r) {
  return db.Execute(kInsertRedemption,
                    {std::to_string(r.id), std::to_string(r.user_id), r.wallet_address,
                     std::to_string(r.amount), r.token_account, r.confidential_public_key,
                     r.encrypted_amount, r.encrypted_balance, r.receipt, r.receipt_hash,
                     r.signature});
}

}  // namespace netgraph::store
