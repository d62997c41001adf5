// The wallet_challenges table: the texts walletChallenge issued (core/domain/wallet_proof.h), one
// live challenge per user and address. Using one is a single conditional UPDATE, so a challenge
// proves possession at most once however many verifications race.
#ifndef NETGRAPH_CORE_STORE_WALLET_CHALLENGES_H_
#define NETGRAPH_CORE_STORE_WALLET_CHALLENGES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

struct WalletChallengeRow {
  std::int64_t id = 0;
  std::string message;  // the exact text the wallet signs, in its off-chain message envelope
  bool used = false;
  bool expired = false;  // as of the transaction's start
};

// Deletes the user's earlier challenges for `wallet_address` and every expired one of the user,
// so a user holds at most one challenge per address and none that can no longer be used.
Status PruneWalletChallenges(Connection& db, std::int64_t user_id, std::string_view wallet_address);

// The user's unexpired, unused challenges.
Result<std::int64_t> CountOpenWalletChallenges(Connection& db, std::int64_t user_id);

// `expires_at_micros`: microseconds since the Unix epoch.
Status InsertWalletChallenge(Connection& db, std::int64_t user_id, std::string_view wallet_address,
                             std::string_view message, std::int64_t expires_at_micros);

// The user's latest challenge for the address, used or not, locked until the transaction ends.
Result<std::optional<WalletChallengeRow>> LatestWalletChallenge(Connection& db,
                                                                std::int64_t user_id,
                                                                std::string_view wallet_address);

// Unused and unexpired -> used. False when it was not (a concurrent verification used it first).
Result<bool> MarkWalletChallengeUsed(Connection& db, std::int64_t challenge_id);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_WALLET_CHALLENGES_H_
