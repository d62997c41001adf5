// Users as the domain sees them: created on first sight of a verified token's subject, admin by
// the database flag or by the identity provider's role claim.
#ifndef NETGRAPH_CORE_DOMAIN_USER_H_
#define NETGRAPH_CORE_DOMAIN_USER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/domain/failure.h"
#include "core/store/connection.h"

namespace netgraph::domain {

// What a verified bearer token says about its holder.
struct Principal {
  std::string subject;  // `sub`: the idpDid
  std::optional<std::string> email;
  bool admin_by_claim = false;
};

struct User {
  std::int64_t id = 0;
  std::string idp_did;
  std::optional<std::string> email;
  bool is_admin = false;  // the database flag or the role claim
  std::string public_id;  // the opaque node id in the public graph
};

// Whether UserForPrincipal finds the principal's user, stored with `stored_email`, without writing:
// the token carries no usable email, or the stored one.
bool PrincipalNeedsNoWrite(const Principal& principal,
                           const std::optional<std::string>& stored_email);

// The principal's user, created on first sight; the stored email follows the token's when the
// token has one. A subject longer than 512 characters is refused (kAuthenticationRequired); an
// email claim that is not a plausible address is ignored.
Outcome<User> UserForPrincipal(store::Connection& db, const Principal& principal);

// A keyset page of the users by id (`netgraphctl users list`): up to `first` (1 to 1000) after
// `after_id`; is_admin is the database flag.
Result<std::vector<User>> ListUsers(store::Connection& db, std::int64_t first,
                                    std::int64_t after_id);

// Sets the database admin flag (`netgraphctl admin grant`), creating the user when absent.
Result<User> GrantAdmin(store::Connection& db, std::string_view idp_did);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_USER_H_
