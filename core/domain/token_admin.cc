#include "core/domain/token_admin.h"

#include <algorithm>
#include <cctype>

#include "core/domain/graph_change.h"
#include "core/domain/internal/graph_ids.h"

namespace netgraph::domain {
namespace {

// The same rules as migration 0001's CHECK constraints, said before PostgreSQL says them less
// clearly.
Status Check(const store::TokenRow& token) {
  if (token.name.empty() || token.name.size() > 100) {
    return Status::InvalidArgument("the name must have 1 to 100 characters");
  }
  const bool symbol_ok = !token.symbol.empty() && token.symbol.size() <= 10 &&
                         std::all_of(token.symbol.begin(), token.symbol.end(), [](char c) {
                           return std::isupper(static_cast<unsigned char>(c)) ||
                                  std::isdigit(static_cast<unsigned char>(c));
                         });
  if (!symbol_ok) {
    return Status::InvalidArgument("the symbol must be 1 to 10 capital letters or digits");
  }
  if (token.decimals < 0 || token.decimals > 9) {
    return Status::InvalidArgument("the decimals must be 0 to 9");
  }
  return Status::Ok();
}

}  // namespace

Result<store::TokenRow> SetToken(store::Connection& db, const TokenChange& change) {
  store::TokenRow stored;
  Status written = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
    if (change.name) token.name = *change.name;
    if (change.symbol) token.symbol = *change.symbol;
    if (change.decimals) token.decimals = *change.decimals;
    NETGRAPH_RETURN_IF_ERROR(Check(token));
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::TokenRow> updated,
                              store::UpdateToken(db, token));
    if (!updated) {
      return Status::FailedPrecondition(
          "the decimals cannot change once vouchers exist: their amounts are stored in base "
          "units");
    }
    stored = *updated;
    GraphChange change_of_graph;
    change_of_graph.AddNode(TokenNode(stored));
    Result<std::optional<std::int64_t>> announced = change_of_graph.Write(db);
    return announced.ok() ? Status::Ok() : announced.status();
  });
  if (!written.ok()) return written;
  return stored;
}

}  // namespace netgraph::domain
