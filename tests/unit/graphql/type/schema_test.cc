#include "core/graphql/type/schema.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "core/graphql/language/parser.h"
#include "core/graphql/type/build_schema.h"
#include "tests/unit/graphql/test_engine.h"

namespace netgraph::graphql {
namespace {

using ::testing::ElementsAre;

using test::MustBuildSchema;
using test::ReadSourceFile;

std::vector<std::string> Names(const std::vector<const NamedType*>& types) {
  std::vector<std::string> names;
  for (const NamedType* type : types) names.emplace_back(type->name);
  return names;
}

TEST(SchemaTest, LoadsTheServiceSchema) {
  auto schema = MustBuildSchema(ReadSourceFile("core/api/schema.graphql"));
  ASSERT_NE(schema, nullptr);
  ASSERT_NE(schema->query_type(), nullptr);
  EXPECT_EQ(schema->query_type()->name, "Query");
  EXPECT_EQ(schema->mutation_type()->name, "Mutation");
  EXPECT_EQ(schema->subscription_type()->name, "Subscription");
  EXPECT_EQ(schema->RootType(OperationType::kSubscription), schema->subscription_type());
  ASSERT_TRUE(schema->description().has_value());
  EXPECT_TRUE(schema->description()->starts_with("netgraph: the network graph"));

  const NamedType* date_time = schema->FindType("DateTime");
  ASSERT_NE(date_time, nullptr);
  EXPECT_EQ(date_time->kind, TypeKind::kScalar);
  EXPECT_FALSE(date_time->is_specified_scalar());
  EXPECT_EQ(date_time->specified_by_url, "https://scalars.graphql.org/andimarek/date-time");

  const Field* network_graph = schema->query_type()->FindField("networkGraph");
  ASSERT_NE(network_graph, nullptr);
  EXPECT_EQ(network_graph->type.ToString(), "NetworkGraph!");
  const InputValue* limit = network_graph->FindArgument("limit");
  ASSERT_NE(limit, nullptr);
  EXPECT_EQ(limit->type.ToString(), "Int");
  ASSERT_TRUE(limit->default_value.has_value());
  EXPECT_EQ(*limit->default_value, Value::Int(100));
  EXPECT_FALSE(limit->is_required());

  const NamedType* status = schema->FindType("VoucherStatus");
  ASSERT_NE(status, nullptr);
  EXPECT_EQ(status->kind, TypeKind::kEnum);
  EXPECT_EQ(status->enum_values.size(), 5u);
  EXPECT_NE(status->FindEnumValue("REDEEMED"), nullptr);
  EXPECT_EQ(status->FindEnumValue("NOPE"), nullptr);

  const Field* claim = schema->mutation_type()->FindField("claimVoucher");
  ASSERT_NE(claim, nullptr);
  EXPECT_TRUE(claim->FindArgument("voucherCode")->is_required());
}

TEST(SchemaTest, OrdersTypesAsGraphqlJsTypeMap) {
  auto schema = MustBuildSchema(ReadSourceFile("core/api/schema.graphql"));
  ASSERT_NE(schema, nullptr);
  EXPECT_THAT(
      Names(schema->types()),
      ElementsAre("DateTime", "Query", "Int", "ID", "Mutation", "String", "Subscription",
                  "GraphStatus", "Boolean", "NetworkGraph", "Node", "Link", "GraphMetadata",
                  "NetworkUpdate", "InvestmentData", "Float", "PortfolioResult", "Portfolio",
                  "User", "Voucher", "VoucherStatus", "Balances", "PortfolioSummary",
                  "ClaimVoucherResult", "WalletChallenge", "VerifyWalletResult",
                  "RedeemVoucherResult", "Redemption", "__Schema", "__Type", "__TypeKind",
                  "__Field", "__InputValue", "__EnumValue", "__Directive", "__DirectiveLocation"));
  for (std::uint32_t i = 0; i < schema->types().size(); ++i) {
    EXPECT_EQ(schema->types()[i]->index(), i);
  }
}

TEST(SchemaTest, HoldsOnlyReferencedBuiltInTypes) {
  auto schema = MustBuildSchema("type Query { a: String }");
  ASSERT_NE(schema, nullptr);
  EXPECT_NE(schema->FindType("String"), nullptr);
  EXPECT_NE(schema->FindType("Boolean"), nullptr);  // used by @include and introspection
  EXPECT_EQ(schema->FindType("Float"), nullptr);
  EXPECT_EQ(schema->FindType("ID"), nullptr);
  EXPECT_TRUE(schema->FindType("String")->is_specified_scalar());
  EXPECT_TRUE(schema->FindType("__Type")->is_introspection());
  EXPECT_EQ(schema->FindType("__MetaFields"), nullptr);
}

TEST(SchemaTest, ProvidesTheBuiltInDirectives) {
  auto schema = MustBuildSchema("type Query { a: Int }\ndirective @mine on FIELD");
  ASSERT_NE(schema, nullptr);
  std::vector<std::string> names;
  for (const Directive* directive : schema->directives()) names.emplace_back(directive->name);
  EXPECT_THAT(names, ElementsAre("mine", "include", "skip", "deprecated", "specifiedBy", "oneOf"));
  const Directive* deprecated = schema->FindDirective("deprecated");
  ASSERT_NE(deprecated, nullptr);
  EXPECT_TRUE(deprecated->builtin);
  EXPECT_THAT(
      deprecated->locations,
      ElementsAre(DirectiveLocation::kFieldDefinition, DirectiveLocation::kArgumentDefinition,
                  DirectiveLocation::kInputFieldDefinition, DirectiveLocation::kEnumValue));
  EXPECT_EQ(*deprecated->FindArgument("reason")->default_value,
            Value::String(std::string(kDefaultDeprecationReason)));
  EXPECT_TRUE(schema->FindDirective("skip")->FindArgument("if")->is_required());
  EXPECT_TRUE(schema->FindDirective("include")->HasLocation(DirectiveLocation::kInlineFragment));
  EXPECT_FALSE(schema->FindDirective("oneOf")->repeatable);
  EXPECT_TRUE(IsSpecifiedDirectiveName("specifiedBy"));
  EXPECT_FALSE(IsSpecifiedDirectiveName("mine"));
}

TEST(SchemaTest, ExposesIntrospectionTypesOfSeptember2025) {
  auto schema = MustBuildSchema("type Query { a: Int }");
  ASSERT_NE(schema, nullptr);
  const NamedType* type = schema->FindType("__Type");
  ASSERT_NE(type, nullptr);
  for (const char* name : {"kind", "name", "description", "specifiedByURL", "fields", "interfaces",
                           "possibleTypes", "enumValues", "inputFields", "ofType", "isOneOf"}) {
    EXPECT_NE(type->FindField(name), nullptr) << name;
  }
  const InputValue* include_deprecated =
      type->FindField("inputFields")->FindArgument("includeDeprecated");
  ASSERT_NE(include_deprecated, nullptr);
  EXPECT_EQ(include_deprecated->type.ToString(), "Boolean");
  EXPECT_EQ(*include_deprecated->default_value, Value::Boolean(false));
  EXPECT_NE(schema->FindType("__Field")->FindField("args")->FindArgument("includeDeprecated"),
            nullptr);
  EXPECT_NE(schema->FindType("__InputValue")->FindField("isDeprecated"), nullptr);
  EXPECT_NE(schema->FindType("__InputValue")->FindField("deprecationReason"), nullptr);
  EXPECT_NE(schema->FindType("__Directive")->FindField("isRepeatable"), nullptr);
  EXPECT_EQ(schema->FindType("__DirectiveLocation")->enum_values.size(), 19u);
  EXPECT_EQ(schema->FindType("__TypeKind")->enum_values.size(), 8u);
  EXPECT_EQ(*schema->FindType("__Schema")->description,
            "A GraphQL Schema defines the capabilities of a GraphQL server. It exposes all "
            "available types and directives on the server, as well as the entry points for query, "
            "mutation, and subscription operations.");
}

TEST(SchemaTest, FindsMetaFieldsWhereGraphqlJsDoes) {
  auto schema = MustBuildSchema(R"(
    type Query { a: Int u: U }
    type Obj { b: Int }
    union U = Obj
  )");
  ASSERT_NE(schema, nullptr);
  const NamedType& query = *schema->query_type();
  const NamedType& object = *schema->FindType("Obj");
  EXPECT_EQ(schema->FieldDef(query, "__schema"), &schema->schema_meta_field());
  EXPECT_EQ(schema->FieldDef(query, "__type"), &schema->type_meta_field());
  EXPECT_EQ(schema->FieldDef(object, "__schema"), nullptr);
  EXPECT_EQ(schema->FieldDef(object, "__typename"), &schema->typename_meta_field());
  EXPECT_EQ(schema->FieldDef(*schema->FindType("U"), "__typename"), &schema->typename_meta_field());
  EXPECT_EQ(schema->FieldDef(*schema->FindType("Int"), "__typename"), nullptr);
  EXPECT_EQ(schema->FieldDef(object, "b"), object.FindField("b"));
  EXPECT_EQ(object.FindField("__typename"), nullptr);

  EXPECT_EQ(schema->schema_meta_field().type.ToString(), "__Schema!");
  EXPECT_EQ(schema->type_meta_field().type.ToString(), "__Type");
  EXPECT_EQ(schema->type_meta_field().FindArgument("name")->type.ToString(), "String!");
  EXPECT_EQ(schema->typename_meta_field().type.ToString(), "String!");
  EXPECT_EQ(*schema->typename_meta_field().description,
            "The name of the current Object type at runtime.");
}

constexpr const char* kAbstractSdl = R"(
  type Query { a: Node }
  interface Node { id: ID! }
  interface Named implements Node { id: ID! name: String }
  type Person implements Named & Node { id: ID! name: String }
  type Robot implements Node { id: ID! }
  type Rock { id: ID! }
  union Thing = Person | Rock
)";

TEST(SchemaTest, KnowsPossibleTypesAndSubtypes) {
  auto schema = MustBuildSchema(kAbstractSdl);
  ASSERT_NE(schema, nullptr);
  const NamedType& node = *schema->FindType("Node");
  const NamedType& named = *schema->FindType("Named");
  const NamedType& person = *schema->FindType("Person");
  const NamedType& robot = *schema->FindType("Robot");
  const NamedType& rock = *schema->FindType("Rock");
  const NamedType& thing = *schema->FindType("Thing");

  EXPECT_THAT(Names(schema->PossibleTypes(node)), ElementsAre("Person", "Robot"));
  EXPECT_THAT(Names(schema->PossibleTypes(named)), ElementsAre("Person"));
  EXPECT_THAT(Names(schema->PossibleTypes(thing)), ElementsAre("Person", "Rock"));
  EXPECT_THAT(Names(schema->InterfaceImplementations(node)), ElementsAre("Named"));
  EXPECT_TRUE(schema->PossibleTypes(person).empty());

  EXPECT_TRUE(schema->IsSubType(node, person));
  EXPECT_TRUE(schema->IsSubType(node, named));
  EXPECT_FALSE(schema->IsSubType(node, rock));
  EXPECT_TRUE(schema->IsSubType(thing, rock));
  EXPECT_FALSE(schema->IsSubType(thing, robot));

  EXPECT_TRUE(DoTypesOverlap(*schema, node, thing));  // Person is both
  EXPECT_TRUE(DoTypesOverlap(*schema, thing, rock));
  EXPECT_TRUE(DoTypesOverlap(*schema, person, person));
  EXPECT_FALSE(DoTypesOverlap(*schema, robot, thing));
  EXPECT_FALSE(DoTypesOverlap(*schema, person, robot));
  EXPECT_FALSE(DoTypesOverlap(*schema, named, *schema->FindType("Robot")));
}

TEST(SchemaTest, ComparesWrappedTypes) {
  auto schema = MustBuildSchema(kAbstractSdl);
  ASSERT_NE(schema, nullptr);
  TypeRef node(schema->FindType("Node"));
  TypeRef person(schema->FindType("Person"));
  TypeRef rock(schema->FindType("Rock"));

  EXPECT_TRUE(IsEqualType(person.ListOf().NonNullOf(), person.ListOf().NonNullOf()));
  EXPECT_FALSE(IsEqualType(person.ListOf(), person.NonNullOf().ListOf()));
  EXPECT_TRUE(IsTypeSubTypeOf(*schema, person, node));
  EXPECT_TRUE(IsTypeSubTypeOf(*schema, person.NonNullOf(), node));
  EXPECT_FALSE(IsTypeSubTypeOf(*schema, person, node.NonNullOf()));
  EXPECT_TRUE(IsTypeSubTypeOf(*schema, person.NonNullOf().ListOf(), node.ListOf()));
  EXPECT_FALSE(IsTypeSubTypeOf(*schema, person.ListOf(), node));
  EXPECT_FALSE(IsTypeSubTypeOf(*schema, person, node.ListOf()));
  EXPECT_FALSE(IsTypeSubTypeOf(*schema, rock, node));

  EXPECT_TRUE(IsInputType(TypeRef(schema->FindType("ID")).NonNullOf()));
  EXPECT_FALSE(IsInputType(person.ListOf()));
  EXPECT_TRUE(IsOutputType(person.ListOf()));
  EXPECT_TRUE(IsLeafType(*schema->FindType("ID")));
  EXPECT_TRUE(IsCompositeType(*schema->FindType("Thing")));
  EXPECT_TRUE(IsAbstractType(*schema->FindType("Node")));
  EXPECT_FALSE(IsAbstractType(*schema->FindType("Person")));
}

TEST(SchemaTest, ResolvesAstTypes) {
  auto schema = MustBuildSchema(kAbstractSdl);
  ASSERT_NE(schema, nullptr);
  Error error;
  auto document = Parse("query ($a: [Node!]!, $b: Nope, $c: [Int]) { a }", {}, &error);
  ASSERT_NE(document, nullptr);
  const auto& variables =
      document->definitions()[0]->As<ast::OperationDefinition>()->variable_definitions;
  TypeRef a = TypeFromAst(*schema, *variables[0]->type);
  EXPECT_EQ(a.ToString(), "[Node!]!");
  EXPECT_EQ(a.named(), schema->FindType("Node"));
  EXPECT_FALSE(TypeFromAst(*schema, *variables[1]->type).valid());
  EXPECT_FALSE(TypeFromAst(*schema, *variables[2]->type).valid());  // Int is not in this schema
}

TEST(SchemaTest, AppliesDirectivesAndExtensions) {
  auto schema = MustBuildSchema(R"(
    type Query { a: Int @deprecated b: Int @deprecated(reason: "use a") c(x: Int @deprecated): Int }
    extend type Query { d: String }
    enum E { ONE TWO @deprecated }
    extend enum E { THREE }
    input In @oneOf { a: Int b: String @deprecated(reason: null) }
    extend input In { c: Int }
    scalar Url @specifiedBy(url: "https://u")
    interface I { id: ID }
    extend type Query implements I { id: ID }
    union U = Query
    extend union U = Other
    type Other { x: Int }
  )");
  ASSERT_NE(schema, nullptr);
  const NamedType& query = *schema->query_type();
  EXPECT_EQ(query.FindField("a")->deprecation_reason, kDefaultDeprecationReason);
  EXPECT_EQ(query.FindField("b")->deprecation_reason, "use a");
  EXPECT_TRUE(query.FindField("c")->FindArgument("x")->is_deprecated());
  EXPECT_NE(query.FindField("d"), nullptr);
  EXPECT_NE(query.FindField("id"), nullptr);
  EXPECT_THAT(Names(query.interfaces), ElementsAre("I"));
  EXPECT_EQ(query.extension_asts.size(), 2u);
  const NamedType& e = *schema->FindType("E");
  EXPECT_EQ(e.enum_values.size(), 3u);
  EXPECT_TRUE(e.FindEnumValue("TWO")->is_deprecated());
  const NamedType& in = *schema->FindType("In");
  EXPECT_TRUE(in.one_of);
  EXPECT_EQ(in.input_fields.size(), 3u);
  EXPECT_FALSE(in.FindInputField("b")->is_deprecated());  // a null reason is no deprecation
  EXPECT_EQ(schema->FindType("Url")->specified_by_url, "https://u");
  EXPECT_THAT(Names(schema->FindType("U")->members), ElementsAre("Query", "Other"));
}

TEST(SchemaTest, UsesDefaultRootNamesOrTheSchemaDefinition) {
  auto by_name = MustBuildSchema("type Query { a: Int } type Mutation { b: Int }");
  ASSERT_NE(by_name, nullptr);
  EXPECT_EQ(by_name->mutation_type()->name, "Mutation");
  EXPECT_EQ(by_name->subscription_type(), nullptr);
  EXPECT_EQ(by_name->ast(), nullptr);

  auto explicit_roots = MustBuildSchema(
      "schema { query: Root } extend schema { mutation: Mutation } type Root { a: Int } "
      "type Query { b: Int } type Mutation { c: Int }");
  ASSERT_NE(explicit_roots, nullptr);
  EXPECT_EQ(explicit_roots->query_type()->name, "Root");
  EXPECT_EQ(explicit_roots->mutation_type()->name, "Mutation");
  EXPECT_NE(explicit_roots->ast(), nullptr);
  EXPECT_EQ(explicit_roots->extension_asts().size(), 1u);
}

TEST(SchemaTest, CoercesDefaultValues) {
  auto schema = MustBuildSchema(R"(
    type Query { f(
      a: [Int] = 1, b: Float = 1, c: ID = 5, d: E = TWO, e: In = {y: "s"}, f: Int = "bad",
      g: Custom = {k: [1, "x"]}): Int }
    enum E { ONE TWO }
    input In { x: Int = 7 y: String z: [String!] }
    scalar Custom
  )");
  ASSERT_NE(schema, nullptr);
  const Field& f = *schema->query_type()->FindField("f");
  EXPECT_EQ(*f.FindArgument("a")->default_value, Value::MakeList({Value::Int(1)}));
  EXPECT_EQ(*f.FindArgument("b")->default_value, Value::Float(1));
  EXPECT_EQ(*f.FindArgument("c")->default_value, Value::String("5"));
  EXPECT_EQ(*f.FindArgument("d")->default_value, Value::String("TWO"));
  EXPECT_EQ(*f.FindArgument("e")->default_value,
            Value::MakeObject({{"x", Value::Int(7)}, {"y", Value::String("s")}}));
  EXPECT_FALSE(f.FindArgument("f")->default_value.has_value());  // does not coerce
  EXPECT_NE(f.FindArgument("f")->default_literal, nullptr);
  EXPECT_EQ(*f.FindArgument("g")->default_value,
            Value::MakeObject({{"k", Value::MakeList({Value::Int(1), Value::String("x")})}}));
}

}  // namespace
}  // namespace netgraph::graphql
