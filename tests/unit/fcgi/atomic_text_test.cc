#include "fcgi/pool/atomic_text.h"

#include <gtest/gtest.h>

#include <string>

namespace netgraph::fcgi {
namespace {

// Every length from empty to past the capacity, over a longer text stored first: a shorter text
// must not show the longer one's tail, and Equals must agree with Load.
TEST(AtomicTextTest, LoadAndEqualsAgreeForEveryLength) {
  AtomicText<32> text;
  const std::string letters(40, 'x');
  for (std::size_t length = 0; length <= letters.size(); ++length) {
    text.Store(std::string(40, 'o'));
    const std::string stored = letters.substr(0, length);
    text.Store(stored);
    const std::string expected = stored.substr(0, 31);
    EXPECT_EQ(text.Load(), expected) << length;
    EXPECT_TRUE(text.Equals(expected)) << length;
    EXPECT_FALSE(text.Equals(expected + "x")) << length;
    if (!expected.empty())
      EXPECT_FALSE(text.Equals(expected.substr(0, expected.size() - 1))) << length;
  }
}

TEST(AtomicTextTest, TextAtOrOverTheCapacityIsNeverEqual) {
  AtomicText<16> text;
  text.Store(std::string(20, 'a'));
  EXPECT_EQ(text.Load(), std::string(15, 'a'));
  EXPECT_FALSE(text.Equals(std::string(16, 'a')));
  EXPECT_FALSE(text.Equals(std::string(20, 'a')));
}

}  // namespace
}  // namespace netgraph::fcgi
