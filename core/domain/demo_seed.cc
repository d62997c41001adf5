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
    Result<store::TokenRow> token = store::ReadToken(db);
    if (!token.ok()) return token.status();
    Result<store::RoundRow> pre_seed = store::EnsureRound(
        db, {"Pre-Seed", "0.02", "100000", "2025-01-01T00:00:00Z", "2025-07-01T00:00:00Z"});
    if (!pre_seed.ok()) return pre_seed.status();
    Result<store::RoundRow> seed =
        store::EnsureRound(db, {"Seed", "0.05", "500000", "2025-07-01T00:00:00Z", std::nullopt});
    if (!seed.ok()) return seed.status();

    GraphChange change;
    change.AddNode(TokenNode(*token));
    change.AddNode(RoundNode(*pre_seed));
    change.AddNode(RoundNode(*seed));
    change.AddNode(GraphNode{"treasury", "Treasury", {"Treasury"}});
    change.AddNode(GraphNode{"liquidity-pool", "Pool", {"Pool", "Liquidity"}});
    change.AddLink(GraphLink{RoundNodeId(pre_seed->id), kTokenNodeId, kRoundOfLink});
    change.AddLink(GraphLink{RoundNodeId(seed->id), kTokenNodeId, kRoundOfLink});
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
  Result<std::vector<store::VoucherRow>> owned = store::UserVouchers(db, investor->id);
  if (!owned.ok()) return owned.status();
  if (!owned->empty()) return Status::Ok();
  Result<std::vector<Voucher>> issued = Issue(db, kInvestorBatch, 1, "2500");
  if (!issued.ok()) return issued.status();
  Outcome<Voucher> claimed =
      ClaimVoucher(db, ClaimPolicy{}, investor.value(), issued->front().code, kDemoInvestorWallet);
  if (const Status* error = claimed.error()) return *error;
  if (claimed.failure()) {
    return Status::Error("claiming the demo investor's voucher: " +
                         std::string(FailureText(*claimed.failure())));
  }
  return Status::Ok();
}

}  // namespace

Result<DemoSeed> SeedDemo(store::Connection& db) {
  if (Status s = SeedRoundsAndGraph(db); !s.ok()) return s;
  if (Status s = SeedInvestor(db); !s.ok()) return s;
  if (Result<User> admin = GrantAdmin(db, kDemoAdminDid); !admin.ok()) return admin.status();

  Result<std::vector<store::VoucherRow>> available =
      store::AvailableVouchersInBatch(db, kDemoBatch);
  if (!available.ok()) return available.status();
  const int missing = kDemoVoucherCount - static_cast<int>(available->size());
  if (missing > 0) {
    if (Result<std::vector<Voucher>> issued = Issue(db, kDemoBatch, missing, "100"); !issued.ok()) {
      return issued.status();
    }
    available = store::AvailableVouchersInBatch(db, kDemoBatch);
    if (!available.ok()) return available.status();
  }
  Result<store::TokenRow> token = store::ReadToken(db);
  if (!token.ok()) return token.status();
  DemoSeed seed;
  for (const store::VoucherRow& row : *available) {
    seed.available_codes.push_back(VoucherFromRow(row, token->decimals).code);
  }
  return seed;
}

}  // namespace netgraph::domain
