#include "core/domain/user.h"

#include "core/store/users.h"

namespace netgraph::domain {
namespace {

constexpr std::size_t kMaxSubjectLength = 512;
constexpr std::size_t kMaxEmailLength = 320;

User FromRow(const store::UserRow& row, bool admin_by_claim) {
  return User{row.id, row.idp_did, row.email, row.is_admin || admin_by_claim, row.public_id};
}

std::optional<std::string> UsableEmail(const std::optional<std::string>& email) {
  if (!email || email->empty() || email->size() > kMaxEmailLength ||
      email->find('@') == std::string::npos) {
    return std::nullopt;
  }
  return email;
}

}  // namespace

bool PrincipalNeedsNoWrite(const Principal& principal,
                           const std::optional<std::string>& stored_email) {
  const std::optional<std::string> email = UsableEmail(principal.email);
  return !email || stored_email == email;
}

Outcome<User> UserForPrincipal(store::Connection& db, const Principal& principal) {
  if (principal.subject.empty() || principal.subject.size() > kMaxSubjectLength) {
    return Failure::kAuthenticationRequired;
  }
  // The common case, a known user whose email is unchanged, costs one read and no write.
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::UserRow> known,
                            store::FindUserByDid(db, principal.subject));
  if (known.has_value() && PrincipalNeedsNoWrite(principal, known->email)) {
    return FromRow(*known, principal.admin_by_claim);
  }
  NETGRAPH_ASSIGN_OR_RETURN(store::UserRow stored,
                            store::UpsertUser(db, principal.subject, UsableEmail(principal.email)));
  return FromRow(stored, principal.admin_by_claim);
}

Result<User> GrantAdmin(store::Connection& db, std::string_view idp_did) {
  if (idp_did.empty() || idp_did.size() > kMaxSubjectLength) {
    return Status::InvalidArgument("a DID must have 1 to 512 characters");
  }
  NETGRAPH_ASSIGN_OR_RETURN(store::UserRow row, store::SetAdminFlag(db, idp_did));
  return FromRow(row, false);
}

Result<std::vector<User>> ListUsers(store::Connection& db, std::int64_t first,
                                    std::int64_t after_id) {
  if (first < 1 || first > 1000) return Status::InvalidArgument("first must be 1 to 1000");
  NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::UserRow> rows, store::UserPage(db, after_id, first));
  std::vector<User> users;
  for (const store::UserRow& row : rows) users.push_back(FromRow(row, false));
  return users;
}

}  // namespace netgraph::domain
