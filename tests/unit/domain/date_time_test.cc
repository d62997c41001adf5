#include "core/domain/date_time.h"

#include <gtest/gtest.h>

namespace netgraph::domain {
namespace {

TEST(DateTime, FormatsRfc3339UtcWithMilliseconds) {
  EXPECT_EQ(FormatDateTime(FromEpochMicros(0)), "1970-01-01T00:00:00.000Z");
  // 2026-11-21T09:30:00Z = 1795253400 s.
  EXPECT_EQ(FormatDateTime(FromEpochMicros(1795253400LL * 1000000)), "2026-11-21T09:30:00.000Z");
  // Sub-millisecond digits are truncated, not rounded.
  EXPECT_EQ(FormatDateTime(FromEpochMicros(1795253400LL * 1000000 + 123999)),
            "2026-11-21T09:30:00.123Z");
  // A leap day and the last microsecond of a year.
  EXPECT_EQ(FormatDateTime(FromEpochMicros(951782400LL * 1000000)), "2000-02-29T00:00:00.000Z");
  EXPECT_EQ(FormatDateTime(FromEpochMicros(1735689600LL * 1000000 - 1)),
            "2024-12-31T23:59:59.999Z");
}

TEST(DateTime, FormatsInstantsBeforeTheEpoch) {
  EXPECT_EQ(FormatDateTime(FromEpochMicros(-1000)), "1969-12-31T23:59:59.999Z");
}

}  // namespace
}  // namespace netgraph::domain
