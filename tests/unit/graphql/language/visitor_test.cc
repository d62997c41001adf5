#include "core/graphql/language/visitor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/graphql/language/parser.h"

namespace netgraph::graphql {
namespace {

using ::testing::ElementsAre;

// Records the visiting order.
class OrderRecorder : public ast::Visitor {
 public:
  bool Enter(const ast::Node& node) override {
    events.push_back("+" + std::string(ast::NodeKindName(node.kind)));
    depths.push_back(ancestors().size());
    return node.kind != ast::NodeKind::kDirective;  // skip directive arguments
  }
  void Leave(const ast::Node& node) override {
    events.push_back("-" + std::string(ast::NodeKindName(node.kind)));
  }
  std::vector<std::string> events;
  std::vector<std::size_t> depths;
};

TEST(VisitorTest, WalksInGraphqlJsOrder) {
  Error error;
  std::unique_ptr<const ast::Document> document =
      Parse("query ($v: Int) @d(a: 1) { f(x: [1]) }", ParseOptions{}, &error);
  ASSERT_NE(document, nullptr) << error.message;
  OrderRecorder recorder;
  ast::Walk(*document, &recorder);
  EXPECT_THAT(
      recorder.events,
      ElementsAre("+OperationDefinition", "+VariableDefinition", "+Variable", "-Variable",
                  "+NamedType", "-NamedType", "-VariableDefinition", "+Directive", "+SelectionSet",
                  "+Field", "+Argument", "+ListValue", "+IntValue", "-IntValue", "-ListValue",
                  "-Argument", "-Field", "-SelectionSet", "-OperationDefinition"));
  EXPECT_EQ(recorder.depths[0], 0u);
  EXPECT_EQ(recorder.depths[2], 2u);  // Variable inside VariableDefinition inside the operation
}

}  // namespace
}  // namespace netgraph::graphql
