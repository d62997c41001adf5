// The wallets table: a Solana address, its one owner, and whether the owner proved possession
// (core/domain/wallet_proof.h).
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
  bool proven = false;    // the owner signed a wallet challenge with the wallet's key
};

// kForKeyShare keeps the owner fixed until commit without serialising readers.
// kForShare waits for a redemption of the wallet (which locks it FOR NO KEY UPDATE: migration
// 0014's start_redemption) to end, and keeps the next one out until commit.
// kForOwnerChange locks FOR UPDATE, as changing the owner needs: it waits for every other lock.
enum class RowLock { kNone, kForKeyShare, kForShare, kForOwnerChange };

// The wallet, optionally locked until the transaction ends.
Result<std::optional<WalletRow>> FindWallet(Connection& db, std::string_view address,
                                            RowLock lock = RowLock::kNone);

// Registers the wallet to `user_id` unless someone already owns it; returns the owner's row either
// way, locked FOR KEY SHARE so the owner it reports stays the owner until the transaction ends.
// Under concurrency the first committed registration wins.
Result<WalletRow> RegisterWallet(Connection& db, std::string_view address, std::int64_t user_id);

// Records that the wallet's owner, `user_id`, proved possession. False when `user_id` does not own
// it.
Result<bool> MarkWalletProven(Connection& db, std::string_view address, std::int64_t user_id);

// Moves the wallet from `from_user_id` to `to_user_id`, proven or not. False when `from_user_id`
// no longer owns it. The caller holds the kForOwnerChange lock and has dealt with what the previous
// owner bound to the wallet.
Result<bool> TransferWallet(Connection& db, std::string_view address, std::int64_t from_user_id,
                            std::int64_t to_user_id, bool proven);

// The user's wallet addresses, oldest first.
Result<std::vector<std::string>> UserWallets(Connection& db, std::int64_t user_id);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_WALLETS_H_
