#include "fcgi/pool/scoreboard.h"
#include "fcgi/pool/status_page.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>

#include "core/auth/token_refusal.h"
#include "core/telemetry.h"

namespace netgraph::fcgi {
namespace {

// The scoreboard as one process sees it: the master's reservation, then the "child" (this same
// process) attaching to the slot. Forking adds nothing to what is checked here.
// Shared memory for one scoreboard, as the master maps it (fcgi/pool/shared_memory.h).
std::unique_ptr<SharedMemory> MemoryForScoreboard() {
  return SharedMemory::Create(SharedMemory::Bytes({Scoreboard::SharedBytes()})).value();
}

std::unique_ptr<Scoreboard> AttachedScoreboard(SharedMemory& memory) {
  Result<std::unique_ptr<Scoreboard>> created = Scoreboard::Create(memory);
  EXPECT_TRUE(created.ok());
  std::unique_ptr<Scoreboard> scoreboard = std::move(created).value();
  const int slot = scoreboard->Reserve();
  EXPECT_GE(slot, 0);
  scoreboard->SetPid(slot, ::getpid());
  scoreboard->Attach(SlotState::kIdle);
  return scoreboard;
}

// What /metrics shows of `scoreboard` (fcgi/pool/status_page.h).
std::string MetricsOf(const Scoreboard& scoreboard) {
  PoolView pool;
  pool.scoreboard = &scoreboard;
  return PoolMetricsText(pool);
}

FinishedRequest Query(std::string_view root_field, std::chrono::milliseconds duration) {
  FinishedRequest request;
  request.kind = OperationKind::kQuery;
  request.root_field = root_field;
  request.outcome = "ok";
  request.duration = duration;
  return request;
}

TEST(ScoreboardTest, ABusyWorkerShowsItsRequestUntilItEnds) {
  std::unique_ptr<SharedMemory> memory = MemoryForScoreboard();
  std::unique_ptr<Scoreboard> scoreboard = AttachedScoreboard(*memory);
  scoreboard->BeginRequest("/graphql", "0123abcd");
  scoreboard->SetOperation(OperationKind::kMutation, "Claim", "claimVoucher");
  std::vector<SlotSnapshot> slots = scoreboard->Snapshot();
  ASSERT_EQ(slots.size(), 1u);
  EXPECT_EQ(slots[0].pid, ::getpid());
  EXPECT_EQ(slots[0].state, SlotState::kBusy);
  EXPECT_EQ(slots[0].kind, OperationKind::kMutation);
  EXPECT_EQ(slots[0].operation_name, "Claim");
  EXPECT_EQ(slots[0].root_fields, "claimVoucher");
  EXPECT_EQ(slots[0].request_id, "0123abcd");
  EXPECT_GT(slots[0].started_unix_ms, 0);

  FinishedRequest finished = Query("claimVoucher", std::chrono::milliseconds(3));
  finished.kind = OperationKind::kMutation;
  scoreboard->EndRequest(&finished);
  slots = scoreboard->Snapshot();
  EXPECT_EQ(slots[0].state, SlotState::kIdle);
  EXPECT_EQ(slots[0].requests_served, 1u);
}

TEST(ScoreboardTest, CountersOutliveTheProcessThatBumpedThem) {
  std::unique_ptr<SharedMemory> memory = MemoryForScoreboard();
  std::unique_ptr<Scoreboard> scoreboard = AttachedScoreboard(*memory);
  for (int i = 0; i < 3; ++i) {
    scoreboard->BeginRequest("/graphql", "id");
    FinishedRequest finished = Query("graphdbStatus", std::chrono::milliseconds(20));
    scoreboard->EndRequest(&finished);
  }
  auth::CountRefusal(auth::TokenRefusal::kExpired);
  // The worker dies; its replacement gets the same slot and counts on.
  scoreboard->Release(::getpid());
  EXPECT_TRUE(scoreboard->Snapshot().empty());
  const int slot = scoreboard->Reserve();
  scoreboard->SetPid(slot, ::getpid());
  scoreboard->Attach(SlotState::kIdle);
  scoreboard->BeginRequest("/graphql", "id");
  FinishedRequest finished = Query("graphdbStatus", std::chrono::seconds(20));
  scoreboard->EndRequest(&finished);

  const std::string text = MetricsOf(*scoreboard);
  EXPECT_NE(text.find("netgraph_graphql_requests_total{operation_type=\"query\",root_field="
                      "\"graphdbStatus\",outcome=\"ok\",code=\"\",status=\"200\"} 4\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("netgraph_jwt_refusals_total{reason=\"expired\"} 1\n"), std::string::npos);
  // Three requests in the 25 ms bucket; the 20 s one only in +Inf.
  EXPECT_NE(text.find("netgraph_graphql_request_duration_seconds_bucket{operation_type=\"query\","
                      "le=\"0.025\"} 3\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("netgraph_graphql_request_duration_seconds_bucket{operation_type=\"query\","
                      "le=\"10\"} 3\n"),
            std::string::npos);
  EXPECT_NE(
      text.find("netgraph_graphql_request_duration_seconds_count{operation_type=\"query\"} 4\n"),
      std::string::npos);
  EXPECT_NE(text.find("netgraph_pool_workers{state=\"idle\"} 1\n"), std::string::npos);
}

// Label sets that share their start, of every length modulo the 8 bytes a word of the slot holds,
// are told apart: each request is counted under its own set.
TEST(ScoreboardTest, LabelSetsThatShareAPrefixAreCountedApart) {
  std::unique_ptr<SharedMemory> memory = MemoryForScoreboard();
  std::unique_ptr<Scoreboard> scoreboard = AttachedScoreboard(*memory);
  for (int round = 0; round < 2; ++round) {
    for (std::size_t length = 1; length <= 17; ++length) {
      const std::string root_field(length, 'x');
      scoreboard->BeginRequest("/graphql", "id");
      const FinishedRequest finished = Query(root_field, std::chrono::milliseconds(1));
      scoreboard->EndRequest(&finished);
    }
  }
  const ScoreboardTotals totals = scoreboard->Totals();
  ASSERT_EQ(totals.requests.size(), 17u);
  for (const auto& [labels, count] : totals.requests) EXPECT_EQ(count, 2u) << labels;
  EXPECT_EQ(totals.requests_overflow, 0u);
}

TEST(ScoreboardTest, TheRelaysPassesMakeTheOutboxFigures) {
  std::unique_ptr<SharedMemory> memory = MemoryForScoreboard();
  Result<std::unique_ptr<Scoreboard>> created = Scoreboard::Create(*memory);
  ASSERT_TRUE(created.ok());
  std::unique_ptr<Scoreboard> scoreboard = std::move(created).value();
  EXPECT_EQ(MetricsOf(*scoreboard).find("netgraph_outbox_backlog"), std::string::npos)
      << "no relay, no backlog to report";
  scoreboard->SetPid(scoreboard->Reserve(), ::getpid());
  scoreboard->Attach(SlotState::kRelay);
  using std::chrono::microseconds;
  const microseconds first[] = {microseconds(3000), microseconds(40000)};
  scoreboard->RecordRelayPass(first, 7);
  const microseconds second[] = {microseconds(120 * 1000000)};
  scoreboard->RecordRelayPass(second, 0);

  const std::string text = MetricsOf(*scoreboard);
  EXPECT_NE(text.find("netgraph_outbox_published_total 3\n"), std::string::npos) << text;
  EXPECT_NE(text.find("netgraph_outbox_backlog 0\n"), std::string::npos) << "the last count";
  EXPECT_NE(text.find("netgraph_outbox_relay_lag_seconds_bucket{le=\"0.005\"} 1\n"),
            std::string::npos);
  EXPECT_NE(text.find("netgraph_outbox_relay_lag_seconds_bucket{le=\"0.05\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("netgraph_outbox_relay_lag_seconds_bucket{le=\"60\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("netgraph_outbox_relay_lag_seconds_bucket{le=\"300\"} 3\n"),
            std::string::npos);
  EXPECT_NE(text.find("netgraph_outbox_relay_lag_seconds_sum 120.043\n"), std::string::npos);
  EXPECT_NE(text.find("netgraph_outbox_relay_lag_seconds_count 3\n"), std::string::npos);
}

TEST(ScoreboardTest, AHistogramIsCumulativeWithItsSumAndCount) {
  const double bounds[] = {0.1, 1};
  EXPECT_EQ(telemetry::BucketIndex(bounds, 0.1), 0u) << "a bound is inclusive";
  EXPECT_EQ(telemetry::BucketIndex(bounds, 0.5), 1u);
  EXPECT_EQ(telemetry::BucketIndex(bounds, 7), 2u);
  const std::uint64_t counts[] = {2, 0, 1};
  std::string text;
  telemetry::AppendHistogram(text, "x_seconds", "kind=\"a\"", bounds, counts, 7.25);
  EXPECT_EQ(text,
            "x_seconds_bucket{kind=\"a\",le=\"0.1\"} 2\n"
            "x_seconds_bucket{kind=\"a\",le=\"1\"} 2\n"
            "x_seconds_bucket{kind=\"a\",le=\"+Inf\"} 3\n"
            "x_seconds_sum{kind=\"a\"} 7.25\n"
            "x_seconds_count{kind=\"a\"} 3\n");
}

}  // namespace
}  // namespace netgraph::fcgi
