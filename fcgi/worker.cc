#include "fcgi/worker.h"

#include <fcgiapp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <sys/random.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <exception>
#include <string>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

#include "core/crypto/hex.h"
#include "core/log.h"
#include "core/telemetry.h"
#include "daemon/signals.h"
#include "fcgi/routes.h"

namespace netgraph::fcgi {
namespace {

volatile std::sig_atomic_t g_stop = 0;
int g_listen_fd = -1;
int g_unlistening_fd = -1;

// php-fpm's trick: put a socket that is not listening where the listening socket was, so an
// accept() blocked in libfcgi (restarted after this handler, SA_RESTART) fails at once and the loop
// ends, while a request in progress completes.
void OnStop(int) {
  g_stop = 1;
  ::dup2(g_unlistening_fd, g_listen_fd);
}

void InstallHandlers(int listen_fd) {
  g_listen_fd = listen_fd;
  g_unlistening_fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  daemon::HandleSignals({SIGTERM, SIGINT, SIGQUIT}, OnStop, daemon::AfterSignal::kResume);
  // Installed before FCGX_Init, which then leaves them alone (it only replaces default handlers).
  daemon::IgnoreSignals({SIGPIPE, SIGHUP, SIGUSR1});
}

std::string_view Param(const FCGX_Request& request, const char* name) {
  const char* value = FCGX_GetParam(name, request.envp);
  return value == nullptr ? std::string_view() : std::string_view(value);
}

void Write(FCGX_Request& request, const HttpResponse& response) {
  std::string head = "Status: " + std::to_string(response.status) + " ";
  head.append(ReasonPhrase(response.status)).append("\r\n");
  for (const auto& [name, value] : response.headers)
    head.append(name).append(": ").append(value).append("\r\n");
  head.append("\r\n");
  FCGX_PutStr(head.data(), static_cast<int>(head.size()), request.out);
  FCGX_PutStr(response.body.data(), static_cast<int>(response.body.size()), request.out);
}

// nginx's $request_id (32 hex digits) when it passed one that is plainly an id; else a new one of
// the same form, so every access line has one.
std::string RequestId(std::string_view given) {
  const bool usable = !given.empty() && given.size() <= 64 &&
                      given.find_first_not_of("0123456789abcdefABCDEF-") == std::string_view::npos;
  if (usable) return std::string(given);
  std::uint8_t random[16] = {};
  (void)!::getrandom(random, sizeof(random), 0);
  return crypto::HexEncode(random);
}

double Milliseconds(std::chrono::nanoseconds duration) {
  return static_cast<double>(duration.count()) / 1e6;
}

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

std::string RootFieldList(const GraphQLTrace& trace) {
  std::string fields;
  if (!trace.operation) return fields;
  for (std::string_view field : trace.operation->root_fields) {
    if (!fields.empty()) fields.push_back(',');
    fields.append(field);
  }
  return fields;
}

// The outcome and code labels of a GraphQL request (docs/operations.md, "Metrics").
std::pair<std::string_view, std::string_view> Outcome(const GraphQLTrace& trace, bool crashed) {
  if (crashed) return {"internal_error", ""};
  if (!trace.executed) return {"request_error", ""};
  if (trace.has_errors) {
    return {"graphql_error",
            trace.error_codes.empty() ? "" : std::string_view(trace.error_codes[0])};
  }
  if (!trace.failure.empty()) return {"failure", trace.failure};
  return {"ok", ""};
}

// What one request was, for the access and slow logs.
nlohmann::json Describe(std::string_view method, std::string_view path,
                        const std::string& request_id, const GraphQLTrace& trace) {
  nlohmann::json line = {{"time", telemetry::NowUtc()},
                         {"request_id", request_id},
                         {"method", method},
                         {"path", path}};
  if (path == "/graphql") {
    line["operation_type"] = OperationKindName(KindOf(trace));
    line["operation_name"] =
        trace.operation ? std::string(trace.operation->name) : trace.operation_name.value_or("");
    line["root_fields"] = nlohmann::json::array();
    if (trace.operation) {
      for (std::string_view field : trace.operation->root_fields)
        line["root_fields"].push_back(field);
    }
  }
  return line;
}

// Answers `request` and finishes it (FCGX_Finish_r), then accounts for it.
void Serve(FCGX_Request& request, api::Service& service, const WorkerOptions& worker) {
  const GraphQLHttpOptions& options = worker.http;
  const auto start = std::chrono::steady_clock::now();
  // Only the slow log reads the profile.
  if (worker.slow_request.count() > 0) telemetry::RequestProfile::Begin();
  HttpRequest http;
  http.method = Param(request, "REQUEST_METHOD");
  http.path = Param(request, "DOCUMENT_URI");
  if (http.path.empty()) http.path = Param(request, "SCRIPT_NAME");
  http.query_string = Param(request, "QUERY_STRING");
  http.content_type = Param(request, "CONTENT_TYPE");
  http.has_accept = FCGX_GetParam("HTTP_ACCEPT", request.envp) != nullptr;
  http.accept = Param(request, "HTTP_ACCEPT");
  http.authorization = Param(request, "HTTP_AUTHORIZATION");
  http.origin = Param(request, "HTTP_ORIGIN");
  const std::string request_id = RequestId(Param(request, "REQUEST_ID"));
  Scoreboard* scoreboard = worker.scoreboard;
  if (scoreboard != nullptr) scoreboard->BeginRequest(http.path, request_id);

  std::string length_text(Param(request, "CONTENT_LENGTH"));
  char* end = nullptr;
  unsigned long long length =
      length_text.empty() ? 0 : std::strtoull(length_text.c_str(), &end, 10);
  if (!length_text.empty() && *end != '\0') length = options.max_body_bytes + 1;
  if (length > options.max_body_bytes) {
    HttpResponse response = ErrorResponse(
        413, "Request body exceeds " + std::to_string(options.max_body_bytes) + " bytes");
    response.SetHeader("X-Request-Id", request_id);
    Write(request, response);
    FCGX_Finish_r(&request);
    if (scoreboard != nullptr) scoreboard->EndRequest(nullptr);
    telemetry::RequestProfile::End();
    return;
  }
  std::string body(length, '\0');
  int read = length == 0 ? 0 : FCGX_GetStr(body.data(), static_cast<int>(length), request.in);
  body.resize(static_cast<std::size_t>(read < 0 ? 0 : read));
  http.body = body;

  GraphQLTrace trace;
  if (scoreboard != nullptr) {
    trace.on_operation = [scoreboard](const GraphQLTrace& known) {
      scoreboard->SetOperation(KindOf(known),
                               known.operation ? known.operation->name : std::string_view(),
                               RootFieldList(known));
    };
  }
  HttpResponse response;
  bool crashed = false;
  try {
    response = Route(http, service, options, worker.pool, &trace);
  } catch (const std::exception& e) {
    log::Error("request " + request_id + " failed: " + e.what());
    crashed = true;
    response = ErrorResponse(500, "Internal server error");
  }
  response.SetHeader("X-Request-Id", request_id);
  Write(request, response);
  const std::chrono::nanoseconds duration = std::chrono::steady_clock::now() - start;
  // The request's parameters (which `http` views) go with FCGX_Finish_r.
  const std::string method(http.method);
  const std::string path(http.path);
  // The response goes to nginx now; counting and logging it does not delay the client.
  FCGX_Finish_r(&request);

  const bool graphql = path == "/graphql" && method != "OPTIONS";
  if (scoreboard != nullptr) {
    FinishedRequest finished;
    if (graphql) {
      finished.kind = KindOf(trace);
      finished.root_field = trace.operation && !trace.operation->root_fields.empty()
                                ? trace.operation->root_fields[0]
                                : std::string_view();
      std::tie(finished.outcome, finished.code) = Outcome(trace, crashed);
      finished.status = response.status;
      finished.duration = duration;
    }
    scoreboard->EndRequest(graphql ? &finished : nullptr);
  }
  const bool slow = worker.slow_request.count() > 0 && duration >= worker.slow_request;
  // Scrapes and health checks come every few seconds: they would drown the requests.
  const bool routine = path == "/metrics" || path == "/status" || path == "/health";
  if ((worker.access_log && !routine) || slow) {
    nlohmann::json line = Describe(method, path, request_id, trace);
    if (worker.access_log && !routine) {
      nlohmann::json access = line;
      access["status"] = response.status;
      access["error_codes"] = trace.error_codes;
      if (!trace.failure.empty()) access["failure"] = trace.failure;
      access["duration_ms"] = Milliseconds(duration);
      access["bytes"] = response.body.size();
      if (!trace.caller.empty()) access["caller"] = trace.caller;
      log::Info("access " + access.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    if (slow) {
      line["duration_ms"] = Milliseconds(duration);
      line["prepare_ms"] = Milliseconds(trace.prepare);
      line["execute_ms"] = Milliseconds(trace.execute);
      line["database_ms"] = Milliseconds(telemetry::RequestProfile::DatabaseTime());
      line["statements"] = telemetry::RequestProfile::Statements();
      nlohmann::json resolvers = nlohmann::json::array();
      for (const telemetry::RequestProfile::Resolver& resolver :
           telemetry::RequestProfile::Resolvers()) {
        resolvers.push_back({{"field", resolver.field},
                             {"ms", Milliseconds(resolver.total)},
                             {"database_ms", Milliseconds(resolver.database)}});
      }
      line["resolvers"] = std::move(resolvers);
      log::Warn("slow request " +
                line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
  }
  telemetry::RequestProfile::End();
}

}  // namespace

int RunWorker(const WorkerOptions& options, api::Service& service) {
  InstallHandlers(options.listen_fd);
  if (options.scoreboard != nullptr) options.scoreboard->Attach(SlotState::kIdle);
  if (FCGX_Init() != 0) {
    log::Error("FCGX_Init failed");
    return 1;
  }
  FCGX_Request request;
  FCGX_InitRequest(&request, options.listen_fd, 0);
  long served = 0;
  while (g_stop == 0 && (options.max_requests == 0 || served < options.max_requests)) {
    if (FCGX_Accept_r(&request) < 0) break;
    Serve(request, service, options);  // finishes the request
    ++served;
  }
  FCGX_Free(&request, 1);
  log::Debug("worker exits after " + std::to_string(served) + " requests");
  return 0;
}

}  // namespace netgraph::fcgi
