#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "tests/unit/graphql/test_engine.h"

namespace netgraph::graphql {
namespace {

using test::Json;
using test::MustCreate;
using ::testing::HasSubstr;

constexpr std::string_view kSchema = R"(
  type Query { a: Int }
  type Subscription { updated(channel: String = "main"): Update! renamed: Update }
  type Update { id: ID! changes: [String!]! }
)";

class SubscriptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    engine_ = MustCreate(kSchema);
    ASSERT_TRUE(engine_
                    ->BindSubscribe("Subscription.updated",
                                    [](const ResolveInfo& info) -> ResolverResult {
                                      const std::string channel =
                                          info.arguments.Find("channel")->as_string();
                                      if (channel == "secret") {
                                        return ResolverResult::Error("Not allowed", "FORBIDDEN");
                                      }
                                      return Value::String("graph:" + channel);
                                    })
                    .ok());
  }

  // Subscribe; on failure returns nullptr and the request error body in *error.
  std::unique_ptr<Subscription> Start(const std::string& query, const std::string& variables,
                                      std::string* error) {
    nlohmann::json parsed;
    ExecuteParams params;
    if (!variables.empty()) {
      parsed = nlohmann::json::parse(variables);
      params.variables = &parsed;
    }
    ExecutionResult result;
    std::unique_ptr<Subscription> subscription =
        engine_->Subscribe(engine_->Prepare(query), params, &result);
    if (subscription == nullptr) {
      EXPECT_FALSE(result.has_data);
      *error = result.Body();
    }
    return subscription;
  }

  std::unique_ptr<Engine> engine_;
};

TEST_F(SubscriptionTest, SubscribesAndMapsEvents) {
  std::string error;
  std::unique_ptr<Subscription> subscription =
      Start("subscription ($c: String) { u: updated(channel: $c) { id changes } }",
            R"({"c": "nodes"})", &error);
  ASSERT_NE(subscription, nullptr) << error;
  EXPECT_EQ(subscription->topic(), Value::String("graph:nodes"));

  ExecutionResult event =
      engine_->ExecuteEvent(*subscription, Json(R"({"id": 7, "changes": ["a", "b"]})"), nullptr);
  EXPECT_TRUE(event.has_data);
  EXPECT_EQ(event.Body(), R"({"data":{"u":{"id":"7","changes":["a","b"]}}})");

  // A bad event is a field error: the non-null root field nulls the data.
  event = engine_->ExecuteEvent(*subscription, Json(R"({"id": 8, "changes": [null]})"), nullptr);
  EXPECT_TRUE(event.has_data);
  EXPECT_EQ(event.Body(),
            R"({"errors":[{"message":"Cannot return null for non-nullable field Update.changes.",)"
            R"("locations":[{"line":1,"column":58}],"path":["u","changes",0]}],"data":null})");
}

TEST_F(SubscriptionTest, DefaultArgumentsAndUnboundSubscribeResolvers) {
  std::string error;
  std::unique_ptr<Subscription> subscription = Start("subscription { updated { id } }", "", &error);
  ASSERT_NE(subscription, nullptr) << error;
  EXPECT_EQ(subscription->topic(), Value::String("graph:main"));

  // No subscribe resolver: the topic is the root value's member, here absent.
  subscription = Start("subscription { renamed { id } }", "", &error);
  ASSERT_NE(subscription, nullptr) << error;
  EXPECT_TRUE(subscription->topic().is_null());
}

TEST_F(SubscriptionTest, BoundFieldResolversGetTheEventAsParent) {
  ASSERT_TRUE(engine_
                  ->BindResolver("Subscription.renamed",
                                 [](const ResolveInfo& info) -> ResolverResult {
                                   return info.parent.Find("payload") ? *info.parent.Find("payload")
                                                                      : Value();
                                 })
                  .ok());
  std::string error;
  std::unique_ptr<Subscription> subscription = Start("subscription { renamed { id } }", "", &error);
  ASSERT_NE(subscription, nullptr) << error;
  EXPECT_EQ(
      engine_->ExecuteEvent(*subscription, Json(R"({"payload": {"id": "p"}})"), nullptr).Body(),
      R"({"data":{"renamed":{"id":"p"}}})");
}

TEST_F(SubscriptionTest, RequestErrors) {
  std::string error;
  EXPECT_EQ(Start("{ a }", "", &error), nullptr);
  EXPECT_EQ(error, R"({"errors":[{"message":"Only subscription operations can be subscribed to.",)"
                   R"("locations":[{"line":1,"column":1}]}]})");

  EXPECT_EQ(Start("subscription { nope }", "", &error), nullptr);
  EXPECT_THAT(error, HasSubstr("Cannot query field"));

  EXPECT_EQ(Start("subscription ($c: String!) { updated(channel: $c) { id } }", "{}", &error),
            nullptr);
  EXPECT_EQ(error, R"({"errors":[{"message":"Variable \"$c\" of required type \"String!\" was not )"
                   R"(provided.","locations":[{"line":1,"column":15}]}]})");

  // The subscribe resolver's error, located at the root field.
  EXPECT_EQ(Start("subscription {\n  updated(channel: \"secret\") { id }\n}", "", &error), nullptr);
  EXPECT_EQ(error, R"({"errors":[{"message":"Not allowed","locations":[{"line":2,"column":3}],)"
                   R"("path":["updated"],"extensions":{"code":"FORBIDDEN"}}]})");
}

}  // namespace
}  // namespace netgraph::graphql
