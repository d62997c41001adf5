// TypeInfo: what it knows at each node of a walk, as graphql-js's TypeInfo.
#include "core/graphql/utilities/type_info.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <string>

#include "core/graphql/language/parser.h"
#include "core/graphql/language/visitor.h"
#include "tests/unit/graphql/validation/validation_cases.h"

namespace netgraph::graphql {
namespace {

// Records, per field name, argument name or value kind, what TypeInfo says there.
class Recorder : public ast::Visitor {
 public:
  explicit Recorder(const Schema& schema) : type_info_(schema) {}

  bool Enter(const ast::Node& node) override {
    type_info_.Enter(node);
    if (const auto* field = node.As<ast::Field>()) {
      seen_["field " + std::string(field->name.value)] =
          Describe(type_info_.type()) + " in " + Name(type_info_.parent_type()) +
          (type_info_.field_def() == nullptr ? " (no definition)" : "");
    } else if (const auto* argument = node.As<ast::Argument>()) {
      seen_["argument " + std::string(argument->name.value)] =
          Describe(type_info_.input_type()) +
          (type_info_.argument() == nullptr ? " (unknown)" : "") +
          (type_info_.directive() != nullptr ? " of @" + std::string(type_info_.directive()->name)
                                             : "") +
          (type_info_.has_default_value() ? " with default" : "");
    } else if (const auto* int_value = node.As<ast::IntValue>()) {
      seen_["int " + std::string(int_value->value)] =
          Describe(type_info_.input_type()) + " in " + Describe(type_info_.parent_input_type());
    } else if (const auto* enum_value = node.As<ast::EnumValue>()) {
      seen_["enum " + std::string(enum_value->value)] =
          type_info_.enum_value() == nullptr ? "unknown"
                                             : std::string(type_info_.enum_value()->name);
    }
    return true;
  }
  void Leave(const ast::Node& node) override { type_info_.Leave(node); }

  const std::map<std::string, std::string>& seen() const { return seen_; }

 private:
  static std::string Describe(TypeRef type) { return type.valid() ? type.ToString() : "none"; }
  static std::string Name(const NamedType* type) {
    return type == nullptr ? "none" : std::string(type->name);
  }

  TypeInfo type_info_;
  std::map<std::string, std::string> seen_;
};

std::map<std::string, std::string> Record(const std::string& source) {
  Error error;
  std::unique_ptr<const ast::Document> document = Parse(source, ParseOptions{}, &error);
  EXPECT_NE(document, nullptr) << error.message;
  Recorder recorder(TestSchema());
  ast::Walk(*document, &recorder);
  return recorder.seen();
}

TEST(TypeInfoTest, TracksOutputTypesAndParents) {
  auto seen = Record("{ dog { friends { name } ... on Animal { legs } } thing { __typename } }");
  EXPECT_EQ(seen["field dog"], "Dog in Query");
  EXPECT_EQ(seen["field friends"], "[Dog!]! in Dog");
  EXPECT_EQ(seen["field name"], "String in Dog");
  EXPECT_EQ(seen["field legs"], "Int in Animal");
  EXPECT_EQ(seen["field __typename"], "String! in Thing");
}

TEST(TypeInfoTest, UnknownFieldsAndTypesGiveNothing) {
  auto seen = Record("{ dog { nope { name } } ... on Nowhere { count } }");
  EXPECT_EQ(seen["field nope"], "none in Dog (no definition)");
  EXPECT_EQ(seen["field name"], "none in none (no definition)");
  EXPECT_EQ(seen["field count"], "none in none (no definition)");
}

TEST(TypeInfoTest, TracksInputTypesThroughListsAndObjects) {
  auto seen = Record(
      "{ search(filter: { limit: 5, inner: { tags: [\"a\"] } }, colors: [RED, PINK]) { "
      "__typename } count(max: 7) dog { friends(first: 1) { name } } }");
  EXPECT_EQ(seen["argument filter"], "Filter");
  EXPECT_EQ(seen["int 5"], "Int in Filter");
  EXPECT_EQ(seen["argument max"], "Int with default");
  EXPECT_EQ(seen["int 7"], "Int in none");
  EXPECT_EQ(seen["enum RED"], "RED");
  EXPECT_EQ(seen["enum PINK"], "unknown");
}

TEST(TypeInfoTest, DirectiveArgumentsAndUnknownDirectives) {
  // graphql-js looks an unknown directive's arguments up among the field's.
  auto seen =
      Record("{ count(min: 1) @include(if: true) dog { friends @mystery(first: 2) { name } } }");
  EXPECT_EQ(seen["argument if"], "Boolean! of @include");
  EXPECT_EQ(seen["argument first"], "Int with default");
  EXPECT_EQ(seen["int 2"], "Int in none");
}

}  // namespace
}  // namespace netgraph::graphql
