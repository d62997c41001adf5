// The users table and the failed-claim log behind the per-user rate limit.
#ifndef NETGRAPH_CORE_STORE_USERS_H_
#define NETGRAPH_CORE_STORE_USERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

// The channel notified at commit by every transaction that changes what a user's portfolio shows
// (core/store/migrations/0007_portfolio_changes.sql's triggers): the user's id, or "*" for every
// user's.
inline constexpr const char* kPortfolioNotifyChannel = "netgraph_portfolio";
inline constexpr std::string_view kEveryPortfolio = "*";
// The channel notified at commit by every write to a user's row
// (core/store/migrations/0012_user_row_changes.sql): the user's id.
inline constexpr const char* kUserRowNotifyChannel = "netgraph_user";

struct UserRow {
  std::int64_t id = 0;
  std::string idp_did;
  std::optional<std::string> email;
  bool is_admin = false;
  std::string public_id;  // the user's opaque node id in the public graph
};

Result<std::optional<UserRow>> FindUserByDid(Connection& db, std::string_view idp_did);

// Creates the user on first sight; an existing user's email is replaced when `email` is given and
// differs. Returns the stored row.
Result<UserRow> UpsertUser(Connection& db, std::string_view idp_did,
                           const std::optional<std::string>& email);

// Sets the admin flag, creating the user when absent.
Result<UserRow> SetAdminFlag(Connection& db, std::string_view idp_did);

// A keyset page of the users by id: up to `first` after `after_id` (0 from the start).
Result<std::vector<UserRow>> UserPage(Connection& db, std::int64_t after_id, std::int64_t first);

// Locks the user's row until the transaction ends, as a claim does (migration 0009's
// lock_claimant, which migration 0010's claim_voucher calls): one claim per user at a time.
Status LockUser(Connection& db, std::int64_t user_id);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_USERS_H_
