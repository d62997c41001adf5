#include "core/graphql/utilities/number_format.h"

#include <gtest/gtest.h>

#include <limits>

namespace netgraph::graphql {
namespace {

TEST(NumberFormatTest, WritesNumbersAsJavaScript) {
  EXPECT_EQ(FormatJsNumber(0), "0");
  EXPECT_EQ(FormatJsNumber(-0.0), "0");
  EXPECT_EQ(FormatJsNumber(1), "1");
  EXPECT_EQ(FormatJsNumber(-1.5), "-1.5");
  EXPECT_EQ(FormatJsNumber(0.1), "0.1");
  EXPECT_EQ(FormatJsNumber(100), "100");
  EXPECT_EQ(FormatJsNumber(123456789012345680000.0), "123456789012345680000");
  EXPECT_EQ(FormatJsNumber(1e21), "1e+21");
  EXPECT_EQ(FormatJsNumber(1.5e300), "1.5e+300");
  EXPECT_EQ(FormatJsNumber(0.000001), "0.000001");
  EXPECT_EQ(FormatJsNumber(1e-7), "1e-7");
  EXPECT_EQ(FormatJsNumber(-2.5e-8), "-2.5e-8");
  EXPECT_EQ(FormatJsNumber(std::numeric_limits<double>::quiet_NaN()), "NaN");
  EXPECT_EQ(FormatJsNumber(-std::numeric_limits<double>::infinity()), "-Infinity");
}

}  // namespace
}  // namespace netgraph::graphql
