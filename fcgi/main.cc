// netgraph-fcgi: the FastCGI worker pool. Reads its configuration from the environment (see
// docs/operations.md), loads the service, takes its listening socket from systemd or opens
// NETGRAPH_FCGI_LISTEN, and runs the pre-forking master.
#include <unistd.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/api/service.h"
#include "core/config/environment.h"
#include "core/log.h"
#include "daemon/command_line.h"
#include "daemon/listen_socket.h"
#include "fcgi/cors.h"
#include "fcgi/prefork_master.h"
#include "fcgi/worker.h"

namespace {

constexpr const char* kUsage =
    "usage: netgraph-fcgi\n"
    "Serves GraphQL over FastCGI with a pre-forked worker pool. Configured by environment "
    "variables;\n"
    "see docs/operations.md. Signals: TERM stops gracefully, HUP replaces workers one by one.\n";

}  // namespace

int main(int argc, char** argv) {
  using namespace netgraph;
  if (std::optional<int> answered = daemon::AnswerCommandLine(argc, argv, kUsage)) return *answered;
  log::Init("netgraph-fcgi");

  config::Environment env;
  const long cores = ::sysconf(_SC_NPROCESSORS_ONLN);
  fcgi::PreforkOptions prefork;
  const int workers = static_cast<int>(env.Int("NETGRAPH_WORKERS", cores > 0 ? cores : 2, 1, 1024));
  prefork.shutdown_timeout =
      std::chrono::seconds(env.Int("NETGRAPH_SHUTDOWN_TIMEOUT", 30, 0, 3600));
  fcgi::WorkerOptions worker;
  worker.max_requests = env.Int("NETGRAPH_MAX_REQUESTS", 0, 0, 1L << 40);
  worker.http.max_body_bytes =
      static_cast<std::size_t>(env.Int("NETGRAPH_MAX_BODY_BYTES", 1024 * 1024, 1024, 64L << 20));
  const std::string listen = env.String("NETGRAPH_FCGI_LISTEN", "/run/netgraph/fcgi.sock");
  const int backlog = static_cast<int>(env.Int("NETGRAPH_LISTEN_BACKLOG", 1024, 1, 65535));
  Result<fcgi::CorsPolicy> cors = fcgi::CorsPolicy::FromOrigins(env.List("NETGRAPH_CORS_ORIGINS"));
  Result<api::ServiceConfig> service_config = api::ServiceConfig::FromEnvironment(env);
  if (Status s = env.status(); !s.ok()) {
    log::Error(s.message());
    return 78;  // EX_CONFIG: systemd does not restart into the same mistake forever
  }
  if (!service_config.ok()) {
    log::Error(service_config.status().message());
    return 78;
  }
  if (!cors.ok()) {
    log::Error(cors.status().message());
    return 78;
  }
  worker.http.cors = std::move(cors).value();
  Result<std::unique_ptr<api::Service>> service = api::Service::Create(*service_config);
  if (!service.ok()) {
    log::Error(service.status().message());
    return 78;
  }

  std::optional<int> inherited = daemon::TakeSystemdSocket();
  daemon::BoundSocketFile socket_file("");
  if (inherited) {
    worker.listen_fd = *inherited;
    log::Info("serving on the socket systemd passed");
  } else {
    Result<int> opened = daemon::OpenListenSocket(listen, backlog, 0660);
    if (!opened.ok()) {
      log::Error(opened.status().message());
      return 1;
    }
    worker.listen_fd = *opened;
    socket_file = daemon::BoundSocketFile(listen);
    log::Info("serving on " + listen + " with " + std::to_string(workers) + " workers");
  }

  std::vector<fcgi::ChildRole> roles = {
      {"worker", workers, [&] { return fcgi::RunWorker(worker, **service); }},
      {"relay", 1, [&] { return (*service)->RunOutboxRelay(); }},
  };
  fcgi::PreforkMaster master(prefork, std::move(roles));
  int status = master.Run();
  socket_file.Remove();
  return status;
}
