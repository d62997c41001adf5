#include "fcgi/pool/access_log.h"

#include <cstdint>
#include <utility>
#include <vector>

#include "core/graphql/execution/json_writer.h"
#include "core/graphql/execution/response_buffer.h"
#include "core/telemetry.h"

namespace netgraph::fcgi {
namespace {

double Milliseconds(std::chrono::nanoseconds duration) {
  return static_cast<double>(duration.count()) / 1e6;
}

// A log line's JSON object, written straight into a buffer (a request's access line is built for
// every request: a document tree would cost it several allocations per field).
class JsonLine {
 public:
  JsonLine() { text_.Append('{'); }
  JsonLine& Field(std::string_view name, std::string_view value) {
    Name(name);
    graphql::json::AppendString(value, &text_);
    return *this;
  }
  JsonLine& Field(std::string_view name, double value) {
    Name(name);
    graphql::json::AppendNumber(value, &text_);
    return *this;
  }
  JsonLine& Field(std::string_view name, std::int64_t value) {
    Name(name);
    graphql::json::AppendInt(value, &text_);
    return *this;
  }
  template <typename Range, typename Write>
  JsonLine& Array(std::string_view name, const Range& items, Write write) {
    Name(name);
    text_.Append('[');
    bool first = true;
    for (const auto& item : items) {
      if (!first) text_.Append(',');
      first = false;
      write(item, &text_);
    }
    text_.Append(']');
    return *this;
  }
  // The object closed; the line is spent.
  std::string Finish() {
    text_.Append('}');
    return std::move(text_).Release();
  }

 private:
  void Name(std::string_view name) {
    if (fields_++ > 0) text_.Append(',');
    graphql::json::AppendString(name, &text_);
    text_.Append(':');
  }

  graphql::ResponseBuffer text_;
  int fields_ = 0;
};

// What one request was, for the access and slow lines.
JsonLine Describe(const LoggedRequest& request) {
  const GraphQLTrace& trace = request.trace;
  JsonLine line;
  line.Field("time", telemetry::NowUtc())
      .Field("request_id", request.request_id)
      .Field("trace_id", request.trace_id)
      .Field("span_id", request.span_id);
  if (!request.parent_span_id.empty()) line.Field("parent_span_id", request.parent_span_id);
  line.Field("method", request.method).Field("path", request.path);
  if (request.path == "/graphql") {
    line.Field("operation_type", OperationKindName(KindOf(trace)))
        .Field("operation_name", trace.operation        ? trace.operation->name
                                 : trace.operation_name ? std::string_view(*trace.operation_name)
                                                        : std::string_view());
    static const std::vector<std::string_view> kNone;
    line.Array("root_fields", trace.operation ? trace.operation->root_fields : kNone,
               graphql::json::AppendString);
  }
  return line;
}

}  // namespace

OperationKind KindOf(const GraphQLTrace& trace) {
  if (!trace.operation) return OperationKind::kNone;
  switch (trace.operation->type) {
    case graphql::OperationType::kQuery:
      return OperationKind::kQuery;
    case graphql::OperationType::kMutation:
      return OperationKind::kMutation;
    case graphql::OperationType::kSubscription:
      return OperationKind::kSubscription;
  }
  return OperationKind::kNone;
}

bool IsRoutinePath(std::string_view path) {
  return path == "/metrics" || path == "/status" || path == "/health";
}

std::string AccessLine(const LoggedRequest& request) {
  const GraphQLTrace& trace = request.trace;
  JsonLine access = Describe(request);
  access.Field("status", std::int64_t{request.status})
      .Array("error_codes", trace.error_codes, graphql::json::AppendString);
  if (!trace.failure.empty()) access.Field("failure", trace.failure);
  access.Field("duration_ms", Milliseconds(request.duration))
      .Field("bytes", static_cast<std::int64_t>(request.bytes));
  if (!trace.caller.empty()) access.Field("caller", trace.caller);
  return "access " + access.Finish();
}

std::string SlowLine(const LoggedRequest& request) {
  const GraphQLTrace& trace = request.trace;
  JsonLine line = Describe(request);
  line.Field("duration_ms", Milliseconds(request.duration))
      .Field("prepare_ms", Milliseconds(trace.prepare))
      .Field("execute_ms", Milliseconds(trace.execute))
      .Field("database_ms", Milliseconds(telemetry::RequestProfile::DatabaseTime()))
      .Field("statements", static_cast<std::int64_t>(telemetry::RequestProfile::Statements()))
      .Array("resolvers", telemetry::RequestProfile::Resolvers(),
             [](const telemetry::RequestProfile::Resolver& resolver, graphql::ResponseBuffer* out) {
               out->Append(JsonLine()
                               .Field("field", resolver.field)
                               .Field("ms", Milliseconds(resolver.total))
                               .Field("database_ms", Milliseconds(resolver.database))
                               .Finish());
             });
  return "slow request " + line.Finish();
}

}  // namespace netgraph::fcgi
