// The whole answer's key (core/api/answer_key.h) through a real engine: what enters it and what
// does not, and when there is none.
#include "core/api/answer_key.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace netgraph::api {
namespace {

constexpr std::string_view kSchema = R"(
  type Query {
    networkGraph(limit: Int): String
    echo(text: String): String
  }
)";

class AnswerKeyTest : public ::testing::Test {
 protected:
  AnswerKeyTest() {
    std::vector<graphql::Error> errors;
    engine_ = graphql::Engine::Create(kSchema, graphql::EngineOptions{}, &errors);
  }

  std::optional<std::string> KeyOf(std::string query, nlohmann::json variables = nullptr,
                                   std::optional<std::string> operation_name = std::nullopt) {
    OperationRequest request{std::move(query), std::move(operation_name), std::move(variables), {}};
    std::shared_ptr<const graphql::PreparedDocument> document = engine_->Prepare(request.query);
    EXPECT_TRUE(document->valid()) << request.query;
    return AnswerKey(*engine_, *document, request);
  }

  std::unique_ptr<graphql::Engine> engine_;
};

TEST_F(AnswerKeyTest, VariablesTheOperationDoesNotDefineAreLeftOut) {
  const std::string query = "{ networkGraph }";
  std::optional<std::string> plain = KeyOf(query);
  ASSERT_TRUE(plain.has_value());
  // A megabyte of junk: the same key, and no larger.
  EXPECT_EQ(KeyOf(query, {{"junk", std::string(1024 * 1024, 'j')}}), plain);
  EXPECT_EQ(KeyOf(query, {{"a", 1}}), plain);
  EXPECT_EQ(KeyOf(query, nlohmann::json::object()), plain);

  const std::string with_limit = "query($limit: Int) { networkGraph(limit: $limit) }";
  EXPECT_EQ(KeyOf(with_limit, {{"limit", 5}, {"junk", std::string(100000, 'j')}}),
            KeyOf(with_limit, {{"limit", 5}}));
}

TEST_F(AnswerKeyTest, DefinedVariablesEnterByTheirCoercedValues) {
  const std::string query =
      "query($limit: Int = 10, $text: String) { networkGraph(limit: $limit) "
      "echo(text: $text) }";
  // The default and the same value given.
  EXPECT_EQ(KeyOf(query, nlohmann::json::object()), KeyOf(query, {{"limit", 10}}));
  EXPECT_EQ(KeyOf(query, {{"limit", 10}}), KeyOf(query, {{"limit", 10.0}}));
  // The order of the members is the client's, the key's the operation's.
  EXPECT_EQ(KeyOf(query, nlohmann::json::parse(R"({"limit": 3, "text": "t"})")),
            KeyOf(query, nlohmann::json::parse(R"({"text": "t", "limit": 3})")));
  EXPECT_NE(KeyOf(query, {{"limit", 10}}), KeyOf(query, {{"limit", 11}}));
  EXPECT_NE(KeyOf(query, {{"text", "a"}}), KeyOf(query, {{"text", "b"}}));
  EXPECT_NE(KeyOf(query, {{"text", nullptr}}), KeyOf(query, nlohmann::json::object()))
      << "null given is not the same as absent";
}

TEST_F(AnswerKeyTest, TheTextAndTheOperationNameEnter) {
  EXPECT_NE(KeyOf("{ networkGraph }"), KeyOf("{ echo }"));
  const std::string named = "query Graph { networkGraph }";
  EXPECT_NE(KeyOf(named), KeyOf(named, nullptr, "Graph"));
  const std::string two = "query A { networkGraph } query B { echo }";
  EXPECT_NE(KeyOf(two, nullptr, "A"), KeyOf(two, nullptr, "B"));
}

TEST_F(AnswerKeyTest, NoKeyPastTheBoundOrForARequestError) {
  // A defined variable's value makes the key too long.
  const std::string query = "query($text: String) { echo(text: $text) }";
  EXPECT_TRUE(KeyOf(query, {{"text", std::string(100, 't')}}).has_value());
  EXPECT_EQ(KeyOf(query, {{"text", std::string(kMaxAnswerKeyBytes, 't')}}), std::nullopt);
  // So does the text alone.
  std::string long_text = "{ echo }";
  long_text.insert(1, kMaxAnswerKeyBytes, ' ');
  EXPECT_EQ(KeyOf(long_text), std::nullopt);
  // Values that do not coerce: Execute answers with a request error.
  EXPECT_EQ(KeyOf("query($limit: Int) { networkGraph(limit: $limit) }", {{"limit", "ten"}}),
            std::nullopt);
  // No operation of that name.
  EXPECT_EQ(KeyOf("query A { echo }", nullptr, "B"), std::nullopt);
  for (std::optional<std::string> key :
       {KeyOf("{ echo }"), KeyOf(query, {{"text", std::string(1000, 't')}})}) {
    ASSERT_TRUE(key.has_value());
    EXPECT_LE(key->size(), kMaxAnswerKeyBytes);
  }
}

}  // namespace
}  // namespace netgraph::api
