// The operator's investment rounds (`netgraphctl rounds create|list|close`). A round has a name, a
// price per token and a target in the quote currency, and is open from its opening time until its
// closing time (or for ever); the current round is the open one that opened last, and vouchers are
// issued in it unless another is named. A new round appears in the public graph, linked to the
// token, announced like any graph change.
#ifndef NETGRAPH_CORE_DOMAIN_ROUND_ADMIN_H_
#define NETGRAPH_CORE_DOMAIN_ROUND_ADMIN_H_

#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/token.h"

namespace netgraph::domain {

struct RoundRequest {
  std::string name;    // 1 to 100 characters, not taken
  std::string price;   // decimal text: quote currency per token, at most 8 decimals
  std::string target;  // decimal text: quote currency, at most 2 decimals
  // InstantFromNow's forms (RFC 3339, "now", "7d"); unset: now. Closing: unset means never.
  std::optional<std::string> opens;
  std::optional<std::string> closes;
};

// Refusals: kInvalidArgument (a bad value, named), kAlreadyExists (the name is taken).
Result<store::RoundRow> CreateRound(store::Connection& db, const RoundRequest& request);

Result<std::vector<store::RoundSchedule>> ListRounds(store::Connection& db);

// Closes the round at `at` (InstantFromNow's forms; unset: now). Refusals: kNotFound (no round of
// that name), kFailedPrecondition (it is not open at that time: not yet opened, or closed already).
Result<store::RoundRow> CloseRound(store::Connection& db, const std::string& name,
                                   const std::optional<std::string>& at);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_ROUND_ADMIN_H_
