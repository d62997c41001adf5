// The operator's set-up of the token (`netgraphctl token set`): its name, symbol and decimals. A
// fresh database holds a placeholder token (migration 0001); an operator names the real one before
// issuing vouchers. The token's graph node follows, announced like any graph change.
#ifndef NETGRAPH_CORE_DOMAIN_TOKEN_ADMIN_H_
#define NETGRAPH_CORE_DOMAIN_TOKEN_ADMIN_H_

#include <optional>
#include <string>

#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/token.h"

namespace netgraph::domain {

// What to change; what is unset stays.
struct TokenChange {
  std::optional<std::string> name;    // 1 to 100 characters
  std::optional<std::string> symbol;  // 1 to 10 of A-Z and 0-9
  std::optional<int> decimals;        // 0 to 9
};

// Refusals: kInvalidArgument for a bad value (the message names it), kFailedPrecondition for new
// decimals once a voucher exists (amounts are stored in base units).
Result<store::TokenRow> SetToken(store::Connection& db, const TokenChange& change);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_TOKEN_ADMIN_H_
