#include "core/graphql/type/schema_printer.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>

#include "tests/unit/graphql/test_engine.h"

namespace netgraph::graphql {
namespace {

using test::ReadSourceFile;

std::string PrintBuilt(std::string_view sdl) {
  std::unique_ptr<const Schema> schema = test::MustBuildSchema(sdl);
  return schema == nullptr ? std::string() : PrintSchema(*schema);
}

// The expected files hold graphql-js's output, which ends with no newline.
std::string Expected(const std::string& path) {
  std::string text = ReadSourceFile(path);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

TEST(SchemaPrinterTest, PrintsTheServiceSchemaAsGraphqlJs) {
  EXPECT_EQ(PrintBuilt(ReadSourceFile("core/api/schema.graphql")),
            Expected("tests/unit/graphql/testdata/service_schema_printed.graphql"));
}

TEST(SchemaPrinterTest, PrintsEveryConstructAsGraphqlJs) {
  EXPECT_EQ(PrintBuilt(ReadSourceFile("tests/unit/graphql/testdata/rich_schema.graphql")),
            Expected("tests/unit/graphql/testdata/rich_schema_printed.graphql"));
}

TEST(SchemaPrinterTest, OmitsTheSchemaDefinitionForCommonRootNames) {
  EXPECT_EQ(PrintBuilt("schema { query: Query } type Query { a: Int }"),
            "type Query {\n  a: Int\n}");
  EXPECT_EQ(PrintBuilt("schema { query: Root } type Root { a: Int }"),
            "schema {\n  query: Root\n}\n\ntype Root {\n  a: Int\n}");
}

TEST(SchemaPrinterTest, PrintsDescriptionsAsGraphqlJs) {
  EXPECT_EQ(
      PrintBuilt("type Query { \"one\" a: Int \"two\\nlines\" b: Int \"\\rno block\" c: Int }"),
      "type Query {\n  \"\"\"one\"\"\"\n  a: Int\n\n  \"\"\"\n  two\n  lines\n  \"\"\"\n"
      "  b: Int\n\n  \"\\rno block\"\n  c: Int\n}");
}

TEST(SchemaPrinterTest, LeavesOutBuiltIns) {
  std::string printed = PrintBuilt(
      "type Query { a(x: Float, y: ID): String @deprecated }\n"
      "directive @deprecated(reason: String) on FIELD_DEFINITION");
  EXPECT_EQ(printed, "type Query {\n  a(x: Float, y: ID): String @deprecated\n}");
}

}  // namespace
}  // namespace netgraph::graphql
