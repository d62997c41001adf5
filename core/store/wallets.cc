#include "core/store/wallets.h"

namespace netgraph::store {
namespace {

constexpr Statement kFind{"wallets_find",
                          "SELECT address, user_id, public_id FROM wallets WHERE address = $1"};
constexpr Statement kFindForUpdate{
    "wallets_find_for_update",
    "SELECT address, user_id, public_id FROM wallets WHERE address = $1 FOR NO KEY UPDATE"};
constexpr Statement kInsert{"wallets_insert",
                            "INSERT INTO wallets (address, user_id) VALUES ($1, $2) "
                            "ON CONFLICT (address) DO NOTHING"};
constexpr Statement kOfUser{
    "wallets_of_user",
    "SELECT address FROM wallets WHERE user_id = $1 ORDER BY created_at, address"};

}  // namespace

Result<std::optional<WalletRow>> FindWallet(Connection& db, std::string_view address,
                                            RowLock lock) {
  Result<Rows> rows =
      db.Run(lock == RowLock::kForUpdate ? kFindForUpdate : kFind, {std::string(address)});
  if (!rows.ok()) return rows.status();
  if (rows->empty()) return std::optional<WalletRow>();
  return std::optional<WalletRow>(
      WalletRow{std::string(rows->Text(0, 0)), rows->Int(0, 1), std::string(rows->Text(0, 2))});
}

Result<WalletRow> RegisterWallet(Connection& db, std::string_view address, std::int64_t user_id) {
  if (Status s = db.Execute(kInsert, {std::string(address), std::to_string(user_id)}); !s.ok()) {
    return s;
  }
  // After ON CONFLICT DO NOTHING (which waited for any concurrent insert of the same address to
  // finish) the row is visible: ours or the winner's.
  Result<std::optional<WalletRow>> wallet = FindWallet(db, address);
  if (!wallet.ok()) return wallet.status();
  if (!wallet->has_value()) return Status::Error("wallets: registered wallet not found");
  return **wallet;
}

Result<std::vector<std::string>> UserWallets(Connection& db, std::int64_t user_id) {
  Result<Rows> rows = db.Run(kOfUser, {std::to_string(user_id)});
  if (!rows.ok()) return rows.status();
  std::vector<std::string> addresses;
  for (int i = 0; i < rows->size(); ++i) addresses.emplace_back(rows->Text(i, 0));
  return addresses;
}

}  // namespace netgraph::store
