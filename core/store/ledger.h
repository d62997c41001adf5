// Confidential token accounts and the redemptions credited to them.
#ifndef NETGRAPH_CORE_STORE_LEDGER_H_
#define NETGRAPH_CORE_STORE_LEDGER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/store/connection.h"

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
// Inserts or replaces the account's row.
Status SaveTokenAccount(Connection& db, const TokenAccountRow& account);
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

// Reserves the id of the next redemption (a receipt names its redemption before the row exists).
Result<std::int64_t> NextRedemptionId(Connection& db);
// The transaction's start time, which every now() in it returns (and so every row's timestamp),
// in microseconds since the Unix epoch.
Result<std::int64_t> TransactionTime(Connection& db);
Status InsertRedemption(Connection& db, const RedemptionRow& redemption);
// A stored redemption by its id or by its receipt's signature (base58); nullopt when none matches.
Result<std::optional<RedemptionRow>> FindRedemptionById(Connection& db, std::int64_t id);
Result<std::optional<RedemptionRow>> FindRedemptionBySignature(Connection& db,
                                                               std::string_view signature);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_LEDGER_H_
