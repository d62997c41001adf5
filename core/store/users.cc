#include "core/store/users.h"

#include <string>

namespace netgraph::store {
namespace {

constexpr Statement kFindByDid{
    "users_find_by_did",
    "SELECT id, idp_did, email, is_admin, public_id FROM users WHERE idp_did = $1"};
constexpr Statement kUpsert{
    "users_upsert",
    "INSERT INTO users (idp_did, email) VALUES ($1, $2) "
    "ON CONFLICT (idp_did) DO UPDATE SET email = COALESCE(EXCLUDED.email, users.email) "
    "RETURNING id, idp_did, email, is_admin, public_id"};
constexpr Statement kGrantAdmin{"users_grant_admin",
                                "INSERT INTO users (idp_did, is_admin) VALUES ($1, true) "
                                "ON CONFLICT (idp_did) DO UPDATE SET is_admin = true "
                                "RETURNING id, idp_did, email, is_admin, public_id"};
constexpr Statement kPage{"users_page",
                          "SELECT id, idp_did, email, is_admin, public_id FROM users "
                          "WHERE id > $1 ORDER BY id LIMIT $2"};
constexpr Statement kLock{"users_lock", "SELECT id FROM users WHERE id = $1 FOR NO KEY UPDATE"};

UserRow ReadUser(const Rows& rows, int row) {
  return UserRow{rows.Int(row, 0), std::string(rows.Text(row, 1)), rows.OptionalText(row, 2),
                 rows.Bool(row, 3), std::string(rows.Text(row, 4))};
}

Result<UserRow> OneUser(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  if (rows->empty()) return Status::Internal("users: the statement returned no row");
  return ReadUser(*rows, 0);
}

}  // namespace

Result<std::optional<UserRow>> FindUserByDid(Connection& db, std::string_view idp_did) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kFindByDid, {std::string(idp_did)}));
  if (rows.empty()) return std::optional<UserRow>();
  return std::optional<UserRow>(ReadUser(rows, 0));
}

Result<UserRow> UpsertUser(Connection& db, std::string_view idp_did,
                           const std::optional<std::string>& email) {
  return OneUser(db.Run(kUpsert, {std::string(idp_did), email}));
}

Result<UserRow> SetAdminFlag(Connection& db, std::string_view idp_did) {
  return OneUser(db.Run(kGrantAdmin, {std::string(idp_did)}));
}

Result<std::vector<UserRow>> UserPage(Connection& db, std::int64_t after_id, std::int64_t first) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows,
                            db.Run(kPage, {std::to_string(after_id), std::to_string(first)}));
  std::vector<UserRow> users;
  for (int i = 0; i < rows.size(); ++i) users.push_back(ReadUser(rows, i));
  return users;
}

Status LockUser(Connection& db, std::int64_t user_id) {
  return db.Execute(kLock, {std::to_string(user_id)});
}

}  // namespace netgraph::store
