#include "core/throttled_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace netgraph::log {
namespace {

using std::chrono::seconds;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class ThrottledLogTest : public ::testing::Test {
 protected:
  ThrottledLog log_{"rejected credentials", seconds(60),
                    [this](std::string_view line) { lines_.emplace_back(line); },
                    [this] { return now_; }};
  std::chrono::steady_clock::time_point now_{};
  std::vector<std::string> lines_;
};

TEST_F(ThrottledLogTest, LogsTheFirstEventInFullAfterItsSubject) {
  log_.Record("token expired");
  EXPECT_THAT(lines_, ElementsAre("rejected credentials: token expired"));
}

TEST_F(ThrottledLogTest, AFloodWritesOneLinePerIntervalAndASummaryWithCountsPerReason) {
  for (int i = 0; i < 1000; ++i) {
    log_.Record(i % 4 == 0 ? "token expired" : "token is unsigned");
    now_ += std::chrono::milliseconds(10);  // 10 s in all: one interval
  }
  ASSERT_EQ(lines_.size(), 1u);

  now_ += seconds(60);
  log_.Record("unknown kid 'k9'");
  ASSERT_EQ(lines_.size(), 3u);
  EXPECT_EQ(lines_[1],
            "rejected credentials: 999 more, not logged one by one (one per 60 s): token expired "
            "x249, token is unsigned x750");
  EXPECT_EQ(lines_[2], "rejected credentials: unknown kid 'k9'");

  // A quiet interval writes no summary.
  now_ += seconds(61);
  log_.Record("token expired");
  EXPECT_EQ(lines_.size(), 4u);
}

TEST_F(ThrottledLogTest, TheIntervalIsMeasuredFromItsFirstLine) {
  log_.Record("a");
  now_ += seconds(59);
  log_.Record("b");
  EXPECT_EQ(lines_.size(), 1u);
  now_ += seconds(1);
  log_.Record("c");
  EXPECT_THAT(lines_, ElementsAre("rejected credentials: a",
                                  "rejected credentials: 1 more, not logged one by one (one "
                                  "per 60 s): b x1",
                                  "rejected credentials: c"));
}

TEST_F(ThrottledLogTest, CountsAtMostAFewDistinctReasonsThenOther) {
  log_.Record("first");
  for (std::size_t i = 0; i < ThrottledLog::kMaxReasons + 50; ++i) {
    log_.Record("unknown kid '" + std::to_string(i) + "'");
  }
  now_ += seconds(60);
  log_.Record("last");
  ASSERT_EQ(lines_.size(), 3u);
  EXPECT_THAT(lines_[1], HasSubstr(std::to_string(ThrottledLog::kMaxReasons + 50) + " more"));
  EXPECT_THAT(lines_[1], HasSubstr(": other x50, "));
  EXPECT_THAT(lines_[1], HasSubstr("unknown kid '0' x1"));
}

}  // namespace
}  // namespace netgraph::log
