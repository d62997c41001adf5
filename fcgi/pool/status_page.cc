#include "fcgi/pool/status_page.h"

#include <time.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/telemetry.h"
#include "core/version.h"
#include "fcgi/pool/listen_queue.h"

namespace netgraph::fcgi {
namespace {

std::int64_t MonotonicNs() {
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<std::int64_t>(now.tv_sec) * 1000000000 + now.tv_nsec;
}

// The scoreboard's figures, in the order /metrics lists them.
void AppendScoreboardMetrics(std::string& out, const ScoreboardTotals& totals) {
  using telemetry::AppendFamily;
  using telemetry::AppendSample;
  AppendFamily(out, "netgraph_pool_workers", "gauge", "FastCGI workers by state.");
  AppendSample(out, "netgraph_pool_workers", "state=\"busy\"", totals.busy);
  AppendSample(out, "netgraph_pool_workers", "state=\"idle\"", totals.idle);
  AppendFamily(out, "netgraph_pool_child_restarts_total", "counter",
               "Pool children the master replaced, by cause.");
  for (std::size_t c = 0; c < kRestartCauses; ++c) {
    AppendSample(out, "netgraph_pool_child_restarts_total",
                 "cause=\"" + std::string(RestartCauseName(static_cast<RestartCause>(c))) + "\"",
                 totals.restarts[c]);
  }

  AppendFamily(
      out, "netgraph_graphql_requests_total", "counter",
      "GraphQL requests by operation type, first root field, outcome, code and HTTP status.");
  for (const auto& [labels, count] : totals.requests)
    AppendSample(out, "netgraph_graphql_requests_total", labels, count);
  AppendSample(out, "netgraph_graphql_requests_total",
               "operation_type=\"other\",root_field=\"\",outcome=\"other\",code=\"\",status=\"\"",
               totals.requests_overflow);

  AppendFamily(
      out, "netgraph_graphql_request_duration_seconds", "histogram",
      "Time from a GraphQL request's arrival at the worker to its response, by operation type.");
  for (std::size_t k = 0; k < kOperationKinds; ++k) {
    const std::string kind =
        "operation_type=\"" + std::string(OperationKindName(static_cast<OperationKind>(k))) + "\"";
    telemetry::AppendHistogram(out, "netgraph_graphql_request_duration_seconds", kind,
                               kLatencyBuckets, totals.latency_buckets[k],
                               static_cast<double>(totals.latency_sum_ns[k]) / 1e9);
  }

  AppendFamily(out, "netgraph_outbox_published_total", "counter",
               "Outbox messages the relay published on Redis.");
  AppendSample(out, "netgraph_outbox_published_total", "", totals.outbox_published);
  if (totals.outbox_backlog) {
    AppendFamily(
        out, "netgraph_outbox_backlog", "gauge",
        "Outbox messages committed and not yet published, as the relay last counted them.");
    AppendSample(out, "netgraph_outbox_backlog", "", *totals.outbox_backlog);
  }
  AppendFamily(out, "netgraph_outbox_relay_lag_seconds", "histogram",
               "Time from an outbox message's commit to its publication on Redis.");
  telemetry::AppendHistogram(out, "netgraph_outbox_relay_lag_seconds", "",
                             telemetry::kUpdateLagBuckets, totals.relay_lag_buckets,
                             static_cast<double>(totals.relay_lag_sum_us) / 1e6);

  // The families the core's concerns define (core/telemetry.h), summed over the slots.
  telemetry::AppendCounters(out, totals.telemetry);
}

}  // namespace

std::string PoolStatusJson(const PoolView& pool) {
  const std::int64_t now_ns = MonotonicNs();
  nlohmann::json workers = nlohmann::json::array();
  std::size_t busy = 0;
  std::size_t idle = 0;
  for (const SlotSnapshot& slot : pool.scoreboard->Snapshot()) {
    if (slot.state != SlotState::kBusy && slot.state != SlotState::kIdle) continue;
    nlohmann::json worker = {{"pid", slot.pid},
                             {"state", SlotStateName(slot.state)},
                             {"requests", slot.requests_served}};
    if (slot.state == SlotState::kBusy) {
      ++busy;
      worker["path"] = slot.path;
      worker["request_id"] = slot.request_id;
      worker["operation_type"] = OperationKindName(slot.kind);
      worker["operation_name"] = slot.operation_name;
      worker["root_fields"] = slot.root_fields;
      worker["started"] = telemetry::FormatUtc(slot.started_unix_ms);
      worker["elapsed_ms"] = (now_ns - slot.started_monotonic_ns) / 1000000;
    } else {
      ++idle;
    }
    workers.push_back(std::move(worker));
  }
  nlohmann::json body = {{"start_time", telemetry::FormatUtc(pool.scoreboard->started_unix_ms())},
                         {"busy_workers", busy},
                         {"idle_workers", idle},
                         {"total_workers", busy + idle},
                         {"workers", std::move(workers)}};
  if (std::optional<ListenQueue> queue = ReadListenQueue(pool.listen_fd)) {
    body["listen_queue"] = queue->waiting;
    body["listen_queue_limit"] = queue->limit;
  }
  return body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string PoolMetricsText(const PoolView& pool) {
  std::string out;
  AppendScoreboardMetrics(out, pool.scoreboard->Totals());
  if (std::optional<ListenQueue> queue = ReadListenQueue(pool.listen_fd)) {
    out.append(
        "# HELP netgraph_pool_listen_queue Connections waiting in the pool's accept queue.\n"
        "# TYPE netgraph_pool_listen_queue gauge\n");
    out.append("netgraph_pool_listen_queue ").append(std::to_string(queue->waiting)).append("\n");
    out.append(
        "# HELP netgraph_pool_listen_queue_limit The accept queue's bound (the listen backlog).\n"
        "# TYPE netgraph_pool_listen_queue_limit gauge\n");
    out.append("netgraph_pool_listen_queue_limit ").append(std::to_string(queue->limit));
    out.append("\n");
  }
  out.append(
      "# HELP netgraph_build_info The running build; always 1.\n"
      "# TYPE netgraph_build_info gauge\n");
  std::string build;
  telemetry::AppendLabel(build, "daemon", "netgraph-fcgi");
  telemetry::AppendLabel(build, "version", ReleaseVersion());
  telemetry::AppendLabel(build, "commit", BuildCommit());
  telemetry::AppendSample(out, "netgraph_build_info", build, 1);
  return out;
}

void AddStatusPages(Router& router, const PoolView& pool) {
  if (pool.scoreboard == nullptr) return;
  router.AddPage("/status",
                 {"application/json; charset=utf-8", [&pool] { return PoolStatusJson(pool); }});
  router.AddPage("/metrics", {"text/plain; version=0.0.4; charset=utf-8",
                              [&pool] { return PoolMetricsText(pool); }});
}

}  // namespace netgraph::fcgi
