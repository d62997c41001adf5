// What resolvers see of one request (its graphql::RequestContext): the service's resources, the
// caller's credentials as verified, and the domain refusal a resolver reports for the adapters to
// log and count (core/api/operation.h).
#ifndef NETGRAPH_CORE_API_REQUEST_SCOPE_H_
#define NETGRAPH_CORE_API_REQUEST_SCOPE_H_

#include <optional>
#include <utility>

#include "core/auth/identity.h"
#include "core/domain/failure.h"
#include "core/domain/user.h"
#include "core/graphql/engine.h"

namespace netgraph::api {

class Service;

// What a request's Authorization header amounted to. kInvalid (a token was sent and failed
// verification) is not the same as kNone: public operations still run, but the WebSocket process
// refuses such a connection (4403).
enum class Credentials { kNone, kValid, kInvalid };

class RequestScope : public graphql::RequestContext {
 public:
  RequestScope(Service& service, Credentials credentials, std::optional<auth::Identity> identity)
      : service_(service), credentials_(credentials), identity_(std::move(identity)) {}
  Service& service() const { return service_; }
  Credentials credentials() const { return credentials_; }
  // The verified caller; null unless credentials() is kValid.
  const auth::Identity* identity() const { return identity_ ? &*identity_ : nullptr; }
  // What the verified caller's token says of them; nullopt unless credentials() is kValid.
  std::optional<domain::Principal> principal() const;
  // The verified caller's user row (created on first sight), once per request, from the service's
  // user cache while the row is unchanged (core/api/user_cache.h): null with
  // kAuthenticationRequired when the request has no valid token.
  domain::Outcome<const domain::User*> CurrentUser();

  // A resolver reports that the domain refused what it was asked (the result object it returns
  // says so too: {"success": false, "error": ...}); the first report of the request counts. What
  // the adapters log and count as the request's failure (core/api/operation.h): reported, not
  // read back from the answer, whose shape (aliases) is the client's.
  void NoteFailure(domain::Failure failure) {
    if (!failure_) failure_ = failure;
  }
  std::optional<domain::Failure> failure() const { return failure_; }

 private:
  Service& service_;
  Credentials credentials_;
  std::optional<auth::Identity> identity_;
  std::optional<domain::User> user_;  // CurrentUser's cache
  std::optional<domain::Failure> failure_;
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_REQUEST_SCOPE_H_
