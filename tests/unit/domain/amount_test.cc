#include "core/domain/internal/amount.h"

#include <gtest/gtest.h>

namespace netgraph::domain {
namespace {

TEST(Amount, ParsesDecimalTokenAmountsExactly) {
  EXPECT_EQ(ParseTokenAmount("25", 2), 2500);
  EXPECT_EQ(ParseTokenAmount("12.5", 2), 1250);
  EXPECT_EQ(ParseTokenAmount("0.01", 2), 1);
  EXPECT_EQ(ParseTokenAmount("7", 0), 7);
  EXPECT_EQ(ParseTokenAmount("1.000000001", 9), 1000000001);
  EXPECT_EQ(ParseTokenAmount("0", 2), 0);
}

TEST(Amount, RefusesMalformedOrTooPreciseOrTooLargeAmounts) {
  for (const char* text : {"", ".5", "5.", "-1", "+1", "1e3", "1,5", " 1", "0x10", "1.2.3"}) {
    EXPECT_EQ(ParseTokenAmount(text, 2), std::nullopt) << text;
  }
  EXPECT_EQ(ParseTokenAmount("0.001", 2), std::nullopt);
  EXPECT_EQ(ParseTokenAmount("1.5", 0), std::nullopt);
  // 2^32 base units is the balance limit: 42949672.95 tokens is the largest amount with 2 decimals.
  EXPECT_EQ(ParseTokenAmount("42949672.95", 2), kBalanceLimit - 1);
  EXPECT_EQ(ParseTokenAmount("42949672.96", 2), std::nullopt);
  EXPECT_EQ(ParseTokenAmount("99999999999999999999999", 2), std::nullopt);
}

TEST(Amount, ConvertsBaseUnitsToTokenUnits) {
  EXPECT_EQ(BaseUnitsPerToken(0), 1);
  EXPECT_EQ(BaseUnitsPerToken(2), 100);
  EXPECT_EQ(BaseUnitsPerToken(9), 1000000000);
  EXPECT_DOUBLE_EQ(ToTokenUnits(2500, 2), 25.0);
  EXPECT_DOUBLE_EQ(ToTokenUnits(1, 2), 0.01);
  EXPECT_DOUBLE_EQ(ToTokenUnits(kBalanceLimit - 1, 2), 42949672.95);
}

}  // namespace
}  // namespace netgraph::domain
