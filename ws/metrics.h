// What netgraph-ws says about itself: the counters and gauges of /ws/metrics (the Prometheus text
// format) and the state /ws/health reports (its access lines: ws/access_log.h). nginx routes both
// paths here (nginx/netgraph-locations.conf); /ws/metrics only for the addresses an
// operator allows.
//
// One process-wide instance (WsMetrics()), bumped where things happen (server, connections, hub,
// Redis subscriber, database workers); on the event loop's thread, but for the operation queue's
// sizes, which the database threads set too (atomics).
#ifndef NETGRAPH_WS_METRICS_H_
#define NETGRAPH_WS_METRICS_H_

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/config/environment.h"
#include "core/telemetry.h"

namespace netgraph::ws {

// How a read of missed updates from the outbox ended.
enum class CatchUpOutcome : std::size_t {
  kOk,            // everything missed was read and delivered
  kError,         // PostgreSQL failed
  kPruned,        // a missed update is no longer in the outbox (NETGRAPH_OUTBOX_RETENTION_SECONDS)
  kInvalid,       // a missed update could not be read
  kTooMany,       // more than UpdateFeed::kMaxCatchUpRows missed
  kEpochChanged,  // the outbox started over (a reset database) while it was read
};
inline constexpr std::size_t kCatchUpOutcomes = 6;
std::string_view CatchUpOutcomeName(CatchUpOutcome outcome);

// The bounds of the operation queue, as OperationQueue::Bound numbers them: "connection",
// "address", "process".
inline constexpr std::array<std::string_view, 3> kQueueBoundNames = {"connection", "address",
                                                                     "process"};

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
  // Update lag: from an update's commit (its "appendedAt", core/domain/graph_change.h, the
  // database's clock) to its results being handed to subscribers (this host's clock), one
  // observation per delivery. Buckets: telemetry::kUpdateLagBuckets and +Inf.
  std::array<std::uint64_t, telemetry::kUpdateLagBuckets.size() + 1> update_lag_buckets{};
  double update_lag_sum_seconds = 0;
  // Reads of missed updates from the outbox (ws/update_feed.h), by outcome (CatchUpOutcome), and
  // the updates they delivered.
  std::array<std::uint64_t, kCatchUpOutcomes> catch_up_reads_total{};
  std::uint64_t catch_up_updates_total = 0;
  // The queries and mutations of the database threads (ws/operation_queue.h): waiting, running, and
  // the bytes of their requests; those refused by a bound (by kQueueBoundNames), and those
  // cancelled while waiting, and so never run.
  std::atomic<std::size_t> queue_waiting = 0;
  std::atomic<std::size_t> queue_running = 0;
  std::atomic<std::size_t> queue_bytes = 0;
  std::array<std::uint64_t, kQueueBoundNames.size()> queue_refusals_total{};
  std::uint64_t queue_skipped_total = 0;
  bool redis_connected = false;
  bool stopping = false;
  bool access_log = true;  // NETGRAPH_ACCESS_LOG

  // Reads NETGRAPH_ACCESS_LOG (on by default), as the pool does.
  void Configure(config::Environment& env);
  void CountClose(int code);
  // `deliveries` results of an update appended at `appended_unix_us` (none: the publisher did not
  // say, and nothing is observed) were handed to subscribers now.
  void ObserveUpdateLag(std::optional<std::int64_t> appended_unix_us, std::size_t deliveries);
  // The Prometheus text of everything above, with the process's core counters and build info.
  std::string MetricsText() const;
  // /ws/health's body: {"status":"ok"|"stopping","redis":{"connected":...}}. Public (nginx serves
  // it to anyone), so it tells nothing of the load: the connection count is in MetricsText.
  std::string HealthJson() const;
  bool healthy() const { return !stopping; }
};

WsCounters& WsMetrics();

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_METRICS_H_
