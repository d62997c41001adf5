// netgraph-fcgi: the FastCGI worker pool. Reads its configuration from the environment (see
// docs/operations.md), loads the service, takes its listening socket from systemd or opens
// NETGRAPH_FCGI_LISTEN, and runs the pre-forking master.
#include <unistd.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/api/service.h"
#include "core/config/environment.h"
#include "core/log.h"
#include "daemon/command_line.h"
#include "daemon/listen_socket.h"
#include "daemon/startup.h"
#include "fcgi/cors.h"
#include "fcgi/data_generation.h"
#include "fcgi/outbox_relay_process.h"
#include "fcgi/prefork_master.h"
#include "fcgi/scoreboard.h"
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
  prefork.shutdown_timeout = std::chrono::milliseconds(
      env.RenamedInt("NETGRAPH_SHUTDOWN_TIMEOUT_MS", "NETGRAPH_SHUTDOWN_TIMEOUT", 1000,
                     prefork.shutdown_timeout.count(), 0, 3600000));
  fcgi::WorkerOptions worker;
  worker.max_requests = env.Int("NETGRAPH_MAX_REQUESTS", 0, 0, 1L << 40);
  worker.http.max_body_bytes =
      static_cast<std::size_t>(env.Int("NETGRAPH_MAX_BODY_BYTES", 1024 * 1024, 1024, 64L << 20));
  prefork.request_timeout =
      std::chrono::milliseconds(env.Int("NETGRAPH_REQUEST_TIMEOUT_MS", 30000, 0, 3600000));
  worker.access_log = env.Bool("NETGRAPH_ACCESS_LOG", true);
  worker.slow_request =
      std::chrono::milliseconds(env.Int("NETGRAPH_SLOW_REQUEST_MS", 1000, 0, 3600000));
  worker.pool.ws_address = env.String("NETGRAPH_WS_LISTEN", "/run/netgraph/ws.sock");
  const std::string listen = env.String("NETGRAPH_FCGI_LISTEN", "/run/netgraph/fcgi.sock");
  const int backlog = static_cast<int>(env.Int("NETGRAPH_LISTEN_BACKLOG", 1024, 1, 65535));
  Result<fcgi::CorsPolicy> cors = fcgi::CorsPolicy::FromOrigins(env.List("NETGRAPH_CORS_ORIGINS"));
  Result<daemon::LoadedService> loaded = daemon::LoadService(env);
  if (!loaded.ok()) {
    log::Error(loaded.status().message());
    return daemon::kExitConfig;
  }
  if (!cors.ok()) {
    log::Error(cors.status().message());
    return daemon::kExitConfig;
  }
  worker.http.cors = std::move(cors).value();
  api::Service& service = *loaded->service;
  // Mapped before the fork, so that every worker and the relay share it.
  Result<std::unique_ptr<fcgi::SharedDataGeneration>> generation =
      fcgi::SharedDataGeneration::Create();
  if (!generation.ok()) {
    log::Error(generation.status().message());
    return 1;
  }
  service.UseDataGeneration(generation->get());

  Result<daemon::ServingSocket> socket = daemon::TakeOrOpenListenSocket(listen, backlog);
  if (!socket.ok()) {
    log::Error(socket.status().message());
    return 1;
  }
  worker.listen_fd = socket->fd;
  Result<fcgi::Scoreboard*> scoreboard = fcgi::Scoreboard::Create();
  if (!scoreboard.ok()) {
    log::Error(scoreboard.status().message());
    return 1;
  }
  prefork.scoreboard = *scoreboard;
  worker.scoreboard = *scoreboard;
  worker.pool.scoreboard = *scoreboard;
  worker.pool.listen_fd = socket->fd;
  log::Info("serving on " + socket->where + " with " + std::to_string(workers) + " workers");

  std::vector<fcgi::ChildRole> roles = {
      {"worker", workers, [&] { return fcgi::RunWorker(worker, service); }},
      {"relay", 1,
       [&] {
         prefork.scoreboard->Attach(fcgi::SlotState::kRelay);
         return fcgi::RunOutboxRelayProcess(service);
       }},
  };
  fcgi::PreforkMaster master(prefork, std::move(roles));
  int status = master.Run();
  socket->file.Remove();
  return status;
}
