#include "ws/access_log.h"

#include <nlohmann/json.hpp>

#include "core/log.h"
#include "core/telemetry.h"
#include "ws/metrics.h"

namespace netgraph::ws {
namespace {

// The fields every line of `connection` starts with; `span_id` is the line's span.
nlohmann::json Line(const ConnectionIdentity& connection, const std::string& span_id,
                    const std::string& parent_span_id) {
  nlohmann::json line = {{"time", telemetry::NowUtc()},
                         {"request_id", connection.request_id},
                         {"trace_id", connection.trace.trace_id},
                         {"span_id", span_id}};
  if (!parent_span_id.empty()) line["parent_span_id"] = parent_span_id;
  return line;
}

void Write(std::string_view marker, const nlohmann::json& line) {
  log::Info(std::string(marker) + " " +
            line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

}  // namespace

void LogUpgrade(const ConnectionIdentity& connection, int refused_with) {
  if (!WsMetrics().access_log) return;
  nlohmann::json line = Line(connection, connection.trace.span_id, connection.trace.parent_id);
  line["method"] = "GET";
  line["path"] = "/graphql";
  line["upgrade"] = "websocket";
  line["protocol"] = connection.protocol;
  line["client"] = connection.client;
  if (refused_with != 0) line["refused_with"] = refused_with;
  Write("access", line);
}

void LogOperation(const ConnectionIdentity& connection, const OperationLog& operation) {
  if (!WsMetrics().access_log) return;
  nlohmann::json line = Line(connection, operation.span_id, connection.trace.span_id);
  line["id"] = operation.id;
  if (operation.operation_name) line["operation_name"] = *operation.operation_name;
  line["outcome"] = operation.outcome;
  line["error_codes"] = operation.error_codes;
  if (operation.closed_with != 0) line["closed_with"] = operation.closed_with;
  if (operation.duration) line["duration_ms"] = operation.duration->count();
  Write("operation", line);
}

void LogClose(const ConnectionIdentity& connection, const CloseLog& close) {
  if (!WsMetrics().access_log) return;
  nlohmann::json line = Line(connection, connection.trace.span_id, connection.trace.parent_id);
  line["closed_by"] = close.closed_by;
  if (close.code) line["code"] = *close.code;
  if (!close.reason.empty()) line["reason"] = close.reason;
  line["duration_ms"] = close.duration.count();
  Write("close", line);
}

}  // namespace netgraph::ws
