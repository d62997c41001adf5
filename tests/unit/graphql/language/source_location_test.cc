#include "core/graphql/language/source_location.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace netgraph::graphql {
namespace {

TEST(SourceLocationTest, LocatesAsGraphqlJs) {
  const std::string source = "ab\r\ncd\re\n\xF0\x9F\x98\x80x\n";
  LineIndex index(source);
  for (std::uint32_t offset = 0; offset <= source.size(); ++offset) {
    SourceLocation expected = LocateOffset(source, offset);
    SourceLocation actual = index.Locate(offset);
    EXPECT_EQ(actual.line, expected.line) << offset;
    EXPECT_EQ(actual.column, expected.column) << offset;
  }
  EXPECT_EQ(LocateOffset(source, 0).line, 1);
  EXPECT_EQ(LocateOffset(source, 4).line, 2);     // after "\r\n"
  EXPECT_EQ(LocateOffset(source, 7).line, 3);     // after "\r"
  EXPECT_EQ(LocateOffset(source, 13).column, 3);  // after the emoji: two UTF-16 units
}

}  // namespace
}  // namespace netgraph::graphql
