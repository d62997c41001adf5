#include "core/graphql/language/block_string.h"

#include <gtest/gtest.h>

#include <string>

namespace netgraph::graphql {
namespace {

TEST(BlockStringTest, PrintsLikeGraphqlJs) {
  EXPECT_EQ(PrintBlockString("short"), "\"\"\"short\"\"\"");
  EXPECT_EQ(PrintBlockString("two\nlines"), "\"\"\"\ntwo\nlines\n\"\"\"");
  EXPECT_EQ(PrintBlockString(" leading space"), "\"\"\" leading space\"\"\"");
  EXPECT_EQ(PrintBlockString("ends with quote\""), "\"\"\"\nends with quote\"\n\"\"\"");
  EXPECT_EQ(PrintBlockString("has \"\"\" inside"), "\"\"\"has \\\"\"\" inside\"\"\"");
  EXPECT_EQ(PrintBlockString("a\n  indented"), "\"\"\"\na\n  indented\n\"\"\"");
  EXPECT_EQ(PrintBlockString(std::string(71, 'x')), "\"\"\"\n" + std::string(71, 'x') + "\n\"\"\"");
  EXPECT_EQ(PrintBlockString("two\nlines", /*minimize=*/true), "\"\"\"two\nlines\"\"\"");
}

TEST(BlockStringTest, KnowsWhatPrintsAsABlock) {
  EXPECT_TRUE(IsPrintableAsBlockString(""));
  EXPECT_TRUE(IsPrintableAsBlockString("plain text\nsecond line"));
  EXPECT_FALSE(IsPrintableAsBlockString("\nleading newline"));
  EXPECT_FALSE(IsPrintableAsBlockString("trailing newline\n"));
  EXPECT_FALSE(IsPrintableAsBlockString("carriage\rreturn"));
  EXPECT_FALSE(IsPrintableAsBlockString("control \x01"));
  EXPECT_FALSE(IsPrintableAsBlockString("  all\n  indented"));
  EXPECT_TRUE(IsPrintableAsBlockString("tab\tinside"));
}

}  // namespace
}  // namespace netgraph::graphql
