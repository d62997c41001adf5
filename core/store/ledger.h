// Confidential token accounts and the redemptions credited to them.
#ifndef NETGRAPH_CORE_STORE_LEDGER_H_
#define NETGRAPH_CORE_STORE_LEDGER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/token.h"
#include "core/store/wallets.h"

namespace netgraph::store {

struct TokenAccountRow {
  std::string wallet_address;
  std::string account_address;
  std::string confidential_public_key;
  std::string encrypted_balance;
  std::int64_t balance = 0;  // base units
  std::string last_receipt_hash;
};

Result<std::optional<TokenAccountRow>> FindTokenAccount(Connection& db,
                                                        std::string_view wallet_address);
// The user's most recently credited token account.
Result<std::optional<TokenAccountRow>> LatestTokenAccountOfUser(Connection& db,
                                                                std::int64_t user_id);
// Removes the wallet's account (its registered key and balance), returning it; nullopt when the
// wallet had none. Redemptions that credited it stay.
Result<std::optional<TokenAccountRow>> DeleteTokenAccount(Connection& db,
                                                          std::string_view wallet_address);

struct RedemptionRow {
  std::int64_t id = 0;
  std::int64_t user_id = 0;
  std::string wallet_address;
  std::int64_t amount = 0;
  std::string token_account;
  std::string confidential_public_key;
  std::string encrypted_amount;
  std::string encrypted_balance;
  std::string receipt;
  std::string receipt_hash;
  std::string signature;
};

// What a redemption starts from, read and taken in one statement (migration 0014's
// start_redemption): the wallet, locked until the transaction ends so that its account and the
// account's receipt chain stay current (a claim that writes the wallet's node waits for it: see
// RowLock::kForShare); the token; the transaction's time; and, when the wallet is `user_id`'s,
// its account. When in addition the account is absent or registered under `key`, the id of the
// redemption is reserved (a receipt names its redemption before the row exists) and the wallet's
// CLAIMED, unexpired vouchers are taken: REDEEMED as part of that redemption, whose row the same
// transaction must insert (InsertRedemption) before it commits. Otherwise nothing is taken and the
// caller refuses.
struct RedemptionStart {
  std::optional<WalletRow> wallet;  // nullopt when there is no such wallet
  std::optional<TokenAccountRow> account;
  TokenRow token;
  std::int64_t time_us = 0;        // the transaction's start time, which every now() in it returns
  std::int64_t redemption_id = 0;  // 0 when nothing was taken
  std::int64_t vouchers = 0;       // how many vouchers were taken
  std::int64_t amount = 0;         // their amounts' sum, in base units
};
Result<RedemptionStart> StartRedemption(Connection& db, std::int64_t user_id,
                                        std::string_view wallet_address, std::string_view key);
// The transaction's start time, which every now() in it returns (and so every row's timestamp),
// in microseconds since the Unix epoch.
Result<std::int64_t> TransactionTime(Connection& db);
// Inserts the redemption and saves its wallet's account as the redemption leaves it: the token
// account and key, the encrypted balance, `balance` (base units) and the receipt's hash, which the
// next receipt chains to.
Status InsertRedemption(Connection& db, const RedemptionRow& redemption, std::int64_t balance);
// A stored redemption by its id or by its receipt's signature (base58); nullopt when none matches.
Result<std::optional<RedemptionRow>> FindRedemptionById(Connection& db, std::int64_t id);
Result<std::optional<RedemptionRow>> FindRedemptionBySignature(Connection& db,
                                                               std::string_view signature);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_LEDGER_H_
