// What netgraph-ws says about itself: the counters and gauges of /ws/metrics (the Prometheus text
// format), the state /ws/health reports, and the access line of each WebSocket upgrade. nginx
// routes both paths here (nginx/netgraph-locations.conf); /ws/metrics only for the addresses an
// operator allows.
//
// One process-wide instance (WsMetrics()), bumped where things happen (server, connections, hub,
// Redis subscriber); single-threaded like the event loop that owns everything it counts.
#ifndef NETGRAPH_WS_METRICS_H_
#define NETGRAPH_WS_METRICS_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "core/config/environment.h"

namespace netgraph::ws {

struct WsCounters {
  // Open connections and all connections accepted, by subprotocol ("graphql-transport-ws",
  // "graphql-ws"; upgrades refused before a session started are not counted here).
  std::map<std::string, std::int64_t, std::less<>> open_connections;
  std::map<std::string, std::uint64_t, std::less<>> connections_total;
  // Close frames the server sent, by code (the codes of ws/session.h).
  std::map<int, std::uint64_t> closes_total;
  std::uint64_t deliveries_total = 0;  // subscription results handed to subscribers
  std::uint64_t bytes_sent_total = 0;  // WebSocket message payloads written
  std::size_t subscribers = 0;         // (connection, operation id) pairs running
  std::size_t subscriptions = 0;       // distinct running subscriptions (shared executions)
  std::size_t documents = 0;           // distinct subscription documents
  bool redis_connected = false;
  bool stopping = false;
  bool access_log = true;  // NETGRAPH_ACCESS_LOG

  // Reads NETGRAPH_ACCESS_LOG (on by default), as the pool does.
  void Configure(config::Environment& env);
  void CountClose(int code);
  // The Prometheus text of everything above, with the process's core counters and build info.
  std::string MetricsText() const;
  // /ws/health's body: {"status":"ok"|"stopping","redis":{"connected":...},"connections":N}.
  std::string HealthJson() const;
  bool healthy() const { return !stopping; }
};

WsCounters& WsMetrics();

// Logs the access line of an upgrade: time, nginx's request id (the netgraph_request_id URL
// parameter nginx adds), subprotocol, client address, and the close code when it was refused.
void LogUpgrade(std::string_view request_id, std::string_view protocol, std::string_view address,
                int refused_with);

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_METRICS_H_
