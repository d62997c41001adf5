#include "ws/hub.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace netgraph::ws {
namespace {

// A subscription the fake executor recognises by name; it records its destruction.
class FakeSubscription : public graphql::Subscription {
 public:
  FakeSubscription(std::string subscription_name, int* destroyed)
      : name(std::move(subscription_name)), destroyed_(destroyed) {}
  ~FakeSubscription() override { ++*destroyed_; }
  const graphql::Value& topic() const override { return topic_; }
  std::string name;

 private:
  int* destroyed_;
  graphql::Value topic_;
};

// Counts executions per subscription; the result names the subscription and the count.
class FakeExecutor : public EventExecutor {
 public:
  graphql::ExecutionResult ExecuteEvent(const graphql::Subscription& subscription,
                                        const graphql::Value&) override {
    const auto& fake = static_cast<const FakeSubscription&>(subscription);
    int n = ++executions[fake.name];
    if (failing == fake.name) return {false, {}, R"([{"message":"boom"}])"};
    return {true, R"({")" + fake.name + R"(":)" + std::to_string(n) + "}", {}};
  }
  std::map<std::string, int> executions;
  std::string failing;
};

class RecordingSubscriber : public Subscriber {
 public:
  void OnNext(const std::string& id, const SharedText& result) override {
    received.emplace_back(id, result);
  }
  void OnFailed(const std::string& id, const graphql::ExecutionResult& failure) override {
    failed.emplace_back(id, failure.Body());
  }
  void OnResult(const std::string&, const StartResult&) override {}  // the hub runs no queries
  std::vector<std::pair<std::string, SharedText>> received;
  std::vector<std::pair<std::string, std::string>> failed;
};

SubscriptionKey Key(const std::string& query, nlohmann::json variables = nullptr) {
  OperationRequest request;
  request.query = query;
  request.variables = std::move(variables);
  return SubscriptionKey::Of(request);
}

class HubTest : public ::testing::Test {
 protected:
  std::unique_ptr<graphql::Subscription> NewSubscription(const std::string& name) {
    return std::make_unique<FakeSubscription>(name, &destroyed_);
  }

  int destroyed_ = 0;
  FakeExecutor executor_;
  Hub hub_{executor_};
  const graphql::Value event_;
  const UpdateStamp stamp_{7, std::nullopt};
};

TEST_F(HubTest, EqualSubscriptionsExecuteOnceAndShareTheBytes) {
  RecordingSubscriber a;
  RecordingSubscriber b;
  hub_.Add(Key("subscription { x }"), "graph", NewSubscription("x"), a, "1");
  ASSERT_TRUE(hub_.Join(Key("subscription { x }"), b, "9"));
  EXPECT_EQ(hub_.subscription_count(), 1u);
  EXPECT_EQ(hub_.subscriber_count(), 2u);

  EXPECT_EQ(hub_.Publish("graph", event_, stamp_), 2u);
  EXPECT_EQ(executor_.executions["x"], 1);
  ASSERT_EQ(a.received.size(), 1u);
  ASSERT_EQ(b.received.size(), 1u);
  EXPECT_EQ(a.received[0].first, "1");
  EXPECT_EQ(b.received[0].first, "9");
  EXPECT_EQ(a.received[0].second.get(), b.received[0].second.get());  // one buffer
  EXPECT_EQ(nlohmann::json::parse(*a.received[0].second),
            nlohmann::json::parse(R"({"data":{"x":1},"extensions":{"sequence":7}})"));
}

TEST_F(HubTest, JoinFailsWithoutARunningSubscription) {
  RecordingSubscriber a;
  EXPECT_FALSE(hub_.Join(Key("subscription { x }"), a, "1"));
  EXPECT_EQ(hub_.subscriber_count(), 0u);
}

TEST_F(HubTest, DifferentDocumentsOrVariablesExecuteSeparately) {
  RecordingSubscriber a;
  hub_.Add(Key("subscription { x }"), "graph", NewSubscription("x"), a, "1");
  hub_.Add(Key("subscription { x }", {{"v", 1}}), "graph", NewSubscription("xv"), a, "2");
  hub_.Add(Key("subscription { y }"), "graph", NewSubscription("y"), a, "3");
  EXPECT_EQ(hub_.subscription_count(), 3u);
  EXPECT_EQ(hub_.Publish("graph", event_, stamp_), 3u);
  EXPECT_EQ(executor_.executions["x"], 1);
  EXPECT_EQ(executor_.executions["xv"], 1);
  EXPECT_EQ(executor_.executions["y"], 1);
}

TEST_F(HubTest, OnlySubscriptionsOfTheTopicRun) {
  RecordingSubscriber a;
  hub_.Add(Key("subscription { x }"), "graph", NewSubscription("x"), a, "1");
  hub_.Add(Key("subscription { y }"), "other", NewSubscription("y"), a, "2");
  EXPECT_EQ(hub_.Publish("other", event_, stamp_), 1u);
  EXPECT_EQ(executor_.executions.count("x"), 0u);
  ASSERT_EQ(a.received.size(), 1u);
  EXPECT_EQ(a.received[0].first, "2");
}

TEST_F(HubTest, LeavingStopsDeliveryAndTheLastOneEndsTheSubscription) {
  RecordingSubscriber a;
  RecordingSubscriber b;
  hub_.Add(Key("subscription { x }"), "graph", NewSubscription("x"), a, "1");
  hub_.Join(Key("subscription { x }"), b, "1");
  hub_.Leave(a, "1");
  hub_.Publish("graph", event_, stamp_);
  EXPECT_TRUE(a.received.empty());
  EXPECT_EQ(b.received.size(), 1u);
  EXPECT_EQ(destroyed_, 0);
  hub_.Leave(b, "1");
  EXPECT_EQ(destroyed_, 1);
  EXPECT_EQ(hub_.subscription_count(), 0u);
  EXPECT_EQ(hub_.Publish("graph", event_, stamp_), 0u);
}

TEST_F(HubTest, LeaveAllRemovesEveryIdOfASubscriberOnly) {
  RecordingSubscriber a;
  RecordingSubscriber b;
  hub_.Add(Key("subscription { x }"), "graph", NewSubscription("x"), a, "1");
  hub_.Add(Key("subscription { y }"), "graph", NewSubscription("y"), a, "2");
  hub_.Join(Key("subscription { y }"), b, "1");
  hub_.LeaveAll(a);
  EXPECT_EQ(hub_.subscriber_count(), 1u);
  EXPECT_EQ(hub_.subscription_count(), 1u);
  EXPECT_EQ(destroyed_, 1);
  hub_.Publish("graph", event_, stamp_);
  EXPECT_TRUE(a.received.empty());
  EXPECT_EQ(b.received.size(), 1u);
}

TEST_F(HubTest, ARequestErrorEndsTheSubscriptionForAll) {
  RecordingSubscriber a;
  RecordingSubscriber b;
  executor_.failing = "x";
  hub_.Add(Key("subscription { x }"), "graph", NewSubscription("x"), a, "1");
  hub_.Join(Key("subscription { x }"), b, "2");
  EXPECT_EQ(hub_.Publish("graph", event_, stamp_), 0u);
  ASSERT_EQ(a.failed.size(), 1u);
  ASSERT_EQ(b.failed.size(), 1u);
  EXPECT_EQ(a.failed[0].second, R"({"errors":[{"message":"boom"}]})");
  EXPECT_EQ(hub_.subscription_count(), 0u);
  EXPECT_EQ(hub_.subscriber_count(), 0u);
  EXPECT_EQ(destroyed_, 1);
}

// A prepared document of a given size: the hub only asks it how much it holds.
class SizedDocument : public graphql::PreparedDocument {
 public:
  explicit SizedDocument(std::size_t bytes) : bytes_(bytes) {}
  bool valid() const override { return true; }
  const std::vector<graphql::Error>& errors() const override { return errors_; }
  std::optional<graphql::OperationType> OperationTypeFor(
      std::optional<std::string_view>) const override {
    return graphql::OperationType::kSubscription;
  }
  std::size_t held_bytes() const override { return bytes_; }

 private:
  std::size_t bytes_;
  std::vector<graphql::Error> errors_;
};

constexpr std::size_t kMiB = 1024 * 1024;

class HubLimitsTest : public HubTest {
 protected:
  static MemoryLimits Limits() {
    MemoryLimits limits;
    limits.per_connection = 2 * kMiB;
    limits.per_address = 5 * kMiB;
    limits.process = 6 * kMiB;
    limits.documents = 4;
    return limits;
  }

  // Admits and adds a subscription of `query` with a document of `bytes`; the Admit status.
  Status Subscribe(Subscriber& subscriber, const std::string& id, const std::string& query,
                   std::size_t bytes) {
    auto document = std::make_shared<SizedDocument>(bytes);
    SubscriptionKey key = Key(query);
    Status admitted = bounded_.Admit(key, document.get(), subscriber);
    if (!admitted.ok()) return admitted;
    if (!bounded_.Join(key, subscriber, id)) {
      bounded_.Add(key, "graph", NewSubscription(query), subscriber, id, std::move(document));
    }
    return admitted;
  }

  Hub bounded_{executor_, Limits()};
};

TEST_F(HubLimitsTest, AConnectionIsRefusedPastItsBytesAndOthersGoOn) {
  RecordingSubscriber attacker;
  RecordingSubscriber other;
  bounded_.Connected(attacker, "192.0.2.1");
  bounded_.Connected(other, "198.51.100.7");
  EXPECT_TRUE(Subscribe(attacker, "1", "subscription { a }", kMiB).ok());
  Status refused = Subscribe(attacker, "2", "subscription { b }", kMiB);
  ASSERT_TRUE(refused.IsResourceExhausted()) << refused.message();
  EXPECT_NE(refused.message().find("NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_CONNECTION"),
            std::string::npos);
  EXPECT_EQ(bounded_.subscription_count(), 1u);
  EXPECT_TRUE(Subscribe(other, "1", "subscription { b }", kMiB).ok());
}

TEST_F(HubLimitsTest, AnAddressIsRefusedPastItsBytesAcrossConnections) {
  RecordingSubscriber connections[4];
  for (RecordingSubscriber& connection : connections) bounded_.Connected(connection, "192.0.2.1");
  EXPECT_TRUE(Subscribe(connections[0], "1", "subscription { a }", kMiB + kMiB / 2).ok());
  EXPECT_TRUE(Subscribe(connections[1], "1", "subscription { b }", kMiB + kMiB / 2).ok());
  EXPECT_TRUE(Subscribe(connections[2], "1", "subscription { c }", kMiB + kMiB / 2).ok());
  Status refused = Subscribe(connections[3], "1", "subscription { d }", kMiB / 2 + kMiB / 10);
  ASSERT_TRUE(refused.IsResourceExhausted()) << refused.message();
  EXPECT_NE(refused.message().find("NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_ADDRESS"),
            std::string::npos);
  // Closing a connection gives its share back.
  bounded_.Disconnected(connections[0]);
  EXPECT_TRUE(Subscribe(connections[3], "1", "subscription { d }", kMiB / 2 + kMiB / 10).ok());
}

TEST_F(HubLimitsTest, TheProcessAndTheDocumentCountAreBounded) {
  RecordingSubscriber clients[6];
  for (int i = 0; i < 6; ++i) bounded_.Connected(clients[i], "192.0.2." + std::to_string(i));
  for (int i = 0; i < 4; ++i) {
    EXPECT_TRUE(Subscribe(clients[i], "1", "subscription { f" + std::to_string(i) + " }", 10).ok());
  }
  Status too_many = Subscribe(clients[4], "1", "subscription { g }", 10);
  ASSERT_FALSE(too_many.ok());
  EXPECT_NE(too_many.message().find("NETGRAPH_WS_MAX_DOCUMENTS"), std::string::npos);
  // Sharing a running document adds no document.
  EXPECT_TRUE(Subscribe(clients[4], "1", "subscription { f0 }", 10).ok());
  for (int i = 0; i < 4; ++i) bounded_.Disconnected(clients[i]);
  bounded_.Disconnected(clients[4]);
  EXPECT_EQ(bounded_.held_bytes(), 0u);
  for (int i = 0; i < 3; ++i) bounded_.Connected(clients[i], "203.0.113." + std::to_string(i));
  const std::size_t large = 2 * kMiB - kMiB / 10;
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(
        Subscribe(clients[i], "1", "subscription { h" + std::to_string(i) + " }", large).ok());
  }
  Status full = Subscribe(clients[5], "1", "subscription { i }", large);
  ASSERT_FALSE(full.ok());
  EXPECT_NE(full.message().find("NETGRAPH_WS_MAX_DOCUMENT_BYTES)"), std::string::npos);
}

TEST_F(HubLimitsTest, SameTextSharesOneDocumentWhateverTheVariables) {
  RecordingSubscriber a;
  auto document = std::make_shared<SizedDocument>(kMiB);
  bounded_.Add(Key("subscription ($v: Int) { x(v: $v) }", {{"v", 1}}), "graph",
               NewSubscription("x1"), a, "1", document);
  EXPECT_EQ(bounded_.FindDocument("subscription ($v: Int) { x(v: $v) }"), document);
  std::size_t one = bounded_.held_bytes();
  bounded_.Add(Key("subscription ($v: Int) { x(v: $v) }", {{"v", 2}}), "graph",
               NewSubscription("x2"), a, "2",
               bounded_.FindDocument("subscription ($v: Int) { x(v: $v) }"));
  EXPECT_EQ(bounded_.document_count(), 1u);
  EXPECT_LT(bounded_.held_bytes() - one, kMiB);  // the second subscription's key only
  // The connection keeps the document alive once, however many of its subscriptions use it.
  EXPECT_GE(bounded_.bytes_of(a), kMiB);
  EXPECT_LT(bounded_.bytes_of(a), kMiB + kMiB / 2);
  bounded_.LeaveAll(a);
  EXPECT_EQ(bounded_.held_bytes(), 0u);
  EXPECT_EQ(bounded_.FindDocument("subscription ($v: Int) { x(v: $v) }"), nullptr);
}

TEST_F(HubLimitsTest, ManyClientsOfOneAddressShareADocumentCheaply) {
  std::vector<RecordingSubscriber> clients(2000);
  for (std::size_t i = 0; i < clients.size(); ++i) {
    bounded_.Connected(clients[i], "192.0.2.1");
    ASSERT_TRUE(Subscribe(clients[i], "1", "subscription { shared }", 64 * 1024).ok()) << i;
  }
  EXPECT_EQ(bounded_.subscription_count(), 1u);
  for (RecordingSubscriber& client : clients) bounded_.Disconnected(client);
  EXPECT_EQ(bounded_.held_bytes(), 0u);
}

// Queued operations' requests (ws/operation_queue.h) count in the same bounds: what the connection,
// the address and the process hold there is added to what they hold here.
TEST_F(HubLimitsTest, WhatIsHeldElsewhereCountsInTheBounds) {
  RecordingSubscriber a;
  RecordingSubscriber b;
  bounded_.Connected(a, "192.0.2.1");
  bounded_.Connected(b, "192.0.2.1");
  ASSERT_TRUE(Subscribe(a, "1", "subscription { a }", kMiB / 2).ok());
  HeldBytes here = bounded_.HeldBy(a);
  EXPECT_GE(here.connection, kMiB / 2);
  EXPECT_EQ(here.address, bounded_.HeldBy(b).address);
  EXPECT_EQ(bounded_.HeldBy(b).connection, 0u);
  EXPECT_EQ(here.process, bounded_.held_bytes());

  auto document = std::make_shared<SizedDocument>(kMiB / 2);
  Status refused = bounded_.Admit(Key("subscription { b }"), document.get(), a,
                                  HeldBytes{kMiB + kMiB / 4, 0, 0});
  ASSERT_TRUE(refused.IsResourceExhausted()) << refused.message();
  EXPECT_NE(refused.message().find("NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_CONNECTION"),
            std::string::npos);
  refused = bounded_.Admit(Key("subscription { b }"), document.get(), b, HeldBytes{0, 4 * kMiB, 0});
  ASSERT_TRUE(refused.IsResourceExhausted()) << refused.message();
  EXPECT_NE(refused.message().find("NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_ADDRESS"),
            std::string::npos);
  refused = bounded_.Admit(Key("subscription { b }"), document.get(), b,
                           HeldBytes{0, 0, 5 * kMiB + kMiB / 2});
  ASSERT_TRUE(refused.IsResourceExhausted()) << refused.message();
  EXPECT_NE(refused.message().find("NETGRAPH_WS_MAX_DOCUMENT_BYTES)"), std::string::npos);
  EXPECT_TRUE(bounded_.Admit(Key("subscription { b }"), document.get(), b, HeldBytes{}).ok());
}

TEST_F(HubLimitsTest, AFailedSubscriptionGivesItsBytesBack) {
  RecordingSubscriber a;
  bounded_.Connected(a, "192.0.2.1");
  executor_.failing = "subscription { x }";
  ASSERT_TRUE(Subscribe(a, "1", "subscription { x }", kMiB).ok());
  bounded_.Publish("graph", event_, stamp_);
  EXPECT_EQ(bounded_.held_bytes(), 0u);
  EXPECT_EQ(bounded_.bytes_of(a), 0u);
}

TEST(SubscriptionKeyTest, VariablesCompareByValueNotByText) {
  EXPECT_EQ(Key("q", nlohmann::json::parse(R"({"a":1,"b":2})")),
            Key("q", nlohmann::json::parse(R"({"b":2,"a":1})")));
  EXPECT_EQ(Key("q", nullptr), Key("q", nlohmann::json::object()));
  EXPECT_NE(Key("q", {{"a", 1}}), Key("q", {{"a", 2}}));
  EXPECT_NE(Key("q"), Key("q "));
}

TEST(SubscriptionKeyTest, OperationNameIsPartOfTheKey) {
  OperationRequest named;
  named.query = "subscription A { x } subscription B { x }";
  named.operation_name = "A";
  OperationRequest other = named;
  other.operation_name = "B";
  EXPECT_NE(SubscriptionKey::Of(named), SubscriptionKey::Of(other));
}

}  // namespace
}  // namespace netgraph::ws
