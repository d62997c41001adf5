// The Prometheus text format as core/telemetry.h writes it: label values are escaped, so whatever
// they hold cannot end a label, a sample or a line early; the counters concerns define are listed
// by family.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/telemetry.h"

namespace netgraph::telemetry {
namespace {

// The second is formatted once and kept: times in the same second, the next one, and back again.
TEST(FormatUtcTest, MillisecondsAfterTheEpochInUtc) {
  EXPECT_EQ(FormatUtc(1795832820115), "2026-11-28T02:27:00.115Z");
  EXPECT_EQ(FormatUtc(1795832820007), "2026-11-28T02:27:00.007Z");
  EXPECT_EQ(FormatUtc(1795832820999), "2026-11-28T02:27:00.999Z");
  EXPECT_EQ(FormatUtc(1795832821000), "2026-11-28T02:27:01.000Z");
  EXPECT_EQ(FormatUtc(0), "1970-01-01T00:00:00.000Z");
  EXPECT_EQ(FormatUtc(1795832820115), "2026-11-28T02:27:00.115Z");
}

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

// Counters a concern would define: one family of two labelled samples, defined apart, and a gauge.
const Counter kApples({"netgraph_test_fruit_total", MetricType::kCounter, "Fruit, by kind.",
                       R"(kind="apple")"});
const Counter kHeld({"netgraph_test_held_bytes", MetricType::kGauge, "Bytes held now.", ""});
const Counter kPears({"netgraph_test_fruit_total", MetricType::kCounter, "Fruit, by kind.",
                      R"(kind="pear")"});

TEST(AppendCountersTest, EachFamilyOnceWithItsSamplesFromTheValuesGiven) {
  std::vector<std::uint64_t> values(kCounterCount, 0);
  values[kApples.slot()] = 3;
  values[kPears.slot()] = 4;
  values[kHeld.slot()] = 1024;
  std::string out;
  AppendCounters(out, values);
  const std::string fruit =
      "# HELP netgraph_test_fruit_total Fruit, by kind.\n"
      "# TYPE netgraph_test_fruit_total counter\n"
      "netgraph_test_fruit_total{kind=\"apple\"} 3\n"
      "netgraph_test_fruit_total{kind=\"pear\"} 4\n";
  EXPECT_NE(out.find(fruit), std::string::npos) << out;
  EXPECT_EQ(out.find("# HELP netgraph_test_fruit_total"),
            out.rfind("# HELP netgraph_test_fruit_total"));
  EXPECT_NE(out.find("# HELP netgraph_test_held_bytes Bytes held now.\n"
                     "# TYPE netgraph_test_held_bytes gauge\n"
                     "netgraph_test_held_bytes 1024\n"),
            std::string::npos)
      << out;
}

TEST(AppendCountersTest, ACounterCountsInTheStorageInUse) {
  const std::uint64_t before = kApples.Read();
  kApples.Add(2);
  EXPECT_EQ(kApples.Read(), before + 2);
  std::array<std::atomic<std::uint64_t>, kCounterCount> storage{};
  UseCounterStorage(storage.data());
  kApples.Add();
  kHeld.Set(77);
  EXPECT_EQ(storage[kApples.slot()].load(), 1u);
  EXPECT_EQ(storage[kHeld.slot()].load(), 77u);
  UseCounterStorage(nullptr);
  EXPECT_EQ(kApples.Read(), before + 2);
}

}  // namespace
}  // namespace netgraph::telemetry
