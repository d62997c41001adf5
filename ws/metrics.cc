#include "ws/metrics.h"

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "core/auth/token_refusal.h"
#include "core/store/connection.h"
#include "core/telemetry.h"
#include "core/version.h"

namespace netgraph::ws {
namespace {

// The close codes netgraph-ws sends (ws/session.h); anything else is counted as "other", so the
// label set stays fixed.
bool KnownCloseCode(int code) {
  switch (code) {
    case 1000:
    case 1001:
    case 1009:
    case 1011:
    case 1013:
    case 4400:
    case 4401:
    case 4403:
    case 4406:
    case 4408:
    case 4409:
    case 4429:
    case 4500:
    case 4503:
      return true;
    default:
      return false;
  }
}

}  // namespace

std::string_view CatchUpOutcomeName(CatchUpOutcome outcome) {
  switch (outcome) {
    case CatchUpOutcome::kOk:
      return "ok";
    case CatchUpOutcome::kError:
      return "error";
    case CatchUpOutcome::kPruned:
      return "pruned";
    case CatchUpOutcome::kInvalid:
      return "invalid";
    case CatchUpOutcome::kTooMany:
      return "too_many";
    case CatchUpOutcome::kEpochChanged:
      return "epoch_changed";
  }
  return "error";
}

void WsCounters::ObserveUpdateLag(std::optional<std::int64_t> appended_unix_us,
                                  std::size_t deliveries) {
  if (!appended_unix_us || deliveries == 0) return;
  const std::int64_t now_us = std::chrono::duration_cast<std::chrono::microseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count();
  // The clocks of two hosts: a commit "after" the send is skew, counted as no lag.
  const double seconds =
      static_cast<double>(std::max<std::int64_t>(now_us - *appended_unix_us, 0)) / 1e6;
  update_lag_buckets[telemetry::BucketIndex(telemetry::kUpdateLagBuckets, seconds)] += deliveries;
  update_lag_sum_seconds += seconds * static_cast<double>(deliveries);
}

WsCounters& WsMetrics() {
  static WsCounters counters;
  return counters;
}

void WsCounters::Configure(config::Environment& env) {
  access_log = env.Bool("NETGRAPH_ACCESS_LOG", true);
}

void WsCounters::CountClose(int code) { ++closes_total[KnownCloseCode(code) ? code : 0]; }

std::string WsCounters::MetricsText() const {
  using telemetry::AppendFamily;
  using telemetry::AppendSample;
  std::string out;
  AppendFamily(out, "netgraph_ws_connections", "gauge",
               "Open WebSocket connections by subprotocol.");
  for (const auto& [protocol, count] : open_connections) {
    AppendSample(out, "netgraph_ws_connections", "protocol=\"" + protocol + "\"", count);
  }
  AppendFamily(out, "netgraph_ws_connections_total", "counter",
               "WebSocket connections accepted, by subprotocol.");
  for (const auto& [protocol, count] : connections_total) {
    AppendSample(out, "netgraph_ws_connections_total", "protocol=\"" + protocol + "\"", count);
  }
  AppendFamily(out, "netgraph_ws_subscribers", "gauge",
               "Running subscription operations (a connection's operation id each).");
  AppendSample(out, "netgraph_ws_subscribers", "", subscribers);
  AppendFamily(out, "netgraph_ws_subscriptions", "gauge",
               "Distinct running subscriptions: each update is executed once per subscription.");
  AppendSample(out, "netgraph_ws_subscriptions", "", subscriptions);
  AppendFamily(out, "netgraph_ws_documents", "gauge", "Distinct subscription documents held.");
  AppendSample(out, "netgraph_ws_documents", "", documents);
  AppendFamily(out, "netgraph_ws_deliveries_total", "counter",
               "Subscription results handed to subscribers.");
  AppendSample(out, "netgraph_ws_deliveries_total", "", deliveries_total);
  AppendFamily(out, "netgraph_ws_sent_bytes_total", "counter", "WebSocket message bytes written.");
  AppendSample(out, "netgraph_ws_sent_bytes_total", "", bytes_sent_total);
  AppendFamily(out, "netgraph_ws_closes_total", "counter",
               "Connections the server closed, by close code (4503: slow consumer).");
  for (const auto& [code, count] : closes_total) {
    AppendSample(out, "netgraph_ws_closes_total",
                 "code=\"" + (code == 0 ? std::string("other") : std::to_string(code)) + "\"",
                 count);
  }
  AppendFamily(out, "netgraph_ws_slow_consumers_closed_total", "counter",
               "Connections closed because the client fell too far behind (close code 4503).");
  auto slow = closes_total.find(4503);
  AppendSample(out, "netgraph_ws_slow_consumers_closed_total", "",
               slow == closes_total.end() ? 0 : slow->second);
  AppendFamily(out, "netgraph_ws_update_lag_seconds", "histogram",
               "Time from a graph update's commit to its results being handed to subscribers, one "
               "observation per delivery.");
  telemetry::AppendHistogram(out, "netgraph_ws_update_lag_seconds", "",
                             telemetry::kUpdateLagBuckets, update_lag_buckets,
                             update_lag_sum_seconds);
  AppendFamily(out, "netgraph_ws_catch_up_reads_total", "counter",
               "Reads of missed updates from the outbox in PostgreSQL, by outcome.");
  for (std::size_t o = 0; o < kCatchUpOutcomes; ++o) {
    AppendSample(
        out, "netgraph_ws_catch_up_reads_total",
        "outcome=\"" + std::string(CatchUpOutcomeName(static_cast<CatchUpOutcome>(o))) + "\"",
        catch_up_reads_total[o]);
  }
  AppendFamily(out, "netgraph_ws_catch_up_updates_total", "counter",
               "Updates delivered from the outbox rather than from Redis.");
  AppendSample(out, "netgraph_ws_catch_up_updates_total", "", catch_up_updates_total);
  AppendFamily(out, "netgraph_ws_queued_operations", "gauge",
               "Queries and mutations waiting for a database thread.");
  AppendSample(out, "netgraph_ws_queued_operations", "", queue_waiting.load());
  AppendFamily(out, "netgraph_ws_running_operations", "gauge",
               "Queries and mutations a database thread is running (cancelled ones included).");
  AppendSample(out, "netgraph_ws_running_operations", "", queue_running.load());
  AppendFamily(out, "netgraph_ws_queued_operation_bytes", "gauge",
               "Memory the requests of waiting and running operations hold.");
  AppendSample(out, "netgraph_ws_queued_operation_bytes", "", queue_bytes.load());
  AppendFamily(out, "netgraph_ws_queue_refusals_total", "counter",
               "Queries and mutations refused because the operation queue was full, by the bound "
               "they met.");
  for (std::size_t b = 0; b < kQueueBoundNames.size(); ++b) {
    AppendSample(out, "netgraph_ws_queue_refusals_total",
                 "bound=\"" + std::string(kQueueBoundNames[b]) + "\"", queue_refusals_total[b]);
  }
  AppendFamily(out, "netgraph_ws_queue_skipped_total", "counter",
               "Queries and mutations cancelled (complete, stop or a closed socket) while they "
               "waited, and so never run.");
  AppendSample(out, "netgraph_ws_queue_skipped_total", "", queue_skipped_total);
  AppendFamily(out, "netgraph_ws_redis_connected", "gauge",
               "1 while the Redis subscription connection is up.");
  AppendSample(out, "netgraph_ws_redis_connected", "", redis_connected ? 1 : 0);
  AppendFamily(out, "netgraph_ws_postgres_errors_total", "counter",
               "Failed PostgreSQL statements and connection attempts of netgraph-ws.");
  AppendSample(out, "netgraph_ws_postgres_errors_total", "", store::kPostgresErrors.Read());
  AppendFamily(out, "netgraph_ws_jwt_refusals_total", "counter",
               "Bearer tokens netgraph-ws refused (all reasons).");
  std::uint64_t refusals = 0;
  for (auth::TokenRefusal reason : auth::kTokenRefusals) refusals += auth::RefusalsCounted(reason);
  AppendSample(out, "netgraph_ws_jwt_refusals_total", "", refusals);
  AppendFamily(out, "netgraph_build_info", "gauge", "The running build; always 1.");
  out.append("netgraph_build_info{daemon=\"netgraph-ws\",version=\"");
  out.append(ReleaseVersion()).append("\",commit=\"").append(BuildCommit());
  out.append("\"} 1\n");
  return out;
}

std::string WsCounters::HealthJson() const {
  nlohmann::json body = {{"status", stopping ? "stopping" : "ok"},
                         {"redis", {{"connected", redis_connected}}}};
  return body.dump();
}

}  // namespace netgraph::ws
