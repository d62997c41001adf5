#include "core/api/request_scope.h"

#include <utility>

#include "core/api/service.h"

namespace netgraph::api {

std::optional<domain::Principal> RequestScope::principal() const {
  if (identity_ == std::nullopt) return std::nullopt;
  return domain::Principal{identity_->subject, identity_->email, identity_->is_admin_by_claim};
}

domain::Outcome<const domain::User*> RequestScope::CurrentUser() {
  if (user_) return &*user_;
  std::optional<domain::Principal> caller = principal();
  if (caller == std::nullopt) return domain::Failure::kAuthenticationRequired;
  UserCache& cache = service_.user_cache();
  if (std::optional<domain::User> kept = cache.Find(*caller)) {
    user_ = std::move(*kept);
    return &*user_;
  }
  // The row as stored (the database's admin flag) for the cache, then the token's role claim.
  const std::optional<UserCache::ReadAt> read_at = cache.Before(caller->subject);
  domain::Principal as_stored = *caller;
  as_stored.admin_by_claim = false;
  domain::Outcome<domain::User> user = domain::UserForPrincipal(service_.database(), as_stored);
  if (const Status* error = user.error()) return *error;
  if (user.failure()) return *user.failure();
  cache.Keep(user.value(), read_at);
  user_ = std::move(user.value());
  user_->is_admin = user_->is_admin || caller->admin_by_claim;
  return &*user_;
}

}  // namespace netgraph::api
