#include "core/graphql/language/printer.h"

#include <gtest/gtest.h>

#include <string>

#include "core/graphql/language/parser.h"

namespace netgraph::graphql {
namespace {

std::string Reprint(std::string source) {
  Error error;
  auto document = Parse(std::move(source), {}, &error);
  EXPECT_NE(document, nullptr) << error.message;
  return document == nullptr ? std::string() : Print(*document);
}

// The first argument's value of the first field.
const ast::Value& FirstArgument(const ast::Document& document) {
  return *document.definitions()[0]
              ->As<ast::OperationDefinition>()
              ->selection_set->selections[0]
              ->As<ast::Field>()
              ->arguments[0]
              ->value;
}

TEST(PrinterTest, PrintsQueriesInGraphqlJsLayout) {
  EXPECT_EQ(Reprint("{a,b{c}}"), "{\n  a\n  b {\n    c\n  }\n}");
  EXPECT_EQ(Reprint("query { a }"), "{\n  a\n}");
  EXPECT_EQ(Reprint("query Q($a: [Int!]! = [1] @v, $b: In) @op { x: f(a: $a) @skip(if: true) }"),
            "query Q($a: [Int!]! = [1] @v, $b: In) @op {\n  x: f(a: $a) @skip(if: true)\n}");
  EXPECT_EQ(Reprint("mutation { a }"), "mutation {\n  a\n}");
  EXPECT_EQ(Reprint("{ ...F @d ... on T { a } ... @i { b } }\nfragment F on T @f { c }"),
            "{\n  ...F @d\n  ... on T {\n    a\n  }\n  ... @i {\n    b\n  }\n}\n\n"
            "fragment F on T @f {\n  c\n}");
}

TEST(PrinterTest, WrapsLongArgumentLists) {
  std::string printed = Reprint(
      "{ field(argumentNumberOne: \"some long value\", argumentNumberTwo: \"another long value\") "
      "}");
  EXPECT_EQ(printed,
            "{\n  field(\n    argumentNumberOne: \"some long value\"\n"
            "    argumentNumberTwo: \"another long value\"\n  )\n}");
}

TEST(PrinterTest, PrintsValues) {
  EXPECT_EQ(
      Reprint("{ f(a: 1, b: 2.5e3, c: true, d: null, e: RED, f: [1, \"x\"], g: {h: {i: $v}}) }"),
      "{\n  f(a: 1, b: 2.5e3, c: true, d: null, e: RED, f: [1, \"x\"], g: {h: {i: $v}})\n}");
  EXPECT_EQ(Reprint(R"({ f(a: "quote \" back \\ tab \t nl \n \u0001 \u007F \u0085 é") })"),
            "{\n  f(a: \"quote \\\" back \\\\ tab \\t nl \\n \\u0001 \\u007F \\u0085 é\")\n}");
  EXPECT_EQ(Reprint("{ f(a: \"\"\"\n  block\n  text\n\"\"\") }"),
            "{\n  f(a: \"\"\"\n  block\n  text\n  \"\"\")\n}");
}

TEST(PrinterTest, PrintsSingleNodes) {
  Error error;
  auto document = Parse("{ f(a: [1, {b: \"c\"}]) }", {}, &error);
  ASSERT_NE(document, nullptr);
  EXPECT_EQ(Print(FirstArgument(*document)), "[1, {b: \"c\"}]");
  document = Parse("query ($v: [Int!]!) { a }", {}, &error);
  ASSERT_NE(document, nullptr);
  EXPECT_EQ(Print(*document->definitions()[0]
                       ->As<ast::OperationDefinition>()
                       ->variable_definitions[0]
                       ->type),
            "[Int!]!");
}

TEST(PrinterTest, PrintsTypeSystemDefinitions) {
  std::string sdl = R"("""The schema"""
schema @s {
  query: Q
}

"""Scalar"""
scalar S @specifiedBy(url: "u")

type T implements A & B @d {
  """Field"""
  f(a: Int = 1, b: String): [T!]! @deprecated
  g(
    """Arg"""
    a: Int
  ): Int
}

interface A implements B {
  f: Int
}

union U @u = X | Y

enum E {
  ONE
  """Two"""
  TWO @deprecated(reason: "r")
}

input In @oneOf {
  x: Int = 2 @d
}

"""Dir"""
directive @d(a: Int) repeatable on FIELD | OBJECT

extend schema @s

extend scalar S @d

extend type T implements C

extend interface A @d

extend union U = Z

extend enum E {
  THREE
}

extend input In {
  y: Int
})";
  EXPECT_EQ(Reprint(sdl), sdl);
}

TEST(PrinterTest, PrintsStringsWithEscapes) {
  EXPECT_EQ(PrintString("plain"), "\"plain\"");
  EXPECT_EQ(PrintString("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(PrintString("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(PrintString(std::string("\0\x1f", 2)), "\"\\u0000\\u001F\"");
  EXPECT_EQ(PrintString("\xC2\x80 \xC2\x9F \xC2\xA0"), "\"\\u0080 \\u009F \xC2\xA0\"");
}

TEST(PrinterTest, RoundTripsThroughTheParser) {
  const std::string sources[] = {
      "query Q($a: Int = 1) {\n  a(x: $a) {\n    ...F\n  }\n}\n\nfragment F on T {\n  b\n}",
      "type T {\n  a(x: [[Int]!] = [[1], [2]]): String\n}",
  };
  for (const std::string& source : sources) {
    std::string once = Reprint(source);
    EXPECT_EQ(once, source);
    EXPECT_EQ(Reprint(once), once);
  }
}

}  // namespace
}  // namespace netgraph::graphql
