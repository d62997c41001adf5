#include "core/store/wallets.h"

namespace netgraph::store {
namespace {

#define NETGRAPH_WALLET_FIND                                   \
  "SELECT address, user_id, public_id, proven_at IS NOT NULL " \
  "FROM wallets WHERE address = $1"
constexpr Statement kFind{"wallets_find", NETGRAPH_WALLET_FIND};
constexpr Statement kFindForKeyShare{"wallets_find_for_key_share",
                                     NETGRAPH_WALLET_FIND " FOR KEY SHARE"};
constexpr Statement kFindForShare{"wallets_find_for_share", NETGRAPH_WALLET_FIND " FOR SHARE"};
constexpr Statement kFindForOwnerChange{"wallets_find_for_owner_change",
                                        NETGRAPH_WALLET_FIND " FOR UPDATE"};
#undef NETGRAPH_WALLET_FIND
constexpr Statement kInsert{"wallets_insert",
                            "INSERT INTO wallets (address, user_id) VALUES ($1, $2) "
                            "ON CONFLICT (address) DO NOTHING"};
constexpr Statement kMarkProven{
    "wallets_mark_proven",
    "UPDATE wallets SET proven_at = now() WHERE address = $1 AND user_id = $2"};
constexpr Statement kTransfer{
    "wallets_transfer",
    "UPDATE wallets SET user_id = $3, proven_at = CASE WHEN $4::boolean THEN now() END "
    "WHERE address = $1 AND user_id = $2"};
constexpr Statement kOfUser{
    "wallets_of_user",
    "SELECT address FROM wallets WHERE user_id = $1 ORDER BY created_at, address"};

const Statement& FindStatement(RowLock lock) {
  switch (lock) {
    case RowLock::kNone:
      return kFind;
    case RowLock::kForKeyShare:
      return kFindForKeyShare;
    case RowLock::kForShare:
      return kFindForShare;
    case RowLock::kForOwnerChange:
      return kFindForOwnerChange;
  }
  return kFind;
}

}  // namespace

Result<std::optional<WalletRow>> FindWallet(Connection& db, std::string_view address,
                                            RowLock lock) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(FindStatement(lock), {std::string(address)}));
  if (rows.empty()) return std::optional<WalletRow>();
  return std::optional<WalletRow>(WalletRow{std::string(rows.Text(0, 0)), rows.Int(0, 1),
                                            std::string(rows.Text(0, 2)), rows.Bool(0, 3)});
}

Result<WalletRow> RegisterWallet(Connection& db, std::string_view address, std::int64_t user_id) {
  if (Status s = db.Execute(kInsert, {std::string(address), std::to_string(user_id)}); !s.ok()) {
    return s;
  }
  // After ON CONFLICT DO NOTHING (which waited for any concurrent insert of the same address to
  // finish) the row is visible: ours or the winner's.
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<WalletRow> wallet,
                            FindWallet(db, address, RowLock::kForKeyShare));
  if (!wallet.has_value()) return Status::Internal("wallets: registered wallet not found");
  return *wallet;
}

Result<bool> MarkWalletProven(Connection& db, std::string_view address, std::int64_t user_id) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows,
                            db.Run(kMarkProven, {std::string(address), std::to_string(user_id)}));
  return rows.affected() == 1;
}

Result<bool> TransferWallet(Connection& db, std::string_view address, std::int64_t from_user_id,
                            std::int64_t to_user_id, bool proven) {
  NETGRAPH_ASSIGN_OR_RETURN(
      Rows rows,
      db.Run(kTransfer, {std::string(address), std::to_string(from_user_id),
                         std::to_string(to_user_id), std::string(proven ? "true" : "false")}));
  return rows.affected() == 1;
}

Result<std::vector<std::string>> UserWallets(Connection& db, std::int64_t user_id) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kOfUser, {std::to_string(user_id)}));
  std::vector<std::string> addresses;
  for (int i = 0; i < rows.size(); ++i) addresses.emplace_back(rows.Text(i, 0));
  return addresses;
}

}  // namespace netgraph::store
