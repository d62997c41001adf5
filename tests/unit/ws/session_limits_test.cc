// The limits a session enforces over a connection's life, in both protocols: a token is honoured
// only until it expires (exp plus leeway), and a connection may start operations only at its rate.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "tests/unit/ws/session_fixture.h"
#include "ws/session.h"

namespace netgraph::ws {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;
using testing::Shared;

constexpr char kToken[] = "Bearer short-lived";

TEST(TokenBucketTest, AllowsTheBurstThenTheRate) {
  std::chrono::steady_clock::time_point now;
  TokenBucket bucket(2, 3, now);
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(bucket.Take(now)) << i;
  EXPECT_FALSE(bucket.Take(now));
  now += milliseconds(499);
  EXPECT_FALSE(bucket.Take(now));
  now += milliseconds(1);
  EXPECT_TRUE(bucket.Take(now));
  EXPECT_FALSE(bucket.Take(now));
  now += seconds(60);  // refills up to the burst, not beyond
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(bucket.Take(now)) << i;
  EXPECT_FALSE(bucket.Take(now));
}

// Each test runs for both protocols.
class SessionLimitsTest : public ::testing::TestWithParam<Subprotocol>,
                          protected testing::SessionFixture {
 protected:
  void SetUp() override {
    options_.operations_per_second = 2;
    options_.operations_burst = 5;
    backend_.expiry[kToken] = backend_.now + seconds(5);
    Open(GetParam());
  }
  // Initialised, and what that sent cleared.
  void Initialise(const std::string& authorization) {
    SessionFixture::Initialise(authorization);
    peer_.Clear();
  }
  void Operate(const std::string& id, const std::string& query) { Start(id, {{"query", query}}); }
  // Closed with `code` and `reason`; the legacy protocol says why in a connection_error first.
  void ExpectClosed(int code, const std::string& reason) {
    EXPECT_TRUE(peer_.closed);
    EXPECT_EQ(peer_.close_code, code);
    EXPECT_EQ(peer_.close_reason, reason);
    if (legacy()) {
      ASSERT_FALSE(peer_.sent.empty());
      EXPECT_EQ(peer_.Last(),
                (nlohmann::json{{"type", "connection_error"}, {"payload", {{"message", reason}}}}));
    }
  }
};

TEST_P(SessionLimitsTest, TheTimerIsSetForTheTokensExpiry) {
  Initialise(kToken);
  ASSERT_TRUE(peer_.timer.has_value());
  // The legacy keep-alive (12 s) comes later than the expiry: the expiry wins.
  EXPECT_EQ(*peer_.timer, seconds(5));
}

TEST_P(SessionLimitsTest, AnExpiredTokenClosesTheConnection4403) {
  Initialise(kToken);
  Operate("s", "subscription { a }");
  ASSERT_EQ(session_->running().size(), 1u);
  backend_.now += seconds(5);
  session_->OnTimer();
  ExpectClosed(4403, "Forbidden: token expired");
}

TEST_P(SessionLimitsTest, AnEarlyTimerIsSetAgainForTheRestOfTheValidity) {
  Initialise(kToken);
  backend_.now += seconds(4);
  peer_.timer.reset();
  session_->OnTimer();
  EXPECT_FALSE(peer_.closed);
  ASSERT_TRUE(peer_.timer.has_value());
  EXPECT_EQ(*peer_.timer, seconds(1));
}

TEST_P(SessionLimitsTest, NoOperationRunsOnAnExpiredToken) {
  Initialise(kToken);
  backend_.now += seconds(6);  // the timer has not fired yet
  Operate("q", "{ getUserPortfolio { success } }");
  EXPECT_TRUE(backend_.started.empty());
  ExpectClosed(4403, "Forbidden: token expired");
}

TEST_P(SessionLimitsTest, NoResultIsDeliveredOnAnExpiredToken) {
  Initialise(kToken);
  Operate("s", "subscription { a }");
  backend_.now += seconds(5);
  session_->OnNext("s", Shared(R"({"data":{"a":1}})"));
  ExpectClosed(4403, "Forbidden: token expired");
  for (const std::string& sent : peer_.sent) EXPECT_EQ(sent.find(R"("a":1)"), std::string::npos);
}

TEST_P(SessionLimitsTest, EveryOperationVerifiesTheTokenAgain) {
  Initialise(kToken);
  backend_.authorizations.clear();
  Operate("1", "{ a }");
  Operate("2", "{ b }");
  EXPECT_EQ(backend_.authorizations, (std::vector<std::string>{kToken, kToken}));
  ASSERT_EQ(backend_.started.size(), 2u);
  EXPECT_EQ(backend_.started[1].authorization, kToken);
}

TEST_P(SessionLimitsTest, ATokenRefusedLaterClosesTheConnection4403) {
  Initialise(kToken);
  backend_.refused_token = kToken;  // for example its signing key was withdrawn
  Operate("q", "{ a }");
  EXPECT_TRUE(backend_.started.empty());
  ExpectClosed(4403, "Forbidden");
}

TEST_P(SessionLimitsTest, AnonymousConnectionsDoNotExpire) {
  Initialise("");
  backend_.now += std::chrono::hours(24 * 365);
  Operate("q", "{ a }");
  EXPECT_FALSE(peer_.closed);
  EXPECT_EQ(backend_.started.size(), 1u);
}

TEST_P(SessionLimitsTest, PassingTheOperationRateCloses4429) {
  Initialise("");
  for (int i = 0; i < 5; ++i) Operate("q" + std::to_string(i), "{ a }");
  EXPECT_FALSE(peer_.closed);
  Operate("q5", "{ a }");
  EXPECT_EQ(backend_.started.size(), 5u);
  ExpectClosed(4429, "Too many operations");
}

TEST_P(SessionLimitsTest, TheRateRefillsOverTime) {
  Initialise("");
  for (int i = 0; i < 5; ++i) Operate("q" + std::to_string(i), "{ a }");
  for (int i = 0; i < 10; ++i) {
    backend_.now += milliseconds(500);  // 2 a second
    Operate("r" + std::to_string(i), "{ a }");
  }
  EXPECT_FALSE(peer_.closed);
  EXPECT_EQ(backend_.started.size(), 15u);
}

std::string ProtocolName(const ::testing::TestParamInfo<Subprotocol>& protocol) {
  return protocol.param == Subprotocol::kGraphqlWs ? "Legacy" : "Transport";
}

INSTANTIATE_TEST_SUITE_P(BothProtocols, SessionLimitsTest,
                         ::testing::Values(Subprotocol::kGraphqlTransportWs,
                                           Subprotocol::kGraphqlWs),
                         ProtocolName);

}  // namespace
}  // namespace netgraph::ws
