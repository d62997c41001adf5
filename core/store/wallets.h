// The wallets table: a Solana address and its one owner.
#ifndef NETGRAPH_CORE_STORE_WALLETS_H_
#define NETGRAPH_CORE_STORE_WALLETS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

struct WalletRow {
  std::string address;
  std::int64_t user_id = 0;
  std::string public_id;  // the wallet's opaque node id in the public graph
};

// kForUpdate locks FOR NO KEY UPDATE: writers of the row wait, inserts that reference it do not.
enum class RowLock { kNone, kForUpdate };

// The wallet, optionally locked until the transaction ends.
Result<std::optional<WalletRow>> FindWallet(Connection& db, std::string_view address,
                                            RowLock lock = RowLock::kNone);

// Registers the wallet to `user_id` unless someone already owns it; returns the owner's row either
// way. Under concurrency the first committed registration wins.
Result<WalletRow> RegisterWallet(Connection& db, std::string_view address, std::int64_t user_id);

// The user's wallet addresses, oldest first.
Result<std::vector<std::string>> UserWallets(Connection& db, std::int64_t user_id);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_WALLETS_H_
