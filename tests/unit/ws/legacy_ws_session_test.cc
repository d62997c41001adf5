#include <gtest/gtest.h>

#include <string>

#include "tests/unit/ws/session_fixture.h"
#include "ws/session.h"

namespace netgraph::ws {
namespace {

using testing::Shared;

class LegacyWsSessionTest : public ::testing::Test, protected testing::SessionFixture {
 protected:
  void SetUp() override { Open(Subprotocol::kGraphqlWs); }
  void Initialise() {
    Receive(R"({"type":"connection_init","payload":{}})");
    ASSERT_FALSE(peer_.closed);
    peer_.Clear();
  }
};

TEST_F(LegacyWsSessionTest, InitIsAcknowledgedThenKeptAlive) {
  Receive(R"({"type":"connection_init","payload":{}})");
  ASSERT_EQ(peer_.sent.size(), 2u);
  EXPECT_EQ(peer_.sent[0], R"({"type":"connection_ack"})");
  EXPECT_EQ(peer_.sent[1], R"({"type":"ka"})");
  ASSERT_TRUE(peer_.timer.has_value());
  EXPECT_EQ(*peer_.timer, options_.legacy_keepalive);
  peer_.Clear();
  session_->OnTimer();
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.sent[0], R"({"type":"ka"})");
  EXPECT_FALSE(peer_.closed);
}

TEST_F(LegacyWsSessionTest, NoInitWithinTheTimeoutCloses4408) {
  EXPECT_EQ(*peer_.timer, options_.init_timeout);
  session_->OnTimer();
  EXPECT_TRUE(peer_.closed);
  EXPECT_EQ(peer_.close_code, 4408);
}

TEST_F(LegacyWsSessionTest, InvalidJsonGetsConnectionErrorAndStaysOpen) {
  Receive("{nope");
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last()["type"], "connection_error");
  EXPECT_TRUE(peer_.Last()["payload"]["message"].is_string());
  EXPECT_FALSE(peer_.closed);
}

TEST_F(LegacyWsSessionTest, UnknownTypeGetsAnError) {
  Initialise();
  Receive(R"({"type":"subscribe","id":"1"})");
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last(),
            nlohmann::json::parse(
                R"({"id":"1","type":"error","payload":{"message":"Invalid message type!"}})"));
  EXPECT_FALSE(peer_.closed);
}

TEST_F(LegacyWsSessionTest, StartBeforeInitGetsAnError) {
  Receive(R"({"type":"start","id":"1","payload":{"query":"subscription { a }"}})");
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last()["type"], "error");
  EXPECT_EQ(peer_.Last()["id"], "1");
  EXPECT_TRUE(backend_.started.empty());
}

TEST_F(LegacyWsSessionTest, StartWithABadPayloadGetsAnError) {
  Initialise();
  Receive(R"({"type":"start","id":"1","payload":{"query":7}})");
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last()["type"], "error");
  // The reason HTTP gives for the same body (api::OperationRequest::FromJson).
  EXPECT_EQ(peer_.Last()["payload"]["message"],
            "Invalid start message: The \"query\" parameter must be a string");
  EXPECT_TRUE(backend_.started.empty());
}

TEST_F(LegacyWsSessionTest, SubscriptionResultsAreDataAndStopCompletes) {
  Initialise();
  Receive(R"({"type":"start","id":"1","payload":{"query":"subscription { a }"}})");
  ASSERT_EQ(backend_.started.size(), 1u);
  session_->OnNext("1", Shared(R"({"data":{"a":1}})"));
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last(),
            nlohmann::json::parse(R"({"id":"1","type":"data","payload":{"data":{"a":1}}})"));
  Receive(R"({"type":"stop","id":"1"})");
  EXPECT_EQ(backend_.stopped, std::vector<std::string>{"1"});
  EXPECT_EQ(peer_.Last(), nlohmann::json::parse(R"({"id":"1","type":"complete"})"));
}

TEST_F(LegacyWsSessionTest, QueryGetsDataThenComplete) {
  backend_.results["{ a }"] = {StartResult::Kind::kResult, {true, R"({"a":3})", {}}};
  Initialise();
  Receive(R"({"type":"start","id":"q","payload":{"query":"{ a }"}})");
  ASSERT_EQ(peer_.sent.size(), 2u);
  EXPECT_EQ(peer_.Message(0),
            nlohmann::json::parse(R"({"id":"q","type":"data","payload":{"data":{"a":3}}})"));
  EXPECT_EQ(peer_.Message(1), nlohmann::json::parse(R"({"id":"q","type":"complete"})"));
}

TEST_F(LegacyWsSessionTest, APendingQuerysResultIsDataThenComplete) {
  backend_.results["{ a }"] = {StartResult::Kind::kPending, {}};
  Initialise();
  Receive(R"({"type":"start","id":"q","payload":{"query":"{ a }"}})");
  EXPECT_TRUE(peer_.sent.empty());
  session_->OnResult("q", {StartResult::Kind::kResult, {true, R"({"a":3})", {}}});
  ASSERT_EQ(peer_.sent.size(), 2u);
  EXPECT_EQ(peer_.Message(0),
            nlohmann::json::parse(R"({"id":"q","type":"data","payload":{"data":{"a":3}}})"));
  EXPECT_EQ(peer_.Message(1), nlohmann::json::parse(R"({"id":"q","type":"complete"})"));
  // A stopped pending query gets its complete at once, and nothing when its result comes.
  Receive(R"({"type":"start","id":"r","payload":{"query":"{ a }"}})");
  Receive(R"({"type":"stop","id":"r"})");
  session_->OnResult("r", {StartResult::Kind::kResult, {true, R"({"a":3})", {}}});
  ASSERT_EQ(peer_.sent.size(), 3u);
  EXPECT_EQ(peer_.Message(2), nlohmann::json::parse(R"({"id":"r","type":"complete"})"));
}

TEST_F(LegacyWsSessionTest, RequestErrorsAreDataWithErrorsThenComplete) {
  backend_.results["subscription { nope }"] = {StartResult::Kind::kRequestError,
                                               {false, {}, R"([{"message":"bad"}])"}};
  Initialise();
  Receive(R"({"type":"start","id":"1","payload":{"query":"subscription { nope }"}})");
  ASSERT_EQ(peer_.sent.size(), 2u);
  EXPECT_EQ(peer_.Message(0),
            nlohmann::json::parse(
                R"({"id":"1","type":"data","payload":{"errors":[{"message":"bad"}]}})"));
  EXPECT_EQ(peer_.Message(1)["type"], "complete");
}

TEST_F(LegacyWsSessionTest, StartingARunningIdReplacesIt) {
  Initialise();
  Receive(R"({"type":"start","id":"1","payload":{"query":"subscription { a }"}})");
  Receive(R"({"type":"start","id":"1","payload":{"query":"subscription { b }"}})");
  EXPECT_EQ(backend_.stopped, std::vector<std::string>{"1"});
  EXPECT_EQ(backend_.started.size(), 2u);
  EXPECT_FALSE(peer_.closed);
}

TEST_F(LegacyWsSessionTest, RefusedTokenGetsConnectionErrorThenClose4403) {
  backend_.refused_token = "Bearer forged";
  Receive(R"({"type":"connection_init","payload":{"authToken":"forged"}})");
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last()["type"], "connection_error");
  EXPECT_TRUE(peer_.closed);
  EXPECT_EQ(peer_.close_code, 4403);
}

TEST_F(LegacyWsSessionTest, ConnectionTerminateClosesNormally) {
  Initialise();
  Receive(R"({"type":"connection_terminate"})");
  EXPECT_TRUE(peer_.closed);
  EXPECT_EQ(peer_.close_code, 1000);
}

}  // namespace
}  // namespace netgraph::ws
