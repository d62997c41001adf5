// What netgraph-ws says about itself (ws/metrics.h): the public health body tells nothing of the
// load.
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

}  // namespace
}  // namespace netgraph::ws
