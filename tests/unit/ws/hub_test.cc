#include "ws/hub.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>
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
    if (failing == fake.name) return {false, R"({"errors":[{"message":"boom"}]})"};
    return {true, R"({"data":{")" + fake.name + R"(":)" + std::to_string(n) + "}}"};
  }
  std::map<std::string, int> executions;
  std::string failing;
};

class RecordingSubscriber : public Subscriber {
 public:
  void OnNext(const std::string& id, const SharedText& result) override {
    received.emplace_back(id, result);
  }
  void OnFailed(const std::string& id, const std::string& errors_body) override {
    failed.emplace_back(id, errors_body);
  }
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
