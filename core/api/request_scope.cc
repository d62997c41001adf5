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
  domain::Outcome<domain::User> user = domain::UserForPrincipal(service_.database(), *caller);
  if (const Status* error = user.error()) return *error;
  if (user.failure()) return *user.failure();
  user_ = std::move(user.value());
  return &*user_;
}

}  // namespace netgraph::api
