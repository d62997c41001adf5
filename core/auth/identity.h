// Who a verified bearer token speaks for.
#ifndef NETGRAPH_CORE_AUTH_IDENTITY_H_
#define NETGRAPH_CORE_AUTH_IDENTITY_H_

#include <chrono>
#include <optional>
#include <string>

namespace netgraph::auth {

struct Identity {
  std::string subject;                               // `sub`, never empty: the user's idpDid
  std::optional<std::string> email;                  // `email`, when it is a string
  bool is_admin_by_claim = false;                    // the configured admin role claim matched
  std::chrono::system_clock::time_point expires_at;  // `exp`, e.g. to end a long-lived session
};

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_IDENTITY_H_
