#include "core/store/wallet_challenges.h"

namespace netgraph::store {
namespace {

constexpr Statement kPrune{
    "wallet_challenges_prune",
    "DELETE FROM wallet_challenges WHERE user_id = $1 AND (wallet_address = $2 "
    "OR expires_at <= now())"};
constexpr Statement kCountOpen{
    "wallet_challenges_count_open",
    "SELECT count(*) FROM wallet_challenges WHERE user_id = $1 AND used_at IS NULL "
    "AND expires_at > now()"};
constexpr Statement kInsert{
    "wallet_challenges_insert",
    "INSERT INTO wallet_challenges (user_id, wallet_address, message, expires_at) "
    "VALUES ($1, $2, $3, to_timestamp($4::bigint / 1000000.0))"};
constexpr Statement kLatest{
    "wallet_challenges_latest",
    "SELECT id, message, used_at IS NOT NULL, expires_at <= now() FROM wallet_challenges "
    "WHERE user_id = $1 AND wallet_address = $2 ORDER BY id DESC LIMIT 1 FOR UPDATE"};
constexpr Statement kMarkUsed{"wallet_challenges_mark_used",
                              "UPDATE wallet_challenges SET used_at = now() "
                              "WHERE id = $1 AND used_at IS NULL AND expires_at > now()"};

}  // namespace

Status PruneWalletChallenges(Connection& db, std::int64_t user_id,
                             std::string_view wallet_address) {
  return db.Execute(kPrune, {std::to_string(user_id), std::string(wallet_address)});
}

Result<std::int64_t> CountOpenWalletChallenges(Connection& db, std::int64_t user_id) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kCountOpen, {std::to_string(user_id)}));
  if (rows.empty()) return Status::Internal("wallet_challenges: count returned no row");
  return rows.Int(0, 0);
}

Status InsertWalletChallenge(Connection& db, std::int64_t user_id, std::string_view wallet_address,
                             std::string_view message, std::int64_t expires_at_micros) {
  return db.Execute(kInsert, {std::to_string(user_id), std::string(wallet_address),
                              std::string(message), std::to_string(expires_at_micros)});
}

Result<std::optional<WalletChallengeRow>> LatestWalletChallenge(Connection& db,
                                                                std::int64_t user_id,
                                                                std::string_view wallet_address) {
  NETGRAPH_ASSIGN_OR_RETURN(
      Rows rows, db.Run(kLatest, {std::to_string(user_id), std::string(wallet_address)}));
  if (rows.empty()) return std::optional<WalletChallengeRow>();
  return std::optional<WalletChallengeRow>(WalletChallengeRow{
      rows.Int(0, 0), std::string(rows.Text(0, 1)), rows.Bool(0, 2), rows.Bool(0, 3)});
}

Result<bool> MarkWalletChallengeUsed(Connection& db, std::int64_t challenge_id) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kMarkUsed, {std::to_string(challenge_id)}));
  return rows.affected() == 1;
}

}  // namespace netgraph::store
