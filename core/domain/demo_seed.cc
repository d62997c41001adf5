#include "core/domain/demo_seed.h"

#include "core/domain/graph_change.h"
#include "core/domain/internal/graph_ids.h"
#include "core/domain/user.h"
#include "core/domain/voucher.h"
#include "core/domain/voucher_admin.h"
#include "core/store/token.h"
#include "core/store/users.h"
#include "core/store/vouchers.h"

namespace netgraph::domain {
namespace {

constexpr std::string_view kDemoBatch = "demo";
constexpr std::string_view kInvestorBatch = "demo-investor";

Status SeedRoundsAndGraph(store::Connection& db) {
  return db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
    NETGRAPH_ASSIGN_OR_RETURN(
        store::RoundRow pre_seed,
        store::EnsureRound(
            db, {"Pre-Seed", "0.02", "100000", "2025-01-01T00:00:00Z", "2025-07-01T00:00:00Z"}));
    NETGRAPH_ASSIGN_OR_RETURN(
        store::RoundRow seed,
        store::EnsureRound(db, {"Seed", "0.05", "500000", "2025-07-01T00:00:00Z", std::nullopt}));

    GraphChange change;
    change.AddNode(TokenNode(token));
    change.AddNode(RoundNode(pre_seed));
    change.AddNode(RoundNode(seed));
    change.AddNode(GraphNode{"treasury", "Treasury", {"Treasury"}});
    change.AddNode(GraphNode{"liquidity-pool", "Pool", {"Pool", "Liquidity"}});
    change.AddLink(GraphLink{RoundNodeId(pre_seed.id), kTokenNodeId, kRoundOfLink});
    change.AddLink(GraphLink{RoundNodeId(seed.id), kTokenNodeId, kRoundOfLink});
    change.AddLink(GraphLink{"treasury", kTokenNodeId, "ISSUES"});
    change.AddLink(GraphLink{"liquidity-pool", kTokenNodeId, "TRADES"});
    Result<std::optional<std::int64_t>> written = change.Write(db);
    return written.ok() ? Status::Ok() : written.status();
  });
}

// Issues `count` vouchers of `batch` in the current round, without expiry.
Result<std::vector<Voucher>> Issue(store::Connection& db, std::string_view batch, int count,
                                   const char* amount) {
  IssueRequest request;
  request.amount = amount;
  request.count = count;
  request.batch = std::string(batch);
  return IssueVouchers(db, request);
}

Status SeedInvestor(store::Connection& db) {
  Outcome<User> investor = UserForPrincipal(
      db, Principal{std::string(kDemoInvestorDid), std::string(kDemoInvestorEmail), false});
  if (const Status* error = investor.error()) return *error;
  NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::VoucherRow> owned,
                            store::UserVouchers(db, investor->id));
  if (!owned.empty()) return Status::Ok();
  NETGRAPH_ASSIGN_OR_RETURN(std::vector<Voucher> issued, Issue(db, kInvestorBatch, 1, "2500"));
  Outcome<Voucher> claimed =
      ClaimVoucher(db, ClaimPolicy{}, investor.value(), issued.front().code, kDemoInvestorWallet);
  if (const Status* error = claimed.error()) return *error;
  if (claimed.failure()) {
    return Status::Internal("claiming the demo investor's voucher: " +
                            std::string(FailureText(*claimed.failure())));
  }
  return Status::Ok();
}

}  // namespace

Result<DemoSeed> SeedDemo(store::Connection& db) {
  NETGRAPH_RETURN_IF_ERROR(SeedRoundsAndGraph(db));
  NETGRAPH_RETURN_IF_ERROR(SeedInvestor(db));
  NETGRAPH_RETURN_IF_ERROR(GrantAdmin(db, kDemoAdminDid));

  Result<std::vector<store::VoucherRow>> available =
      store::AvailableVouchersInBatch(db, kDemoBatch);
  NETGRAPH_RETURN_IF_ERROR(available);
  const int missing = kDemoVoucherCount - static_cast<int>(available->size());
  if (missing > 0) {
    NETGRAPH_RETURN_IF_ERROR(Issue(db, kDemoBatch, missing, "100"));
    available = store::AvailableVouchersInBatch(db, kDemoBatch);
    NETGRAPH_RETURN_IF_ERROR(available);
  }
  NETGRAPH_ASSIGN_OR_RETURN(store::TokenRow token, store::ReadToken(db));
  DemoSeed seed;
  for (const store::VoucherRow& row : *available) {
    seed.available_codes.push_back(VoucherFromRow(row, token.decimals).code);
  }
  return seed;
}

}  // namespace netgraph::domain
