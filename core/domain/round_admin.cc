#include "core/domain/round_admin.h"

#include "core/domain/date_time.h"
#include "core/domain/graph_change.h"
#include "core/domain/internal/graph_ids.h"

namespace netgraph::domain {
namespace {

// Digits with at most `decimals` after one point: the column's scale (migration 0001), checked
// here so that PostgreSQL does not round the operator's figure silently.
bool IsDecimal(const std::string& text, std::size_t decimals) {
  const std::size_t point = text.find('.');
  const std::string whole = text.substr(0, point);
  const std::string fraction = point == std::string::npos ? "" : text.substr(point + 1);
  auto digits = [](const std::string& s) {
    return s.find_first_not_of("0123456789") == std::string::npos;
  };
  return !whole.empty() && whole.size() <= 12 && digits(whole) && digits(fraction) &&
         fraction.size() <= decimals && (point == std::string::npos || !fraction.empty());
}

}  // namespace

Result<store::RoundRow> CreateRound(store::Connection& db, const RoundRequest& request) {
  if (request.name.empty() || request.name.size() > 100) {
    return Status::InvalidArgument("the name must have 1 to 100 characters");
  }
  if (!IsDecimal(request.price, 8)) {
    return Status::InvalidArgument("the price must be a number such as 0.05 (at most 8 decimals)");
  }
  if (!IsDecimal(request.target, 2)) {
    return Status::InvalidArgument(
        "the target must be a number such as 500000 (at most 2 decimals)");
  }
  store::RoundRow created;
  Status written = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::RoundRow> taken,
                              store::FindRound(db, request.name));
    if (taken) return Status::AlreadyExists("a round named " + request.name + " exists");
    const std::string opens = request.opens ? InstantFromNow(*request.opens) : "now";
    std::optional<std::string> closes;
    if (request.closes) closes = InstantFromNow(*request.closes);
    NETGRAPH_ASSIGN_OR_RETURN(created, store::EnsureRound(db, {request.name, request.price,
                                                               request.target, opens, closes}));
    NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
    GraphChange change;
    change.AddNode(TokenNode(token));
    change.AddNode(RoundNode(created));
    change.AddLink(GraphLink{RoundNodeId(created.id), kTokenNodeId, kRoundOfLink});
    Result<std::optional<std::int64_t>> announced = change.Write(db);
    return announced.ok() ? Status::Ok() : announced.status();
  });
  if (!written.ok()) return written;
  return created;
}

Result<std::vector<store::RoundSchedule>> ListRounds(store::Connection& db) {
  return store::ListRounds(db);
}

Result<store::RoundRow> CloseRound(store::Connection& db, const std::string& name,
                                   const std::optional<std::string>& at) {
  const std::string closes = at ? InstantFromNow(*at) : "now";
  store::RoundRow closed;
  Status written = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::RoundRow> updated,
                              store::CloseRound(db, name, closes));
    if (updated) {
      closed = *updated;
      return Status::Ok();
    }
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<store::RoundRow> named, store::FindRound(db, name));
    if (!named) return Status::NotFound("no round named " + name);
    return Status::FailedPrecondition("the round " + name +
                                      " is not open then: it has not opened yet, or it closed");
  });
  if (!written.ok()) return written;
  return closed;
}

}  // namespace netgraph::domain
