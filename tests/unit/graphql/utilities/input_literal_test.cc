#include "core/graphql/utilities/input_literal.h"

#include <gtest/gtest.h>

#include <string>

#include "core/graphql/language/parser.h"
#include "core/graphql/type/build_schema.h"

namespace netgraph::graphql {
namespace {

constexpr const char* kSdl = R"(
  type Query { f(a: Int!, b: String = "dflt", c: [Int]): Int g(x: Float): Int }
  enum Color { RED GREEN BLUE }
  input Point { x: Int! y: Int = 0 tags: [String!] }
  input Pick @oneOf { id: ID name: String }
  scalar Custom
)";

class InputLiteralTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<Error> errors;
    schema_ = BuildSchema(kSdl, &errors);
    ASSERT_NE(schema_, nullptr);
  }

  TypeRef Type(std::string_view text) {
    std::string query = "query ($v: " + std::string(text) + ") { f }";
    Error error;
    documents_.push_back(Parse(query, {}, &error));
    const auto& variable = *documents_.back()
                                ->definitions()[0]
                                ->As<ast::OperationDefinition>()
                                ->variable_definitions[0];
    return TypeFromAst(*schema_, *variable.type);
  }

  // A literal, parsed as the argument of a field.
  const ast::Value& Literal(std::string_view text) {
    Error error;
    documents_.push_back(Parse("{ f(a: " + std::string(text) + ") }", {}, &error));
    EXPECT_NE(documents_.back(), nullptr) << error.message;
    return *FirstField().arguments[0]->value;
  }

  const ast::Field& FirstField() {
    return *documents_.back()
                ->definitions()[0]
                ->As<ast::OperationDefinition>()
                ->selection_set->selections[0]
                ->As<ast::Field>();
  }

  std::string LeafError(std::string_view type, std::string_view literal) {
    return ParseLeafLiteral(*schema_->FindType(type), Literal(literal), nullptr).error;
  }

  std::unique_ptr<const Schema> schema_;
  std::vector<std::unique_ptr<const ast::Document>> documents_;
};

TEST_F(InputLiteralTest, ParsesScalarLiteralsAsGraphqlJs) {
  EXPECT_EQ(*ValueFromLiteral(Literal("12"), Type("Int"), nullptr), Value::Int(12));
  EXPECT_EQ(*ValueFromLiteral(Literal("12"), Type("ID"), nullptr), Value::String("12"));
  EXPECT_EQ(*ValueFromLiteral(Literal("\"x\""), Type("ID"), nullptr), Value::String("x"));
  EXPECT_EQ(*ValueFromLiteral(Literal("1.5"), Type("Float"), nullptr), Value::Float(1.5));
  EXPECT_EQ(*ValueFromLiteral(Literal("2"), Type("Float"), nullptr), Value::Float(2));
  EXPECT_EQ(*ValueFromLiteral(Literal("true"), Type("Boolean"), nullptr), Value::Boolean(true));
  EXPECT_EQ(*ValueFromLiteral(Literal("\"\"\"b\"\"\""), Type("String"), nullptr),
            Value::String("b"));
  EXPECT_EQ(*ValueFromLiteral(Literal("GREEN"), Type("Color"), nullptr), Value::String("GREEN"));
  EXPECT_EQ(*ValueFromLiteral(Literal("{a: [1, X]}"), Type("Custom"), nullptr),
            Value::MakeObject({{"a", Value::MakeList({Value::Int(1), Value::String("X")})}}));

  EXPECT_EQ(LeafError("Int", "1.5"), "Int cannot represent non-integer value: 1.5");
  EXPECT_EQ(LeafError("Int", "2147483648"),
            "Int cannot represent non 32-bit signed integer value: 2147483648");
  EXPECT_EQ(LeafError("Float", "\"1\""), "Float cannot represent non numeric value: \"1\"");
  EXPECT_EQ(LeafError("String", "1"), "String cannot represent a non string value: 1");
  EXPECT_EQ(LeafError("Boolean", "\"true\""),
            "Boolean cannot represent a non boolean value: \"true\"");
  EXPECT_EQ(LeafError("ID", "1.0"), "ID cannot represent a non-string and non-integer value: 1.0");
  EXPECT_EQ(LeafError("Color", "\"RED\""),
            "Enum \"Color\" cannot represent non-enum value: \"RED\". Did you mean the enum value "
            "\"RED\" or \"GREEN\"?");
  EXPECT_EQ(LeafError("Color", "GREN"),
            "Value \"GREN\" does not exist in \"Color\" enum. Did you mean the enum value "
            "\"GREEN\" or \"RED\"?");
  EXPECT_EQ(LeafError("Color", "PURPLE"), "Value \"PURPLE\" does not exist in \"Color\" enum.");
  EXPECT_EQ(LeafError("Int", "7"), "");
}

TEST_F(InputLiteralTest, CoercesListsObjectsAndNulls) {
  EXPECT_EQ(*ValueFromLiteral(Literal("3"), Type("[Int]"), nullptr),
            Value::MakeList({Value::Int(3)}));
  EXPECT_EQ(*ValueFromLiteral(Literal("[1, null]"), Type("[Int]"), nullptr),
            Value::MakeList({Value::Int(1), Value()}));
  EXPECT_FALSE(ValueFromLiteral(Literal("[1, null]"), Type("[Int!]"), nullptr).has_value());
  EXPECT_EQ(*ValueFromLiteral(Literal("null"), Type("Int"), nullptr), Value());
  EXPECT_FALSE(ValueFromLiteral(Literal("null"), Type("Int!"), nullptr).has_value());
  EXPECT_EQ(*ValueFromLiteral(Literal("{x: 1, tags: \"t\"}"), Type("Point"), nullptr),
            Value::MakeObject({{"x", Value::Int(1)},
                               {"y", Value::Int(0)},
                               {"tags", Value::MakeList({Value::String("t")})}}));
  EXPECT_FALSE(ValueFromLiteral(Literal("{y: 1}"), Type("Point"), nullptr).has_value());
  EXPECT_FALSE(ValueFromLiteral(Literal("[1]"), Type("Point"), nullptr).has_value());
  EXPECT_EQ(*ValueFromLiteral(Literal("{id: 4}"), Type("Pick"), nullptr),
            Value::MakeObject({{"id", Value::String("4")}}));
  EXPECT_FALSE(
      ValueFromLiteral(Literal("{id: 4, name: \"n\"}"), Type("Pick"), nullptr).has_value());
  EXPECT_FALSE(ValueFromLiteral(Literal("{id: null}"), Type("Pick"), nullptr).has_value());
}

TEST_F(InputLiteralTest, ReadsVariables) {
  Value variables = Value::MakeObject({{"n", Value::Int(5)}, {"z", Value()}});
  EXPECT_EQ(*ValueFromLiteral(Literal("$n"), Type("Int"), &variables), Value::Int(5));
  EXPECT_FALSE(ValueFromLiteral(Literal("$missing"), Type("Int"), &variables).has_value());
  EXPECT_FALSE(ValueFromLiteral(Literal("$z"), Type("Int!"), &variables).has_value());
  EXPECT_EQ(*ValueFromLiteral(Literal("[$n, $missing]"), Type("[Int]"), &variables),
            Value::MakeList({Value::Int(5), Value()}));
  EXPECT_EQ(*ValueFromLiteral(Literal("{x: 1, y: $missing}"), Type("Point"), &variables),
            Value::MakeObject({{"x", Value::Int(1)}, {"y", Value::Int(0)}}));
}

TEST_F(InputLiteralTest, CoercesArgumentsAsGraphqlJs) {
  const std::vector<InputValue>& definitions = schema_->query_type()->FindField("f")->arguments;
  Value variables = Value::MakeObject({{"v", Value::Int(9)}, {"nothing", Value()}});
  ArgumentError error;

  Literal("1");
  auto coerced = CoerceArgumentValues(definitions, FirstField().arguments, FirstField().offset,
                                      nullptr, &error);
  ASSERT_TRUE(coerced.has_value());
  EXPECT_EQ(*coerced, Value::MakeObject({{"a", Value::Int(1)}, {"b", Value::String("dflt")}}));

  Error parse_error;
  auto parse = [&](std::string query) -> const ast::Field& {
    documents_.push_back(Parse(std::move(query), {}, &parse_error));
    return FirstField();
  };
  const ast::Field& missing = parse("{ f(b: \"x\") }");
  EXPECT_FALSE(
      CoerceArgumentValues(definitions, missing.arguments, missing.offset, nullptr, &error));
  EXPECT_EQ(error.message, "Argument \"a\" of required type \"Int!\" was not provided.");
  EXPECT_EQ(error.offset, missing.offset);

  const ast::Field& unset = parse("{ f(a: $unset) }");
  EXPECT_FALSE(
      CoerceArgumentValues(definitions, unset.arguments, unset.offset, &variables, &error));
  EXPECT_EQ(error.message,
            "Argument \"a\" of required type \"Int!\" was provided the variable \"$unset\" which "
            "was not provided a runtime value.");

  const ast::Field& null_variable = parse("{ f(a: $nothing) }");
  EXPECT_FALSE(CoerceArgumentValues(definitions, null_variable.arguments, null_variable.offset,
                                    &variables, &error));
  EXPECT_EQ(error.message, "Argument \"a\" of non-null type \"Int!\" must not be null.");

  const ast::Field& invalid = parse("{ f(a: \"x\") }");
  EXPECT_FALSE(
      CoerceArgumentValues(definitions, invalid.arguments, invalid.offset, nullptr, &error));
  EXPECT_EQ(error.message, "Argument \"a\" has invalid value \"x\".");
  EXPECT_EQ(error.offset, invalid.arguments[0]->value->offset);

  const ast::Field& with_variable = parse("{ f(a: $v, b: $unset, c: [$v]) }");
  coerced = CoerceArgumentValues(definitions, with_variable.arguments, with_variable.offset,
                                 &variables, &error);
  ASSERT_TRUE(coerced.has_value());
  EXPECT_EQ(*coerced, Value::MakeObject({{"a", Value::Int(9)},
                                         {"b", Value::String("dflt")},
                                         {"c", Value::MakeList({Value::Int(9)})}}));
}

TEST_F(InputLiteralTest, PrintsValuesAsGraphqlJsDefaultValues) {
  EXPECT_EQ(*PrintValueAsLiteral(Value::Int(100), Type("Int")), "100");
  EXPECT_EQ(*PrintValueAsLiteral(Value::Float(1), Type("Float")), "1");
  EXPECT_EQ(*PrintValueAsLiteral(Value::Float(1.5e-7), Type("Float")), "1.5e-7");
  EXPECT_EQ(*PrintValueAsLiteral(Value::Float(1e21), Type("Float")), "1e+21");
  EXPECT_EQ(*PrintValueAsLiteral(Value::String("123"), Type("ID")), "123");
  EXPECT_EQ(*PrintValueAsLiteral(Value::String("abc"), Type("ID")), "\"abc\"");
  EXPECT_EQ(*PrintValueAsLiteral(Value::String("a\"b\n"), Type("String")), "\"a\\\"b\\n\"");
  EXPECT_EQ(*PrintValueAsLiteral(Value::String("RED"), Type("Color")), "RED");
  EXPECT_FALSE(PrintValueAsLiteral(Value::String("PINK"), Type("Color")).has_value());
  EXPECT_EQ(*PrintValueAsLiteral(Value(), Type("Int")), "null");
  EXPECT_FALSE(PrintValueAsLiteral(Value(), Type("Int!")).has_value());
  EXPECT_EQ(*PrintValueAsLiteral(Value::Int(3), Type("[Int]")), "3");
  EXPECT_EQ(*PrintValueAsLiteral(Value::MakeList({Value::Int(1), Value()}), Type("[Int]")),
            "[1, null]");
  EXPECT_EQ(*PrintValueAsLiteral(Value::MakeObject({{"y", Value::Int(2)}, {"x", Value::Int(1)}}),
                                 Type("Point")),
            "{x: 1, y: 2}");
  EXPECT_EQ(*PrintValueAsLiteral(Value::Boolean(true), Type("Boolean")), "true");
  EXPECT_EQ(*PrintValueAsLiteral(Value::String("s"), Type("Custom")), "\"s\"");
}

}  // namespace
}  // namespace netgraph::graphql
