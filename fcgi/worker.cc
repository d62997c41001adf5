#include "fcgi/worker.h"

#include <fcgiapp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <exception>
#include <string>

#include "core/log.h"
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

void Serve(FCGX_Request& request, api::Service& service, const GraphQLHttpOptions& options) {
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

  std::string length_text(Param(request, "CONTENT_LENGTH"));
  char* end = nullptr;
  unsigned long long length =
      length_text.empty() ? 0 : std::strtoull(length_text.c_str(), &end, 10);
  if (!length_text.empty() && *end != '\0') length = options.max_body_bytes + 1;
  if (length > options.max_body_bytes) {
    Write(request, ErrorResponse(413, "Request body exceeds " +
                                          std::to_string(options.max_body_bytes) + " bytes"));
    return;
  }
  std::string body(length, '\0');
  int read = length == 0 ? 0 : FCGX_GetStr(body.data(), static_cast<int>(length), request.in);
  body.resize(static_cast<std::size_t>(read < 0 ? 0 : read));
  http.body = body;

  try {
    Write(request, Route(http, service, options));
  } catch (const std::exception& e) {
    log::Error(std::string("request failed: ") + e.what());
    Write(request, ErrorResponse(500, "Internal server error"));
  }
}

}  // namespace

int RunWorker(const WorkerOptions& options, api::Service& service) {
  InstallHandlers(options.listen_fd);
  if (FCGX_Init() != 0) {
    log::Error("FCGX_Init failed");
    return 1;
  }
  FCGX_Request request;
  FCGX_InitRequest(&request, options.listen_fd, 0);
  long served = 0;
  while (g_stop == 0 && (options.max_requests == 0 || served < options.max_requests)) {
    if (FCGX_Accept_r(&request) < 0) break;
    Serve(request, service, options.http);
    FCGX_Finish_r(&request);
    ++served;
  }
  FCGX_Free(&request, 1);
  log::Debug("worker exits after " + std::to_string(served) + " requests");
  return 0;
}

}  // namespace netgraph::fcgi
