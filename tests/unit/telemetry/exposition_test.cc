// The Prometheus text format as core/telemetry.h writes it: label values are escaped, so whatever
// they hold cannot end a label, a sample or a line early.
#include <gtest/gtest.h>

#include <string>

#include "core/telemetry.h"

namespace netgraph::telemetry {
namespace {

TEST(AppendLabelTest, JoinsLabelsWithCommas) {
  std::string labels;
  AppendLabel(labels, "operation_type", "query");
  AppendLabel(labels, "code", "");
  EXPECT_EQ(labels, R"(operation_type="query",code="")");
}

TEST(AppendLabelTest, EscapesBackslashDoubleQuoteAndLineFeed) {
  std::string labels;
  AppendLabel(labels, "code", "a\\b\"c\nd");
  EXPECT_EQ(labels, R"(code="a\\b\"c\nd")");
}

TEST(AppendLabelTest, AValueCannotForgeAnotherLabelOrSample) {
  std::string labels;
  AppendLabel(labels, "code", "x\",status=\"500\"} 1\nnetgraph_forged 1\n#");
  std::string out;
  AppendSample(out, "netgraph_requests_total", labels, 7);
  // One line, one label, the value's quotes escaped.
  EXPECT_EQ(out,
            "netgraph_requests_total{code=\"x\\\",status=\\\"500\\\"} 1\\nnetgraph_forged 1\\n#\"} "
            "7\n");
  EXPECT_EQ(out.find('\n'), out.size() - 1);
}

TEST(AppendLabelTest, LeavesOtherTextAlone) {
  std::string labels;
  AppendLabel(labels, "code", "Voucher already claimed: ü, {x=1}");
  EXPECT_EQ(labels, "code=\"Voucher already claimed: ü, {x=1}\"");
}

}  // namespace
}  // namespace netgraph::telemetry
