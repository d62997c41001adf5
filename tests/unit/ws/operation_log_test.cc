// What a session tells its peer of each operation for the operation's log line (ws/session.h,
// OperationLog; written under the connection's trace by ws/access_log.h): in both protocols.
#include <gtest/gtest.h>

#include <chrono>
#include <regex>
#include <string>

#include "tests/unit/ws/session_fixture.h"
#include "ws/session.h"

namespace netgraph::ws {
namespace {

using std::chrono::milliseconds;

constexpr char kToken[] = "Bearer short-lived";

bool IsSpanId(const std::string& text) {
  return std::regex_match(text, std::regex("[0-9a-f]{16}")) && text != std::string(16, '0');
}

class OperationLogTest : public ::testing::TestWithParam<Subprotocol>,
                         protected testing::SessionFixture {
 protected:
  void SetUp() override {
    options_.operations_per_second = 1;
    options_.operations_burst = 4;
    backend_.expiry[kToken] = backend_.now + std::chrono::seconds(5);
    Open(GetParam());
  }
  void Operate(const std::string& id, const std::string& query) {
    Start(id, {{"query", query}, {"operationName", "Named"}});
  }
};

TEST_P(OperationLogTest, EachOperationIsLoggedWithASpanOfItsOwn) {
  backend_.results["query { a }"] = {StartResult::Kind::kResult,
                                     {true, R"({"a":null})", R"([{"message":"x"}])", {"CODE_A"}}};
  backend_.results["{ nope }"] = {StartResult::Kind::kRequestError,
                                  {false, {}, R"([{"message":"no"}])", {"CODE_B"}}};
  Initialise("");
  Operate("s", "subscription { a }");
  Operate("q", "query { a }");
  Operate("e", "{ nope }");
  ASSERT_EQ(peer_.logged.size(), 3u);
  const OperationLog& subscribed = peer_.logged[0];
  EXPECT_EQ(subscribed.id, "s");
  EXPECT_EQ(subscribed.operation_name, "Named");
  EXPECT_EQ(subscribed.outcome, "subscribed");
  EXPECT_FALSE(subscribed.duration.has_value());
  EXPECT_EQ(peer_.logged[1].outcome, "result");
  EXPECT_EQ(peer_.logged[1].error_codes, (std::vector<std::string>{"CODE_A"}));
  EXPECT_EQ(peer_.logged[2].outcome, "error");
  EXPECT_EQ(peer_.logged[2].error_codes, (std::vector<std::string>{"CODE_B"}));
  for (const OperationLog& line : peer_.logged) {
    EXPECT_TRUE(IsSpanId(line.span_id)) << line.span_id;
    EXPECT_EQ(line.closed_with, 0);
  }
  EXPECT_NE(peer_.logged[0].span_id, peer_.logged[1].span_id);
  EXPECT_NE(peer_.logged[1].span_id, peer_.logged[2].span_id);
}

TEST_P(OperationLogTest, APendingOperationIsLoggedOnceWithItsOutcomeAndDuration) {
  backend_.results["{ a }"] = {StartResult::Kind::kPending, {}};
  Initialise("");
  Operate("q", "{ a }");
  EXPECT_TRUE(peer_.logged.empty());
  backend_.now += milliseconds(250);
  session_->OnResult("q", {StartResult::Kind::kResult, {true, R"({"a":1})", {}}});
  ASSERT_EQ(peer_.logged.size(), 1u);
  EXPECT_EQ(peer_.logged[0].id, "q");
  EXPECT_EQ(peer_.logged[0].operation_name, "Named");
  EXPECT_EQ(peer_.logged[0].outcome, "result");
  EXPECT_EQ(peer_.logged[0].duration, milliseconds(250));
  EXPECT_TRUE(IsSpanId(peer_.logged[0].span_id));
}

TEST_P(OperationLogTest, ASubscriptionsLaterFailureCarriesTheSpanOfItsStart) {
  Initialise("");
  Operate("s", "subscription { a }");
  backend_.now += milliseconds(40);
  session_->OnFailed("s", graphql::ExecutionResult{false, {}, R"([{"message":"boom"}])"});
  ASSERT_EQ(peer_.logged.size(), 2u);
  EXPECT_EQ(peer_.logged[1].outcome, "error");
  EXPECT_EQ(peer_.logged[1].span_id, peer_.logged[0].span_id);
  EXPECT_EQ(peer_.logged[1].duration, milliseconds(40));
}

TEST_P(OperationLogTest, AStoppedOperationLogsNothingLater) {
  backend_.results["{ a }"] = {StartResult::Kind::kPending, {}};
  Initialise("");
  Operate("q", "{ a }");
  const char* stop = legacy() ? "stop" : "complete";
  Receive(nlohmann::json{{"type", stop}, {"id", "q"}}.dump());
  session_->OnResult("q", {StartResult::Kind::kResult, {true, R"({"a":1})", {}}});
  EXPECT_TRUE(peer_.logged.empty());
}

TEST_P(OperationLogTest, AnOperationPastTheRateIsLoggedRefusedWith4429) {
  Initialise("");
  for (int i = 0; i < 5; ++i) Operate("s" + std::to_string(i), "subscription { a }");
  ASSERT_EQ(peer_.logged.size(), 5u);
  EXPECT_EQ(peer_.logged[4].id, "s4");
  EXPECT_EQ(peer_.logged[4].outcome, "refused");
  EXPECT_EQ(peer_.logged[4].closed_with, 4429);
  EXPECT_TRUE(IsSpanId(peer_.logged[4].span_id));
}

TEST_P(OperationLogTest, AnOperationOnAnExpiredTokenIsLoggedRefusedWith4403) {
  Initialise(kToken);
  backend_.now += std::chrono::seconds(5);
  Operate("q", "{ a }");
  ASSERT_EQ(peer_.logged.size(), 1u);
  EXPECT_EQ(peer_.logged[0].outcome, "refused");
  EXPECT_EQ(peer_.logged[0].closed_with, 4403);
}

INSTANTIATE_TEST_SUITE_P(BothProtocols, OperationLogTest,
                         ::testing::Values(Subprotocol::kGraphqlTransportWs,
                                           Subprotocol::kGraphqlWs));

}  // namespace
}  // namespace netgraph::ws
