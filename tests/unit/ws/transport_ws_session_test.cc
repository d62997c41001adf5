#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/api/operation_request.h"
#include "tests/unit/ws/session_fixture.h"
#include "ws/session.h"

namespace netgraph::ws {
namespace {

using testing::FakeBackend;
using testing::FakePeer;
using testing::Shared;

class TransportWsSessionTest : public ::testing::Test, protected testing::SessionFixture {
 protected:
  void SetUp() override {
    options_.max_operations = 3;
    Open();
  }
  void Open(std::string upgrade_authorization = "") {
    SessionFixture::Open(Subprotocol::kGraphqlTransportWs, std::move(upgrade_authorization));
  }
  void Acknowledge() {
    Receive(R"({"type":"connection_init"})");
    ASSERT_FALSE(peer_.closed);
    ASSERT_EQ(peer_.Last(), (nlohmann::json{{"type", "connection_ack"}}));
    peer_.Clear();
  }
  void ExpectClosed(int code, const std::string& reason) {
    EXPECT_TRUE(peer_.closed);
    EXPECT_EQ(peer_.close_code, code);
    EXPECT_EQ(peer_.close_reason, reason);
  }
  void ExpectBadRequest() {
    EXPECT_TRUE(peer_.closed);
    EXPECT_EQ(peer_.close_code, 4400);
  }
};

TEST_F(TransportWsSessionTest, OpeningArmsTheInitialisationTimer) {
  ASSERT_TRUE(peer_.timer.has_value());
  EXPECT_EQ(*peer_.timer, options_.init_timeout);
}

TEST_F(TransportWsSessionTest, InitIsAcknowledgedWithoutPayload) {
  Receive(R"({"type":"connection_init","payload":{}})");
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.sent[0], R"({"type":"connection_ack"})");
  EXPECT_FALSE(peer_.closed);
}

TEST_F(TransportWsSessionTest, NoInitWithinTheTimeoutCloses4408) {
  session_->OnTimer();
  ExpectClosed(4408, "Connection initialisation timeout");
}

TEST_F(TransportWsSessionTest, TimerAfterInitDoesNothing) {
  Acknowledge();
  session_->OnTimer();
  EXPECT_FALSE(peer_.closed);
  EXPECT_TRUE(peer_.sent.empty());
}

TEST_F(TransportWsSessionTest, SecondInitCloses4429) {
  Acknowledge();
  Receive(R"({"type":"connection_init"})");
  ExpectClosed(4429, "Too many initialisation requests");
}

TEST_F(TransportWsSessionTest, SubscribeBeforeAckCloses4401) {
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { a }"}})");
  ExpectClosed(4401, "Unauthorized");
  EXPECT_TRUE(backend_.started.empty());
}

TEST_F(TransportWsSessionTest, InvalidJsonCloses4400) {
  Receive("{not json");
  ExpectBadRequest();
}

TEST_F(TransportWsSessionTest, DeeplyNestedJsonCloses4400) {
  Receive(R"({"type":"ping","payload":)" + std::string(100, '[') + std::string(100, ']') + "}");
  ExpectBadRequest();
}

TEST_F(TransportWsSessionTest, NonObjectCloses4400) {
  Receive(R"(["connection_init"])");
  ExpectBadRequest();
}

TEST_F(TransportWsSessionTest, MissingTypeCloses4400) {
  Receive(R"({"id":"1"})");
  ExpectBadRequest();
}

TEST_F(TransportWsSessionTest, UnknownTypeCloses4400NamingIt) {
  Receive(R"({"type":"subscribe_please"})");
  ExpectClosed(4400, "Invalid message type \"subscribe_please\"");
}

TEST_F(TransportWsSessionTest, ServerOnlyTypesFromTheClientClose4400) {
  Acknowledge();
  Receive(R"({"type":"next","id":"1","payload":{}})");
  ExpectClosed(4400, "Unexpected message of type next from a client");
}

TEST_F(TransportWsSessionTest, InitWithAnArrayPayloadCloses4400) {
  Receive(R"({"type":"connection_init","payload":[1]})");
  ExpectBadRequest();
}

TEST_F(TransportWsSessionTest, SubscribeShapesAreChecked) {
  for (const char* bad : {
           R"({"type":"subscribe","payload":{"query":"{a}"}})",
           R"({"type":"subscribe","id":"","payload":{"query":"{a}"}})",
           R"({"type":"subscribe","id":7,"payload":{"query":"{a}"}})",
           R"({"type":"subscribe","id":"1"})",
           R"({"type":"subscribe","id":"1","payload":{"query":1}})",
           R"({"type":"subscribe","id":"1","payload":{"query":"{a}","variables":[]}})",
           R"({"type":"subscribe","id":"1","payload":{"query":"{a}","operationName":2}})",
           R"({"type":"subscribe","id":"1","payload":{"query":"{a}","extensions":"x"}})",
       }) {
    FakePeer peer;
    FakeBackend backend;
    auto session = Session::Create(Subprotocol::kGraphqlTransportWs, peer, backend, options_, "");
    session->OnMessage(R"({"type":"connection_init"})");
    session->OnMessage(bad);
    EXPECT_TRUE(peer.closed) << bad;
    EXPECT_EQ(peer.close_code, 4400) << bad;
    EXPECT_TRUE(backend.started.empty()) << bad;
  }
}

// One parse of the operation request for both daemons: a payload HTTP would refuse is refused
// here for the same reason (api::OperationRequest::FromJson), and one it accepts is passed on.
TEST_F(TransportWsSessionTest, SubscribePayloadsAreParsedAsHttpBodiesAre) {
  for (const char* payload : {
           R"({"variables":{}})",
           R"({"query":null})",
           R"({"query":1})",
           R"({"query":"{a}","variables":[]})",
           R"({"query":"{a}","operationName":2})",
           R"({"query":"{a}","extensions":"x"})",
       }) {
    Result<api::OperationRequest> http =
        api::OperationRequest::FromJson(nlohmann::json::parse(payload));
    ASSERT_FALSE(http.ok()) << payload;
    FakePeer peer;
    FakeBackend backend;
    auto session = Session::Create(Subprotocol::kGraphqlTransportWs, peer, backend, options_, "");
    session->OnMessage(R"({"type":"connection_init"})");
    session->OnMessage(std::string(R"({"type":"subscribe","id":"1","payload":)") + payload + "}");
    EXPECT_EQ(peer.close_code, 4400) << payload;
    EXPECT_EQ(peer.close_reason, "Invalid message received: " + http.status().message());
  }
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"{a}","operationName":null,)"
          R"("variables":null,"extensions":{"x":1}}})");
  ASSERT_EQ(backend_.started.size(), 1u);
  EXPECT_EQ(backend_.started[0].query, "{a}");
  EXPECT_EQ(backend_.started[0].operation_name, std::nullopt);
  EXPECT_TRUE(backend_.started[0].variables.is_null());
}

TEST_F(TransportWsSessionTest, SubscribePassesTheRequestToTheBackend) {
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"s1","payload":{"query":"subscription S { a }",)"
          R"("operationName":"S","variables":{"x":1},"extensions":null}})");
  ASSERT_EQ(backend_.started.size(), 1u);
  EXPECT_EQ(backend_.started[0].id, "s1");
  EXPECT_EQ(backend_.started[0].query, "subscription S { a }");
  EXPECT_EQ(backend_.started[0].operation_name, "S");
  EXPECT_EQ(backend_.started[0].variables, (nlohmann::json{{"x", 1}}));
  EXPECT_EQ(session_->running().count("s1"), 1u);
  EXPECT_TRUE(peer_.sent.empty());  // results come later, through OnNext
}

TEST_F(TransportWsSessionTest, DuplicateRunningIdCloses4409) {
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { a }"}})");
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { a }"}})");
  ExpectClosed(4409, "Subscriber for 1 already exists");
}

TEST_F(TransportWsSessionTest, DuplicateLongIdGetsAShortReason) {
  Acknowledge();
  std::string id(200, 'x');
  std::string subscribe =
      R"({"type":"subscribe","id":")" + id + R"(","payload":{"query":"subscription { a }"}})";
  Receive(subscribe);
  Receive(subscribe);
  ExpectClosed(4409, "Subscriber already exists");
}

TEST_F(TransportWsSessionTest, ResultsOfASubscriptionAreNextMessages) {
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { a }"}})");
  session_->OnNext("1", Shared(R"({"data":{"a":1}})"));
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last(),
            nlohmann::json::parse(R"({"id":"1","type":"next","payload":{"data":{"a":1}}})"));
}

TEST_F(TransportWsSessionTest, ClientCompleteStopsDeliveryAndFreesTheId) {
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { a }"}})");
  Receive(R"({"type":"complete","id":"1"})");
  ASSERT_EQ(backend_.stopped, std::vector<std::string>{"1"});
  session_->OnNext("1", Shared(R"({"data":{"a":1}})"));
  EXPECT_TRUE(peer_.sent.empty());
  // The id may be used again.
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { a }"}})");
  EXPECT_FALSE(peer_.closed);
  EXPECT_EQ(backend_.started.size(), 2u);
}

TEST_F(TransportWsSessionTest, CompleteForAnUnknownIdIsIgnored) {
  Acknowledge();
  Receive(R"({"type":"complete","id":"nope"})");
  EXPECT_FALSE(peer_.closed);
  EXPECT_TRUE(backend_.stopped.empty());
}

TEST_F(TransportWsSessionTest, CompleteWithoutIdCloses4400) {
  Acknowledge();
  Receive(R"({"type":"complete"})");
  ExpectBadRequest();
}

TEST_F(TransportWsSessionTest, QueryGetsOneNextThenComplete) {
  backend_.results["{ a }"] = {StartResult::Kind::kResult, {true, R"({"a":2})", {}}};
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"q","payload":{"query":"{ a }"}})");
  ASSERT_EQ(peer_.sent.size(), 2u);
  EXPECT_EQ(peer_.Message(0),
            nlohmann::json::parse(R"({"id":"q","type":"next","payload":{"data":{"a":2}}})"));
  EXPECT_EQ(peer_.Message(1), nlohmann::json::parse(R"({"id":"q","type":"complete"})"));
  EXPECT_TRUE(session_->running().empty());
}

TEST_F(TransportWsSessionTest, APendingQueryRunsUntilItsResultArrives) {
  backend_.results["{ a }"] = {StartResult::Kind::kPending, {}};
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"q","payload":{"query":"{ a }"}})");
  EXPECT_TRUE(peer_.sent.empty());
  EXPECT_EQ(session_->running().count("q"), 1u);
  // The id is taken while the query runs.
  Receive(R"({"type":"subscribe","id":"q","payload":{"query":"{ a }"}})");
  ExpectClosed(4409, "Subscriber for q already exists");
}

TEST_F(TransportWsSessionTest, APendingQuerysResultIsOneNextThenComplete) {
  backend_.results["{ a }"] = {StartResult::Kind::kPending, {}};
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"q","payload":{"query":"{ a }"}})");
  session_->OnResult("q", {StartResult::Kind::kResult, {true, R"({"a":2})", {}}});
  ASSERT_EQ(peer_.sent.size(), 2u);
  EXPECT_EQ(peer_.Message(0),
            nlohmann::json::parse(R"({"id":"q","type":"next","payload":{"data":{"a":2}}})"));
  EXPECT_EQ(peer_.Message(1), nlohmann::json::parse(R"({"id":"q","type":"complete"})"));
  EXPECT_TRUE(session_->running().empty());
}

TEST_F(TransportWsSessionTest, APendingQueryCompletedByTheClientSendsNothingLater) {
  backend_.results["{ a }"] = {StartResult::Kind::kPending, {}};
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"q","payload":{"query":"{ a }"}})");
  Receive(R"({"type":"complete","id":"q"})");
  EXPECT_EQ(backend_.stopped, (std::vector<std::string>{"q"}));
  session_->OnResult("q", {StartResult::Kind::kResult, {true, R"({"a":2})", {}}});
  EXPECT_TRUE(peer_.sent.empty());
}

TEST_F(TransportWsSessionTest, RequestErrorIsAnErrorMessageWithoutComplete) {
  backend_.results["subscription { nope }"] = {
      StartResult::Kind::kRequestError,
      {false,
       {},
       R"([{"message":"Cannot query field \"nope\"","locations":[{"line":1,"column":16}]}])"}};
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { nope }"}})");
  ASSERT_EQ(peer_.sent.size(), 1u);
  nlohmann::json error = peer_.Last();
  EXPECT_EQ(error["type"], "error");
  EXPECT_EQ(error["id"], "1");
  ASSERT_TRUE(error["payload"].is_array());
  EXPECT_EQ(error["payload"][0]["message"], "Cannot query field \"nope\"");
  EXPECT_FALSE(peer_.closed);
  EXPECT_TRUE(session_->running().empty());
}

TEST_F(TransportWsSessionTest, TooManySubscriptionsGetAnError) {
  Acknowledge();
  for (int i = 0; i < 3; ++i) {
    Receive(R"({"type":"subscribe","id":")" + std::to_string(i) +
            R"(","payload":{"query":"subscription { a }"}})");
  }
  Receive(R"({"type":"subscribe","id":"3","payload":{"query":"subscription { a }"}})");
  EXPECT_EQ(backend_.started.size(), 3u);
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last()["type"], "error");
  EXPECT_EQ(peer_.Last()["id"], "3");
  EXPECT_NE(peer_.Last()["payload"][0]["message"].get<std::string>().find("limit is 3"),
            std::string::npos);
  EXPECT_FALSE(peer_.closed);
}

TEST_F(TransportWsSessionTest, PingIsAnsweredWithItsPayload) {
  Receive(R"({"type":"ping","payload":{"t":42}})");
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last(), nlohmann::json::parse(R"({"type":"pong","payload":{"t":42}})"));
}

TEST_F(TransportWsSessionTest, PingWithoutPayloadGetsPongWithoutPayload) {
  Acknowledge();
  Receive(R"({"type":"ping"})");
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.sent[0], R"({"type":"pong"})");
}

TEST_F(TransportWsSessionTest, PongNeedsNoAnswer) {
  Receive(R"({"type":"pong","payload":{"t":1}})");
  EXPECT_TRUE(peer_.sent.empty());
  EXPECT_FALSE(peer_.closed);
}

TEST_F(TransportWsSessionTest, RefusedTokenCloses4403) {
  backend_.refused_token = "Bearer forged";
  Receive(R"({"type":"connection_init","payload":{"Authorization":"Bearer forged"}})");
  ExpectClosed(4403, "Forbidden");
  EXPECT_TRUE(peer_.sent.empty());
}

TEST_F(TransportWsSessionTest, NonStringTokenIsRefused) {
  Receive(R"({"type":"connection_init","payload":{"authToken":5}})");
  ExpectClosed(4403, "Forbidden");
}

TEST_F(TransportWsSessionTest, AuthTokenBecomesABearerAuthorization) {
  Receive(R"({"type":"connection_init","payload":{"authToken":"abc"}})");
  ASSERT_EQ(backend_.authorizations, std::vector<std::string>{"Bearer abc"});
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"{ a }"}})");
  ASSERT_EQ(backend_.started.size(), 1u);
  EXPECT_EQ(backend_.started[0].authorization, "Bearer abc");
}

TEST_F(TransportWsSessionTest, TheUpgradeHeaderIsUsedWhenThePayloadHasNoToken) {
  Open("Bearer from-header");
  Receive(R"({"type":"connection_init","payload":{"other":1}})");
  EXPECT_EQ(backend_.authorizations, std::vector<std::string>{"Bearer from-header"});
}

TEST_F(TransportWsSessionTest, ThePayloadTokenWinsOverTheUpgradeHeader) {
  Open("Bearer from-header");
  Receive(R"({"type":"connection_init","payload":{"authorization":"Bearer from-payload"}})");
  EXPECT_EQ(backend_.authorizations, std::vector<std::string>{"Bearer from-payload"});
}

TEST_F(TransportWsSessionTest, FailedSubscriptionSendsErrorAndEndsTheId) {
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { a }"}})");
  session_->OnFailed("1", graphql::ExecutionResult{false, {}, R"([{"message":"boom"}])"});
  ASSERT_EQ(peer_.sent.size(), 1u);
  EXPECT_EQ(peer_.Last(),
            nlohmann::json::parse(R"({"id":"1","type":"error","payload":[{"message":"boom"}]})"));
  EXPECT_TRUE(session_->running().empty());
  EXPECT_TRUE(backend_.stopped.empty());  // the hub already ended it
}

TEST_F(TransportWsSessionTest, ClosingStopsEverySubscription) {
  Acknowledge();
  Receive(R"({"type":"subscribe","id":"1","payload":{"query":"subscription { a }"}})");
  session_->OnClosed();
  EXPECT_EQ(backend_.stop_all_calls, 1);
  EXPECT_TRUE(session_->running().empty());
}

}  // namespace
}  // namespace netgraph::ws
