#include "daemon/trace_context.h"

#include <gtest/gtest.h>

#include <initializer_list>
#include <regex>
#include <string>

namespace netgraph::daemon {
namespace {

const std::string kTraceId = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string kParentId = "00f067aa0ba902b7";

bool IsHex(const std::string& text, std::size_t length) {
  return std::regex_match(text, std::regex("[0-9a-f]{" + std::to_string(length) + "}"));
}

TEST(JoinTrace, JoinsTheCallersTraceWithASpanOfItsOwn) {
  const TraceContext context = JoinTrace("00-" + kTraceId + "-" + kParentId + "-01");
  EXPECT_EQ(context.trace_id, kTraceId);
  EXPECT_EQ(context.parent_id, kParentId);
  EXPECT_EQ(context.flags, "01");
  EXPECT_TRUE(IsHex(context.span_id, 16));
  EXPECT_NE(context.span_id, kParentId);
  EXPECT_EQ(context.Header(), "00-" + kTraceId + "-" + context.span_id + "-01");
  EXPECT_NE(JoinTrace("00-" + kTraceId + "-" + kParentId + "-01").span_id, context.span_id);
}

TEST(JoinTrace, AcceptsALaterVersionWithMoreAfterIt) {
  EXPECT_EQ(JoinTrace("cc-" + kTraceId + "-" + kParentId + "-00-more").trace_id, kTraceId);
  EXPECT_EQ(JoinTrace("01-" + kTraceId + "-" + kParentId + "-00").trace_id, kTraceId);
}

TEST(JoinTrace, StartsANewTraceWhenAbsentOrMalformed) {
  const std::string zeros32(32, '0');
  const std::string zeros16(16, '0');
  for (const std::string& bad : std::initializer_list<std::string>{
           std::string(),
           std::string("garbage"),
           "00-" + kTraceId + "-" + kParentId + "-01-extra",  // version 00 is exactly 55
           "ff-" + kTraceId + "-" + kParentId + "-01",
           "00-" + zeros32 + "-" + kParentId + "-01",
           "00-" + kTraceId + "-" + zeros16 + "-01",
           "00-4BF92F3577B34DA6A3CE929D0E0E4736-" + kParentId + "-01",  // uppercase
           "00-" + kTraceId + "_" + kParentId + "-01",
           "cc-" + kTraceId + "-" + kParentId + "-00x",
           "00-" + kTraceId + "-" + kParentId + "-0g",
       }) {
    const TraceContext context = JoinTrace(bad);
    EXPECT_NE(context.trace_id, kTraceId) << bad;
    EXPECT_TRUE(IsHex(context.trace_id, 32)) << bad;
    EXPECT_NE(context.trace_id, zeros32) << bad;
    EXPECT_TRUE(context.parent_id.empty()) << bad;
    EXPECT_EQ(context.flags, "00") << bad;
    EXPECT_TRUE(IsHex(context.span_id, 16)) << bad;
  }
  EXPECT_NE(JoinTrace("").trace_id, JoinTrace("").trace_id);
}

}  // namespace
}  // namespace netgraph::daemon
