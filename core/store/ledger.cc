#include "core/store/ledger.h"

#include <string>
#include <utility>

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
constexpr Statement kDeleteAccount{
    "token_accounts_delete",
    "DELETE FROM token_accounts WHERE wallet_address = $1 RETURNING wallet_address, "
    "account_address, confidential_public_key, encrypted_balance, balance, last_receipt_hash"};
constexpr Statement kStartRedemption{
    "redemptions_start",
    "SELECT s.wallet_user_id, s.wallet_public_id, s.wallet_proven, (s.account).wallet_address, "
    "(s.account).account_address, (s.account).confidential_public_key, "
    "(s.account).encrypted_balance, (s.account).balance, (s.account).last_receipt_hash, "
    "s.token_name, s.token_symbol, s.token_decimals, s.time_us, s.new_redemption_id, "
    "s.taken_count, s.taken_amount FROM start_redemption($1, $2, $3) s"};
constexpr Statement kTransactionTime{"transaction_time", "SELECT epoch_us(now())"};
#define NETGRAPH_REDEMPTION_COLUMNS                                               \
  "id, user_id, wallet_address, amount, token_account, confidential_public_key, " \
  "encrypted_amount, encrypted_balance, receipt, receipt_hash, signature"
constexpr Statement kRedemptionById{
    "redemptions_by_id", "SELECT " NETGRAPH_REDEMPTION_COLUMNS " FROM redemptions WHERE id = $1"};
constexpr Statement kRedemptionBySignature{"redemptions_by_signature",
                                           "SELECT " NETGRAPH_REDEMPTION_COLUMNS
                                           " FROM redemptions WHERE signature = $1"};
#undef NETGRAPH_REDEMPTION_COLUMNS
constexpr Statement kInsertRedemption{
    "redemptions_insert_and_save_account",
    "WITH redemption AS (INSERT INTO redemptions (id, user_id, wallet_address, amount, "
    "token_account, confidential_public_key, encrypted_amount, encrypted_balance, receipt, "
    "receipt_hash, signature) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)) "
    "INSERT INTO token_accounts (wallet_address, account_address, confidential_public_key, "
    "encrypted_balance, balance, last_receipt_hash) VALUES ($3, $5, $6, $8, $12, $10) "
    "ON CONFLICT (wallet_address) DO UPDATE SET account_address = EXCLUDED.account_address, "
    "confidential_public_key = EXCLUDED.confidential_public_key, "
    "encrypted_balance = EXCLUDED.encrypted_balance, balance = EXCLUDED.balance, "
    "last_receipt_hash = EXCLUDED.last_receipt_hash, updated_at = now()"};

// The account in the first row of `rows`, whose columns (as kFindAccount's) start at `first`.
TokenAccountRow AccountFromColumns(const Rows& rows, int first = 0) {
  return TokenAccountRow{std::string(rows.Text(0, first)),
                         std::string(rows.Text(0, first + 1)),
                         std::string(rows.Text(0, first + 2)),
                         std::string(rows.Text(0, first + 3)),
                         rows.Int(0, first + 4),
                         std::string(rows.Text(0, first + 5))};
}

Result<std::optional<TokenAccountRow>> AtMostOneAccount(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  if (rows->empty()) return std::optional<TokenAccountRow>();
  return std::optional<TokenAccountRow>(AccountFromColumns(*rows));
}

Result<std::int64_t> OneInteger(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  if (rows->empty()) return Status::Internal("the statement returned no row");
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

Result<std::optional<TokenAccountRow>> DeleteTokenAccount(Connection& db,
                                                          std::string_view wallet_address) {
  return AtMostOneAccount(db.Run(kDeleteAccount, {std::string(wallet_address)}));
}

Result<RedemptionStart> StartRedemption(Connection& db, std::int64_t user_id,
                                        std::string_view wallet_address, std::string_view key) {
  NETGRAPH_ASSIGN_OR_RETURN(
      Rows rows, db.Run(kStartRedemption,
                        {std::to_string(user_id), std::string(wallet_address), std::string(key)}));
  if (rows.empty()) return Status::Internal("start_redemption returned no row");
  RedemptionStart start;
  if (!rows.IsNull(0, 0)) {
    start.wallet = WalletRow{std::string(wallet_address), rows.Int(0, 0),
                             std::string(rows.Text(0, 1)), rows.Bool(0, 2)};
  }
  if (!rows.IsNull(0, 3)) start.account = AccountFromColumns(rows, 3);
  start.token = TokenFromColumns(rows, 9);
  start.time_us = rows.Int(0, 12);
  start.redemption_id = rows.Int(0, 13);
  start.vouchers = rows.Int(0, 14);
  start.amount = rows.Int(0, 15);
  return start;
}

Result<std::int64_t> TransactionTime(Connection& db) {
  return OneInteger(db.Run(kTransactionTime));
}

Status InsertRedemption(Connection& db, const RedemptionRow& r, std::int64_t balance) {
  return db.Execute(
      kInsertRedemption,
      {std::to_string(r.id), std::to_string(r.user_id), r.wallet_address, std::to_string(r.amount),
       r.token_account, r.confidential_public_key, r.encrypted_amount, r.encrypted_balance,
       r.receipt, r.receipt_hash, r.signature, std::to_string(balance)});
}

namespace {

Result<std::optional<RedemptionRow>> AtMostOneRedemption(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  if (rows->empty()) return std::optional<RedemptionRow>();
  RedemptionRow r;
  r.id = rows->Int(0, 0);
  r.user_id = rows->Int(0, 1);
  r.wallet_address = rows->Text(0, 2);
  r.amount = rows->Int(0, 3);
  r.token_account = rows->Text(0, 4);
  r.confidential_public_key = rows->Text(0, 5);
  r.encrypted_amount = rows->Text(0, 6);
  r.encrypted_balance = rows->Text(0, 7);
  r.receipt = rows->Text(0, 8);
  r.receipt_hash = rows->Text(0, 9);
  r.signature = rows->Text(0, 10);
  return std::optional<RedemptionRow>(std::move(r));
}

}  // namespace

Result<std::optional<RedemptionRow>> FindRedemptionById(Connection& db, std::int64_t id) {
  return AtMostOneRedemption(db.Run(kRedemptionById, {std::to_string(id)}));
}

Result<std::optional<RedemptionRow>> FindRedemptionBySignature(Connection& db,
                                                               std::string_view signature) {
  return AtMostOneRedemption(db.Run(kRedemptionBySignature, {std::string(signature)}));
}

}  // namespace netgraph::store
