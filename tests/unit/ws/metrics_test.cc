// What netgraph-ws says about itself (ws/metrics.h): the public health body tells nothing of the
// load, and the operation queue's sizes, refusals and skipped jobs are in /ws/metrics.
#include "ws/metrics.h"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

namespace netgraph::ws {
namespace {

TEST(WsMetricsTest, HealthShowsNoConnectionCount) {
  WsCounters counters;
  counters.open_connections["graphql-transport-ws"] = 12;
  counters.redis_connected = true;
  EXPECT_EQ(nlohmann::json::parse(counters.HealthJson()),
            (nlohmann::json{{"status", "ok"}, {"redis", {{"connected", true}}}}));
  // The operator's view keeps it.
  EXPECT_NE(counters.MetricsText().find(
                "netgraph_ws_connections{protocol=\"graphql-transport-ws\"} 12\n"),
            std::string::npos);
}

TEST(WsMetricsTest, TheOperationQueueIsInTheMetrics) {
  WsCounters counters;
  counters.queue_waiting = 3;
  counters.queue_running = 4;
  counters.queue_bytes = 5000;
  counters.queue_refusals_total[1] = 7;
  counters.queue_skipped_total = 9;
  const std::string text = counters.MetricsText();
  for (const char* sample :
       {"netgraph_ws_queued_operations 3\n", "netgraph_ws_running_operations 4\n",
        "netgraph_ws_queued_operation_bytes 5000\n",
        "netgraph_ws_queue_refusals_total{bound=\"connection\"} 0\n",
        "netgraph_ws_queue_refusals_total{bound=\"address\"} 7\n",
        "netgraph_ws_queue_refusals_total{bound=\"process\"} 0\n",
        "netgraph_ws_queue_skipped_total 9\n"}) {
    EXPECT_NE(text.find(sample), std::string::npos) << sample;
  }
}

}  // namespace
}  // namespace netgraph::ws
