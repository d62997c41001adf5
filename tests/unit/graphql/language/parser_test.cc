#include "core/graphql/language/parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/graphql/language/visitor.h"

namespace netgraph::graphql {
namespace {

std::unique_ptr<const ast::Document> MustParse(std::string source, ParseOptions options = {}) {
  Error error;
  auto document = Parse(std::move(source), options, &error);
  EXPECT_NE(document, nullptr) << error.message;
  return document;
}

// "message @line:column" of the syntax error of `source`.
std::string ErrorOf(std::string source, ParseOptions options = {}) {
  Error error;
  if (Parse(std::move(source), options, &error) != nullptr) return "no error";
  EXPECT_EQ(error.locations.size(), 1u);
  return error.message + " @" + std::to_string(error.locations[0].line) + ":" +
         std::to_string(error.locations[0].column);
}

TEST(ParserTest, ParsesOperationsAndSelections) {
  auto document = MustParse(R"(
    query Q($id: ID! = "1" @v, $list: [[Int!]]) @op {
      alias: node(id: $id, n: 1) @skip(if: false) { id }
      ...Frag @spread
      ... on User { name }
      ... @inline { id }
    }
    fragment Frag on Node @frag { id }
    { shorthand }
    mutation { m }
    subscription S { s }
  )");
  ASSERT_EQ(document->definitions().size(), 5u);

  const auto* query = document->definitions()[0]->As<ast::OperationDefinition>();
  ASSERT_NE(query, nullptr);
  EXPECT_EQ(query->operation, OperationType::kQuery);
  EXPECT_EQ(query->name.value, "Q");
  ASSERT_EQ(query->variable_definitions.size(), 2u);
  const ast::VariableDefinition* id = query->variable_definitions[0];
  EXPECT_EQ(id->variable->name.value, "id");
  ASSERT_NE(id->type->As<ast::NonNullType>(), nullptr);
  EXPECT_EQ(id->default_value->As<ast::StringValue>()->value, "1");
  EXPECT_EQ(id->directives[0]->name.value, "v");
  const auto* list = query->variable_definitions[1]->type->As<ast::ListType>();
  ASSERT_NE(list, nullptr);
  EXPECT_NE(list->type->As<ast::ListType>(), nullptr);
  EXPECT_EQ(query->variable_definitions[1]->default_value, nullptr);
  EXPECT_EQ(query->directives[0]->name.value, "op");

  const auto& selections = query->selection_set->selections;
  ASSERT_EQ(selections.size(), 4u);
  const auto* field = selections[0]->As<ast::Field>();
  ASSERT_NE(field, nullptr);
  EXPECT_EQ(field->alias.value, "alias");
  EXPECT_EQ(field->name.value, "node");
  EXPECT_EQ(field->response_key(), "alias");
  ASSERT_EQ(field->arguments.size(), 2u);
  EXPECT_EQ(field->arguments[0]->value->As<ast::Variable>()->name.value, "id");
  EXPECT_EQ(field->arguments[1]->value->As<ast::IntValue>()->value, "1");
  EXPECT_EQ(field->directives[0]->arguments[0]->value->As<ast::BooleanValue>()->value, false);
  EXPECT_EQ(field->selection_set->selections[0]->As<ast::Field>()->response_key(), "id");

  const auto* spread = selections[1]->As<ast::FragmentSpread>();
  ASSERT_NE(spread, nullptr);
  EXPECT_EQ(spread->name.value, "Frag");
  EXPECT_EQ(spread->directives[0]->name.value, "spread");
  const auto* typed = selections[2]->As<ast::InlineFragment>();
  ASSERT_NE(typed, nullptr);
  EXPECT_EQ(typed->type_condition->name.value, "User");
  const auto* untyped = selections[3]->As<ast::InlineFragment>();
  ASSERT_NE(untyped, nullptr);
  EXPECT_EQ(untyped->type_condition, nullptr);
  EXPECT_EQ(untyped->directives[0]->name.value, "inline");

  const auto* fragment = document->definitions()[1]->As<ast::FragmentDefinition>();
  ASSERT_NE(fragment, nullptr);
  EXPECT_EQ(fragment->name.value, "Frag");
  EXPECT_EQ(fragment->type_condition->name.value, "Node");

  const auto* shorthand = document->definitions()[2]->As<ast::OperationDefinition>();
  EXPECT_EQ(shorthand->operation, OperationType::kQuery);
  EXPECT_TRUE(shorthand->name.empty());
  EXPECT_EQ(document->definitions()[3]->As<ast::OperationDefinition>()->operation,
            OperationType::kMutation);
  EXPECT_EQ(document->definitions()[4]->As<ast::OperationDefinition>()->operation,
            OperationType::kSubscription);
  EXPECT_TRUE(query->is_executable());
}

TEST(ParserTest, ParsesEveryValueKind) {
  auto document = MustParse(
      R"({ f(a: 1, b: -2.5e3, c: "s\n", d: """ block """, e: true, f: null, g: RED,
             h: [1, [2]], i: {x: 1, y: {z: $v}}, j: []) })");
  const auto* field = document->definitions()[0]
                          ->As<ast::OperationDefinition>()
                          ->selection_set->selections[0]
                          ->As<ast::Field>();
  const auto& args = field->arguments;
  ASSERT_EQ(args.size(), 10u);
  EXPECT_EQ(args[0]->value->kind, ast::NodeKind::kIntValue);
  EXPECT_EQ(args[1]->value->As<ast::FloatValue>()->value, "-2.5e3");
  EXPECT_EQ(args[2]->value->As<ast::StringValue>()->value, "s\n");
  EXPECT_FALSE(args[2]->value->As<ast::StringValue>()->block);
  EXPECT_EQ(args[3]->value->As<ast::StringValue>()->value, " block ");
  EXPECT_TRUE(args[3]->value->As<ast::StringValue>()->block);
  EXPECT_TRUE(args[4]->value->As<ast::BooleanValue>()->value);
  EXPECT_EQ(args[5]->value->kind, ast::NodeKind::kNullValue);
  EXPECT_EQ(args[6]->value->As<ast::EnumValue>()->value, "RED");
  const auto* list = args[7]->value->As<ast::ListValue>();
  ASSERT_EQ(list->values.size(), 2u);
  EXPECT_EQ(list->values[1]->As<ast::ListValue>()->values.size(), 1u);
  const auto* object = args[8]->value->As<ast::ObjectValue>();
  ASSERT_EQ(object->fields.size(), 2u);
  EXPECT_EQ(object->fields[1]->name.value, "y");
  EXPECT_EQ(object->fields[1]->value->As<ast::ObjectValue>()->fields[0]->value->kind,
            ast::NodeKind::kVariable);
  EXPECT_TRUE(args[9]->value->As<ast::ListValue>()->values.empty());
  EXPECT_NE(args[0]->value->As<ast::Value>(), nullptr);
  EXPECT_EQ(args[0]->value->As<ast::StringValue>(), nullptr);
}

TEST(ParserTest, ParsesTypeSystemDefinitions) {
  auto document = MustParse(R"(
    "schema doc" schema @s { query: Q mutation: M }
    """scalar doc""" scalar Date @specifiedBy(url: "u")
    type T implements & A & B @d { "field" f("arg" a: Int = 1 @x, b: [In!]!): String @deprecated }
    interface A implements B { f: Int }
    union U @u = | X | Y
    enum E { "v" ONE @deprecated(reason: "r") TWO }
    input In @oneOf { x: Int = 2 }
    directive @d(a: Int) repeatable on FIELD | OBJECT
    directive @e on | QUERY
  )");
  const auto& definitions = document->definitions();
  ASSERT_EQ(definitions.size(), 9u);

  const auto* schema = definitions[0]->As<ast::SchemaDefinition>();
  ASSERT_NE(schema, nullptr);
  EXPECT_EQ(schema->description->value, "schema doc");
  EXPECT_EQ(schema->operation_types[1]->operation, OperationType::kMutation);
  EXPECT_EQ(schema->operation_types[1]->type->name.value, "M");

  const auto* scalar = definitions[1]->As<ast::ScalarTypeDefinition>();
  ASSERT_NE(scalar, nullptr);
  EXPECT_TRUE(scalar->description->block);
  EXPECT_FALSE(scalar->is_extension());

  const auto* object = definitions[2]->As<ast::ObjectTypeDefinition>();
  ASSERT_NE(object, nullptr);
  EXPECT_EQ(definitions[2]->As<ast::InterfaceTypeDefinition>(), nullptr);
  EXPECT_EQ(object->interfaces.size(), 2u);
  const ast::FieldDefinition* field = object->fields[0];
  EXPECT_EQ(field->description->value, "field");
  EXPECT_EQ(field->arguments[0]->description->value, "arg");
  EXPECT_EQ(field->arguments[0]->default_value->As<ast::IntValue>()->value, "1");
  EXPECT_EQ(field->arguments[0]->directives[0]->name.value, "x");
  EXPECT_EQ(field->directives[0]->name.value, "deprecated");

  EXPECT_EQ(definitions[3]->As<ast::InterfaceTypeDefinition>()->interfaces[0]->name.value, "B");
  const auto* union_type = definitions[4]->As<ast::UnionTypeDefinition>();
  ASSERT_EQ(union_type->types.size(), 2u);
  EXPECT_EQ(union_type->directives[0]->name.value, "u");
  const auto* enum_type = definitions[5]->As<ast::EnumTypeDefinition>();
  ASSERT_EQ(enum_type->values.size(), 2u);
  EXPECT_EQ(enum_type->values[0]->description->value, "v");
  EXPECT_EQ(definitions[6]->As<ast::InputObjectTypeDefinition>()->fields[0]->name.value, "x");
  const auto* directive = definitions[7]->As<ast::DirectiveDefinition>();
  EXPECT_TRUE(directive->repeatable);
  ASSERT_EQ(directive->locations.size(), 2u);
  EXPECT_EQ(directive->locations[1].value, "OBJECT");
  EXPECT_FALSE(definitions[8]->As<ast::DirectiveDefinition>()->repeatable);
  EXPECT_FALSE(definitions[0]->is_executable());
}

TEST(ParserTest, ParsesEveryExtension) {
  auto document = MustParse(R"(
    extend schema @s { subscription: S }
    extend scalar Date @d
    extend type T implements I
    extend interface I @d
    extend union U = Z
    extend enum E { THREE }
    extend input In { y: Int }
  )");
  const auto& definitions = document->definitions();
  ASSERT_EQ(definitions.size(), 7u);
  EXPECT_EQ(definitions[0]->kind, ast::NodeKind::kSchemaExtension);
  EXPECT_EQ(definitions[1]->kind, ast::NodeKind::kScalarTypeExtension);
  EXPECT_EQ(definitions[2]->kind, ast::NodeKind::kObjectTypeExtension);
  EXPECT_EQ(definitions[3]->kind, ast::NodeKind::kInterfaceTypeExtension);
  EXPECT_EQ(definitions[4]->kind, ast::NodeKind::kUnionTypeExtension);
  EXPECT_EQ(definitions[5]->kind, ast::NodeKind::kEnumTypeExtension);
  EXPECT_EQ(definitions[6]->kind, ast::NodeKind::kInputObjectTypeExtension);
  for (const ast::Definition* definition : definitions) {
    if (const auto* type = definition->As<ast::TypeDefinition>()) {
      EXPECT_TRUE(type->is_extension());
      EXPECT_EQ(type->description, nullptr);
    }
  }
  EXPECT_EQ(definitions[2]->As<ast::ObjectTypeDefinition>()->interfaces[0]->name.value, "I");
  EXPECT_EQ(ast::NodeKindName(definitions[6]->kind), "InputObjectTypeExtension");
}

TEST(ParserTest, NodesKnowWhereTheyStart) {
  auto document =
      MustParse("query {\n  a(x: \"\xF0\x9F\x98\x80\") b\n}\n\n\"desc\"\ntype T { f: Int }");
  const auto* query = document->definitions()[0]->As<ast::OperationDefinition>();
  const auto* b = query->selection_set->selections[1]->As<ast::Field>();
  SourceLocation location = document->Locate(b->offset);
  EXPECT_EQ(location.line, 2);
  EXPECT_EQ(location.column, 14);  // the emoji counts two columns
  const auto* type = document->definitions()[1]->As<ast::ObjectTypeDefinition>();
  EXPECT_EQ(document->Locate(type->offset).line, 5);  // starts at its description
  EXPECT_EQ(document->Locate(type->name.offset).line, 6);
  EXPECT_EQ(document->Locate(type->name.offset).column, 6);
}

TEST(ParserTest, AssignsDenseNodeIds) {
  auto document = MustParse("{ a(x: [1, 2]) { b } }");
  std::vector<bool> seen(document->node_count(), false);
  struct Collector : ast::Visitor {
    std::vector<bool>* seen;
    bool Enter(const ast::Node& node) override {
      EXPECT_FALSE((*seen)[node.id]);
      (*seen)[node.id] = true;
      return true;
    }
  } collector;
  collector.seen = &seen;
  ast::Walk(*document, &collector);
  for (bool id_seen : seen) EXPECT_TRUE(id_seen);
  EXPECT_EQ(document->token_count(), 14u);
}

TEST(ParserTest, ReportsSyntaxErrorsAsGraphqlJs) {
  EXPECT_EQ(ErrorOf(""), "Syntax Error: Unexpected <EOF>. @1:1");
  EXPECT_EQ(ErrorOf("{"), "Syntax Error: Expected Name, found <EOF>. @1:2");
  EXPECT_EQ(ErrorOf("{ a } ?"), "Syntax Error: Unexpected character: \"?\". @1:7");
  EXPECT_EQ(ErrorOf("{ 8f31403dfe404bccbb0e835f2629c6a7 }"),
            "Syntax Error: Invalid number, expected digit but got: \"f\". @1:4");
  EXPECT_EQ(ErrorOf("{ a(x 1) }"), "Syntax Error: Expected \":\", found Int \"1\". @1:7");
  EXPECT_EQ(ErrorOf("foo { a }"), "Syntax Error: Unexpected Name \"foo\". @1:1");
  EXPECT_EQ(ErrorOf("{ a }\n}"), "Syntax Error: Unexpected \"}\". @2:1");
  EXPECT_EQ(ErrorOf("query ($x: Int = $y) { a }"),
            "Syntax Error: Unexpected variable \"$y\" in constant value. @1:18");
  EXPECT_EQ(ErrorOf("query ($x: Int = $) { a }"), "Syntax Error: Unexpected \"$\". @1:18");
  EXPECT_EQ(ErrorOf("fragment on on T { a }"), "Syntax Error: Unexpected Name \"on\". @1:10");
  EXPECT_EQ(ErrorOf("fragment F T { a }"),
            "Syntax Error: Expected \"on\", found Name \"T\". @1:12");
  EXPECT_EQ(ErrorOf("{ ...on }"), "Syntax Error: Expected Name, found \"}\". @1:9");
  EXPECT_EQ(ErrorOf("\"desc\" query { a }"),
            "Syntax Error: Unexpected description, descriptions are supported only on type "
            "definitions. @1:1");
  EXPECT_EQ(ErrorOf("\"desc\" 123"), "Syntax Error: Unexpected Int \"123\". @1:8");
  EXPECT_EQ(ErrorOf("enum E { true }"),
            "Syntax Error: Name \"true\" is reserved and cannot be used for an enum value. @1:10");
  EXPECT_EQ(ErrorOf("extend type T"), "Syntax Error: Unexpected <EOF>. @1:14");
  EXPECT_EQ(ErrorOf("extend schema"), "Syntax Error: Unexpected <EOF>. @1:14");
  EXPECT_EQ(ErrorOf("extend foo T"), "Syntax Error: Unexpected Name \"foo\". @1:8");
  EXPECT_EQ(ErrorOf("directive @d on FOO"), "Syntax Error: Unexpected Name \"FOO\". @1:17");
  EXPECT_EQ(ErrorOf("schema { foo: Q }"), "Syntax Error: Unexpected Name \"foo\". @1:10");
  EXPECT_EQ(ErrorOf("type T { }"), "Syntax Error: Expected Name, found \"}\". @1:10");
  EXPECT_EQ(ErrorOf("{ a(x: \"\"\"abc) }"), "Syntax Error: Unterminated string. @1:17");
  EXPECT_EQ(ErrorOf("{ a() }"), "Syntax Error: Expected Name, found \")\". @1:5");
  EXPECT_EQ(ErrorOf("query Q ( ) { a }"), "Syntax Error: Expected \"$\", found \")\". @1:11");
  EXPECT_EQ(ErrorOf("{ a(x: \"\"\"l1\nl2\"\"\" y) }"),
            "Syntax Error: Expected \":\", found \")\". @2:8");
  EXPECT_EQ(ErrorOf("{ a(x: \"s\") \"t\" }"),
            "Syntax Error: Expected Name, found String \"t\". @1:13");
}

TEST(ParserTest, EnforcesTheTokenLimit) {
  ParseOptions options;
  options.max_tokens = 3;
  EXPECT_EQ(ErrorOf("{ a }", options), "no error");
  EXPECT_EQ(ErrorOf("{ a b }", options),
            "Syntax Error: Document contains more than 3 tokens. Parsing aborted. @1:7");
  // Comments are not tokens.
  EXPECT_EQ(ErrorOf("# one\n{ a # two\n }", options), "no error");
}

TEST(ParserTest, DeepNestingFailsCleanly) {
  constexpr int kDepth = 100000;
  std::string selections;
  for (int i = 0; i < kDepth; ++i) selections += "{a";
  selections.append(kDepth, '}');
  EXPECT_EQ(ErrorOf(selections),
            "Syntax Error: Document contains more than 256 nested levels. Parsing aborted. @1:513");

  std::string lists = "{ f(x: " + std::string(kDepth, '[') + std::string(kDepth, ']') + ") }";
  EXPECT_EQ(ErrorOf(lists),
            "Syntax Error: Document contains more than 256 nested levels. Parsing aborted. @1:263");

  std::string objects = "{ f(x: ";
  for (int i = 0; i < kDepth; ++i) objects += "{a:";
  objects += "1" + std::string(kDepth, '}') + ") }";
  EXPECT_NE(ErrorOf(objects).find("nested levels"), std::string::npos);

  std::string types =
      "query ($v: " + std::string(kDepth, '[') + "Int" + std::string(kDepth, ']') + ") { a }";
  EXPECT_EQ(ErrorOf(types),
            "Syntax Error: Type contains more than 63 nested lists. Parsing aborted. @1:75");
}

TEST(ParserTest, NestingUpToTheLimitParses) {
  ParseOptions options;
  options.max_depth = 10;
  EXPECT_EQ(ErrorOf("{a{a{a{a{a{a{a{a{a{a}}}}}}}}}}", options), "no error");
  EXPECT_EQ(ErrorOf("{a{a{a{a{a{a{a{a{a{a{a}}}}}}}}}}}", options),
            "Syntax Error: Document contains more than 10 nested levels. Parsing aborted. @1:21");
}

TEST(ParserTest, ParsesLongDocuments) {
  std::string source = "{";
  for (int i = 0; i < 50000; ++i) source += " f" + std::to_string(i) + "(x: \"v\")";
  source += " }";
  auto document = MustParse(source);
  ASSERT_NE(document, nullptr);
  EXPECT_EQ(
      document->definitions()[0]->As<ast::OperationDefinition>()->selection_set->selections.size(),
      50000u);
}

}  // namespace
}  // namespace netgraph::graphql
