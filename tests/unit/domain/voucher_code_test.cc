#include "core/domain/internal/voucher_code.h"

#include <gtest/gtest.h>

#include <set>

namespace netgraph::domain {
namespace {

TEST(VoucherCode, NormalizesCaseSeparatorsAndLookAlikes) {
  EXPECT_EQ(NormalizeVoucherCode("7KQ2-M9XD-RT4B-PW0C-HN3F"), "7KQ2M9XDRT4BPW0CHN3F");
  EXPECT_EQ(NormalizeVoucherCode("7kq2 m9xd rt4b pw0c hn3f"), "7KQ2M9XDRT4BPW0CHN3F");
  // Crockford: O reads as 0, I and L as 1.
  EXPECT_EQ(NormalizeVoucherCode("OOOO-IIII-LLLL-oooo-iill"), "00001111111100001111");
}

TEST(VoucherCode, RefusesWhatIsNotACode) {
  EXPECT_EQ(NormalizeVoucherCode(""), std::nullopt);
  EXPECT_EQ(NormalizeVoucherCode("7KQ2-M9XD-RT4B-PW0C-HN3"), std::nullopt);    // 19 characters
  EXPECT_EQ(NormalizeVoucherCode("7KQ2-M9XD-RT4B-PW0C-HN3FF"), std::nullopt);  // 21
  EXPECT_EQ(NormalizeVoucherCode("7KQ2-M9XD-RT4B-PW0C-HN3U"), std::nullopt);   // U is not used
  EXPECT_EQ(NormalizeVoucherCode("7KQ2_M9XD_RT4B_PW0C_HN3F"), std::nullopt);   // other separators
  EXPECT_EQ(NormalizeVoucherCode("7KQ2-M9XD-RT4B-PW0C-HN3F'; --"), std::nullopt);
  EXPECT_EQ(NormalizeVoucherCode(std::string(200, '-') + "7KQ2M9XDRT4BPW0CHN3F"), std::nullopt);
}

TEST(VoucherCode, FormatsInGroupsOfFour) {
  EXPECT_EQ(FormatVoucherCode("7KQ2M9XDRT4BPW0CHN3F"), "7KQ2-M9XD-RT4B-PW0C-HN3F");
}

TEST(VoucherCode, GeneratedCodesAreNormalAndDistinct) {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) {
    Result<std::string> code = GenerateVoucherCode();
    ASSERT_TRUE(code.ok());
    EXPECT_EQ(NormalizeVoucherCode(*code), *code);
    EXPECT_EQ(NormalizeVoucherCode(FormatVoucherCode(*code)), *code);
    seen.insert(*code);
  }
  EXPECT_EQ(seen.size(), 1000u);
}

TEST(VoucherCode, GeneratedCodesUseTheWholeAlphabetAtEveryPosition) {
  // 100 bits of entropy need all 32 symbols at all 20 positions; 4000 codes miss one with
  // probability ~ 20 * 32 * (31/32)^4000, which is negligible.
  std::vector<std::set<char>> symbols(kVoucherCodeLength);
  for (int i = 0; i < 4000; ++i) {
    Result<std::string> code = GenerateVoucherCode();
    ASSERT_TRUE(code.ok());
    for (std::size_t p = 0; p < kVoucherCodeLength; ++p) symbols[p].insert((*code)[p]);
  }
  for (const std::set<char>& at : symbols) EXPECT_EQ(at.size(), 32u);
}

}  // namespace
}  // namespace netgraph::domain
