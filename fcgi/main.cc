// netgraph-fcgi: the FastCGI worker pool. Reads its configuration from the environment and its
// configuration file (see docs/operations.md), loads the service, takes its listening socket from
// systemd or opens NETGRAPH_FCGI_LISTEN, and runs the pre-forking master. On SIGHUP the master
// reads the configuration again and, when it is valid, replaces the workers with ones forked from
// the new service (new keys, limits and worker count); the listening socket stays.
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/api/service.h"
#include "core/config/environment.h"
#include "core/log.h"
#include "daemon/command_line.h"
#include "daemon/listen_socket.h"
#include "daemon/startup.h"
#include "daemon/systemd_notify.h"
#include "fcgi/http/cors.h"
#include "fcgi/pool/connection_handoff.h"
#include "fcgi/pool/data_generation.h"
#include "fcgi/pool/master.h"
#include "fcgi/pool/outbox_relay_process.h"
#include "fcgi/pool/scoreboard.h"
#include "fcgi/pool/shared_memory.h"
#include "fcgi/pool/user_generations.h"
#include "fcgi/pool/worker.h"

namespace {

using namespace netgraph;

// --help's description (daemon/command_line.h adds the options and the man page is made from it).
constexpr const char* kAbout =
    "Serves GraphQL over FastCGI with a pre-forked worker pool: a master, NETGRAPH_WORKERS\n"
    "workers that accept on the socket systemd passes (or NETGRAPH_FCGI_LISTEN), and the\n"
    "outbox relay that publishes graph updates on Redis.\n"
    "\n"
    "Signals:\n"
    "  TERM  stop: the workers finish their requests, then exit; idle connections from\n"
    "        nginx go to systemd's file descriptor store for the next start\n"
    "  HUP   reload: read the configuration again and replace the workers one by one\n";

// One reading of the configuration: everything the master forks its children from.
struct Configuration {
  int workers = 1;
  fcgi::PreforkOptions prefork;
  fcgi::WorkerOptions worker;
  std::string listen;      // read at start only: the socket outlives reloads
  bool scoreboard = true;  // read at start only, like the shared memory it decides on
  int backlog = 1024;
  daemon::LoadedService loaded;
};

Result<std::shared_ptr<Configuration>> ReadConfiguration(config::Environment& env) {
  auto read = std::make_shared<Configuration>();
  const long cores = ::sysconf(_SC_NPROCESSORS_ONLN);
  read->workers = static_cast<int>(env.Int("NETGRAPH_WORKERS", cores > 0 ? cores : 2, 1, 1024));
  read->prefork.shutdown_timeout = std::chrono::milliseconds(
      env.RenamedInt("NETGRAPH_SHUTDOWN_TIMEOUT_MS", "NETGRAPH_SHUTDOWN_TIMEOUT", 1000,
                     read->prefork.shutdown_timeout.count(), 0, 3600000));
  read->worker.max_requests = env.Int("NETGRAPH_MAX_REQUESTS", 0, 0, 1L << 40);
  read->worker.http.max_body_bytes =
      static_cast<std::size_t>(env.Int("NETGRAPH_MAX_BODY_BYTES", 1024 * 1024, 1024, 64L << 20));
  read->prefork.request_timeout =
      std::chrono::milliseconds(env.Int("NETGRAPH_REQUEST_TIMEOUT_MS", 30000, 0, 3600000));
  read->worker.http.publish_schema = env.Bool("NETGRAPH_PUBLISH_SCHEMA", true);
  read->worker.access_log = env.Bool("NETGRAPH_ACCESS_LOG", true);
  read->worker.access_log_flush =
      std::chrono::milliseconds(env.Int("NETGRAPH_ACCESS_LOG_FLUSH_MS", 100, 0, 10000));
  read->scoreboard = env.Bool("NETGRAPH_SCOREBOARD", true);
  read->worker.slow_request =
      std::chrono::milliseconds(env.Int("NETGRAPH_SLOW_REQUEST_MS", 1000, 0, 3600000));
  read->worker.pool.ws_address = env.String("NETGRAPH_WS_LISTEN", "/run/netgraph/ws.sock");
  read->listen = env.String("NETGRAPH_FCGI_LISTEN", "/run/netgraph/fcgi.sock");
  if (Status listen = daemon::CheckListenAddress("NETGRAPH_FCGI_LISTEN", read->listen);
      !listen.ok()) {
    env.AddProblem(listen.message());
  }
  read->worker.io_timeout = std::chrono::milliseconds(
      env.Int("NETGRAPH_FCGI_IO_TIMEOUT_MS", read->worker.io_timeout.count(), 100, 600000));
  read->worker.idle_timeout = std::chrono::milliseconds(
      env.Int("NETGRAPH_FCGI_IDLE_TIMEOUT_MS", read->worker.idle_timeout.count(), 1000, 86400000));
  read->backlog = static_cast<int>(env.Int("NETGRAPH_LISTEN_BACKLOG", 1024, 1, 65535));
  read->worker.http.public_max_age =
      static_cast<int>(env.Int("NETGRAPH_PUBLIC_MAX_AGE", 0, 0, 31536000));
  Result<fcgi::CorsPolicy> cors = fcgi::CorsPolicy::FromOrigins(env.List("NETGRAPH_CORS_ORIGINS"));
  if (cors.ok()) {
    read->worker.http.cors = std::move(cors).value();
  } else {
    env.AddProblem(cors.status().message());
  }
  NETGRAPH_ASSIGN_OR_RETURN(read->loaded, daemon::LoadService(env));
  return read;
}

// What outlives reloads: the listening socket, the connection hand-off queue (so that connections
// handed off by old workers reach new ones) and the parts of the shared memory every child maps
// (made by the master before its first fork, so that children of every configuration share them).
struct Shared {
  int listen_fd = -1;
  fcgi::Scoreboard* scoreboard = nullptr;  // null with NETGRAPH_SCOREBOARD=off
  fcgi::SharedDataGeneration* generation = nullptr;
  fcgi::SharedUserGenerations* user_generations = nullptr;
  fcgi::SharedUserGenerations* user_row_generations = nullptr;
  fcgi::ConnectionHandoff* handoff = nullptr;
};

// The master's children for `configuration`, which they share (and keep alive).
fcgi::PoolPlan PlanFor(std::shared_ptr<Configuration> configuration, const Shared& shared) {
  configuration->worker.listen_fd = shared.listen_fd;
  configuration->worker.handoff = shared.handoff;
  configuration->prefork.scoreboard = shared.scoreboard;
  configuration->worker.scoreboard = shared.scoreboard;
  configuration->worker.pool.scoreboard = shared.scoreboard;
  configuration->worker.pool.listen_fd = shared.listen_fd;
  configuration->loaded.service->UseDataGeneration(shared.generation);
  configuration->loaded.service->UseUserGenerations(shared.user_generations);
  configuration->loaded.service->UseUserRowGenerations(shared.user_row_generations);
  fcgi::PoolPlan plan;
  plan.options = configuration->prefork;
  plan.roles = {
      {"worker", configuration->workers,
       [configuration] {
         api::Service& service = *configuration->loaded.service;
         // A JWKS URL's keys are kept fresh on a thread of the worker's own: no request waits on
         // the identity provider (core/auth/jwks_key_set.h).
         if (const std::shared_ptr<auth::JwksKeySet>& keys = service.token_key_set()) {
           keys->RefreshInBackground();
         }
         return fcgi::RunWorker(configuration->worker, service);
       }},
      {"relay", 1,
       [configuration] {
         if (configuration->prefork.scoreboard != nullptr) {
           configuration->prefork.scoreboard->Attach(fcgi::SlotState::kRelay);
         }
         return fcgi::RunOutboxRelayProcess(*configuration->loaded.service,
                                            configuration->prefork.scoreboard);
       }},
  };
  return plan;
}

// nginx's idle connections to the pool outlive a restart (docs/operations.md, "Upgrading"): at
// stop the workers hand them to the queue, and the master leaves what is queued in systemd's
// file descriptor store; the next master puts them back into the queue for its workers. A request
// nginx sent on one meanwhile waits in it, unread, instead of failing.
void ResumeStoredConnections(const fcgi::ConnectionHandoff& handoff, std::vector<int> fds) {
  if (fds.empty()) return;
  daemon::NotifySystemd(std::string("FDSTOREREMOVE=1\nFDNAME=") + daemon::kStoredConnectionName);
  std::size_t queued = 0;
  for (std::size_t at = 0; at < fds.size(); at += fcgi::ConnectionHandoff::kMaxPerMessage) {
    const std::size_t count = std::min(fcgi::ConnectionHandoff::kMaxPerMessage, fds.size() - at);
    if (handoff.Put(fds.data() + at, count)) queued += count;
  }
  for (int fd : fds) ::close(fd);
  log::Info("serving " + std::to_string(queued) + " of " + std::to_string(fds.size()) +
            " connections from nginx that the previous run left in systemd's store");
}

void StoreQueuedConnections(const fcgi::ConnectionHandoff& handoff) {
  std::vector<int> fds;
  while (handoff.Take(&fds)) {
  }
  if (fds.empty()) return;
  if (daemon::StoreInSystemd(fds, daemon::kStoredConnectionName)) {
    log::Info("left " + std::to_string(fds.size()) +
              " idle connections from nginx in systemd's store for the next start");
  }
  for (int fd : fds) ::close(fd);
}

}  // namespace

int main(int argc, char** argv) {
  const daemon::Invocation invocation =
      daemon::ParseCommandLine(argc, argv, "netgraph-fcgi", kAbout);
  if (invocation.exit_status) return *invocation.exit_status;
  log::Init("netgraph-fcgi");

  config::Environment env;
  Result<std::shared_ptr<Configuration>> configuration = ReadConfiguration(env);
  if (invocation.check_config) {
    return daemon::CheckConfiguration(configuration.status(), env);
  }
  if (invocation.print_config) {
    return daemon::PrintConfiguration(configuration.status(), env);
  }
  if (!configuration.ok()) {
    log::Error(configuration.status().message());
    return daemon::kExitConfig;
  }
  if (Status schema = daemon::CheckDatabaseSchema(env); !schema.ok()) {
    log::Error(schema.message());
    return 1;
  }

  Result<daemon::ServingSocket> socket =
      daemon::TakeOrOpenListenSocket((*configuration)->listen, (*configuration)->backlog);
  if (!socket.ok()) {
    log::Error(socket.status().message());
    return 1;
  }
  Shared shared;
  shared.listen_fd = socket->fd;
  // One region for all of them, mapped before the first fork (php-fpm's fpm_shm).
  Result<std::unique_ptr<fcgi::SharedMemory>> memory =
      fcgi::SharedMemory::Create(fcgi::SharedMemory::Bytes(
          {(*configuration)->scoreboard ? fcgi::Scoreboard::SharedBytes() : 0,
           fcgi::SharedDataGeneration::kSharedBytes, fcgi::SharedUserGenerations::kSharedBytes,
           fcgi::SharedUserGenerations::kSharedBytes, fcgi::ConnectionHandoff::kSharedBytes}));
  if (!memory.ok()) {
    log::Error(memory.status().message());
    return 1;
  }
  std::unique_ptr<fcgi::Scoreboard> scoreboard;
  if ((*configuration)->scoreboard) {
    Result<std::unique_ptr<fcgi::Scoreboard>> created = fcgi::Scoreboard::Create(**memory);
    if (!created.ok()) {
      log::Error(created.status().message());
      return 1;
    }
    scoreboard = std::move(created).value();
    shared.scoreboard = scoreboard.get();
  } else {
    // Everything the master and the workers read from the scoreboard goes with it.
    log::Warn(
        "NETGRAPH_SCOREBOARD=off: /status and /metrics answer 404, and "
        "NETGRAPH_REQUEST_TIMEOUT_MS is not enforced");
  }
  Result<std::unique_ptr<fcgi::SharedDataGeneration>> generation =
      fcgi::SharedDataGeneration::Create(**memory);
  if (!generation.ok()) {
    log::Error(generation.status().message());
    return 1;
  }
  shared.generation = generation->get();
  // The portfolios' and the user rows'.
  Result<std::unique_ptr<fcgi::SharedUserGenerations>> user_generations =
      fcgi::SharedUserGenerations::Create(**memory);
  Result<std::unique_ptr<fcgi::SharedUserGenerations>> user_row_generations =
      fcgi::SharedUserGenerations::Create(**memory);
  for (const auto* created : {&user_generations, &user_row_generations}) {
    if (!created->ok()) {
      log::Error(created->status().message());
      return 1;
    }
  }
  shared.user_generations = user_generations->get();
  shared.user_row_generations = user_row_generations->get();
  Result<std::unique_ptr<fcgi::ConnectionHandoff>> handoff =
      fcgi::ConnectionHandoff::Create(**memory);
  if (!handoff.ok()) {
    log::Error(handoff.status().message());
    return 1;
  }
  shared.handoff = handoff->get();
  ResumeStoredConnections(*shared.handoff, std::move(socket->stored_connections));
  log::Info("serving on " + socket->where + " with " + std::to_string((*configuration)->workers) +
            " workers");

  fcgi::PreforkMaster master(
      PlanFor(std::move(configuration).value(), shared), [shared]() -> Result<fcgi::PoolPlan> {
        config::Environment reread;
        NETGRAPH_ASSIGN_OR_RETURN(std::shared_ptr<Configuration> fresh, ReadConfiguration(reread));
        return PlanFor(std::move(fresh), shared);
      });
  int status = master.Run();
  StoreQueuedConnections(*shared.handoff);
  socket->file.Remove();
  return status;
}
