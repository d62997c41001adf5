// netgraph-ws: GraphQL subscriptions (and queries and mutations) over WebSocket. Reads its
// configuration from the environment and its configuration file (ws/README.md lists the
// variables), loads the service, takes its listening socket from systemd or opens
// NETGRAPH_WS_LISTEN, subscribes to Redis and serves until SIGTERM or SIGINT, which close every
// connection with 1001 and exit 0. SIGHUP reads the configuration again and, when it is valid,
// verifies tokens with its keys and settings from then on; every connection stays open.
//
// One loop thread: libwebsockets, hiredis and the timers share one libuv loop; queries and
// mutations sent over sockets run on NETGRAPH_WS_DATABASE_THREADS worker threads.
#include <sys/resource.h>
#include <unistd.h>
#include <uv.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "core/api/service.h"
#include "core/config/environment.h"
#include "core/domain/graph_change.h"
#include "core/log.h"
#include "daemon/command_line.h"
#include "daemon/listen_socket.h"
#include "daemon/startup.h"
#include "daemon/systemd_notify.h"
#include "ws/backoff.h"
#include "ws/database_workers.h"
#include "ws/graphql_backend.h"
#include "ws/handshake.h"
#include "ws/metrics.h"
#include "ws/options.h"
#include "ws/redis_subscriber.h"
#include "ws/server.h"

namespace {

// --help's description (daemon/command_line.h adds the options and the man page is made from it).
constexpr const char* kAbout =
    "Serves GraphQL subscriptions over WebSocket (graphql-transport-ws and the legacy\n"
    "graphql-ws) on the socket systemd passes (or NETGRAPH_WS_LISTEN), and fans out the\n"
    "graph updates the outbox relay publishes on Redis.\n"
    "\n"
    "Signals:\n"
    "  TERM  stop: close every connection with 1001 (clients reconnect) and exit\n"
    "  HUP   reload: read the token keys and settings and the log level again\n";

// Reads netgraph-ws's settings into `options` and loads the service; every mistake is in `env`.
netgraph::Result<netgraph::daemon::LoadedService> ReadConfiguration(
    netgraph::config::Environment& env, netgraph::ws::Options& options) {
  using namespace netgraph;
  options = ws::Options::FromEnvironment(env);
  ws::WsMetrics().Configure(env);
  for (const std::string& proxy : options.trusted_proxies) {
    if (!ws::IsIpAddress(proxy)) {
      env.AddProblem("NETGRAPH_WS_TRUSTED_PROXIES: \"" + proxy + "\" is not an IP address");
    }
  }
  return daemon::LoadService(env, [](api::ServiceConfig& config) {
    // No engine document cache here: the documents netgraph-ws keeps are its subscriptions',
    // shared and bounded by the hub (ws/hub.h), and go when they end. A cache would keep
    // parsed documents outside those bounds after their subscriptions closed.
    config.engine.document_cache_capacity = 0;
  });
}

// SIGHUP: the configuration is read again; when valid, `service` verifies tokens with the new keys
// and token settings (connections already open keep their identity), and the log level applies.
// The other settings are fixed at start: changing them needs a restart, which the log says.
class ReloadSignal {
 public:
  ReloadSignal(uv_loop_t* loop, netgraph::api::Service& service) : service_(service) {
    uv_signal_init(loop, &hangup_);
    hangup_.data = this;
    uv_signal_start(&hangup_, &ReloadSignal::OnSignal, SIGHUP);
  }

  void Close() {
    if (!uv_is_closing(reinterpret_cast<uv_handle_t*>(&hangup_))) {
      uv_close(reinterpret_cast<uv_handle_t*>(&hangup_), nullptr);
    }
  }

 private:
  static void OnSignal(uv_signal_t* handle, int) {
    using namespace netgraph;
    auto* self = static_cast<ReloadSignal*>(handle->data);
    daemon::NotifySystemd("RELOADING=1");
    log::Info("reloading: reading the configuration again");
    config::Environment env;
    ws::Options options;
    Result<daemon::LoadedService> loaded = ReadConfiguration(env, options);
    if (loaded.ok()) {
      self->service_.AdoptTokenVerifier(*loaded->service);
      log::Info(
          "reloaded: token keys and settings and the log level are the new configuration's"
          "; other settings apply after a restart");
    } else {
      log::Error("reload refused, serving on with the previous configuration: " +
                 loaded.status().message());
    }
    daemon::NotifySystemd("READY=1");
  }

  netgraph::api::Service& service_;
  uv_signal_t hangup_{};
};

// Keeps the JWKS URL's keys fresh (core/auth/jwks_key_set.h) off the event loop: once a second it
// asks the service's current key set (a reload may have replaced it) whether a fetch is due (its
// schedule, or a token with an unknown kid, rate limited) and runs the fetch on libuv's thread
// pool. The loop goes on verifying tokens with the current set meanwhile. A token with a kid the
// provider has just published is thus refused until the fetch a second or so later.
class JwksRefresher {
 public:
  JwksRefresher(uv_loop_t* loop, netgraph::api::Service& service) : service_(service) {
    uv_timer_init(loop, &timer_);
    timer_.data = this;
    work_.data = this;
    uv_timer_start(&timer_, &JwksRefresher::OnTick, kTickMs, kTickMs);
  }

  // An in-flight fetch still completes (within NETGRAPH_JWT_JWKS_TIMEOUT_MS) before the loop ends.
  void Close() {
    if (!uv_is_closing(reinterpret_cast<uv_handle_t*>(&timer_))) {
      uv_close(reinterpret_cast<uv_handle_t*>(&timer_), nullptr);
    }
  }

 private:
  static constexpr std::uint64_t kTickMs = 1000;

  static void OnTick(uv_timer_t* handle) {
    auto* self = static_cast<JwksRefresher*>(handle->data);
    if (self->fetching_) return;
    std::shared_ptr<netgraph::auth::JwksKeySet> keys = self->service_.token_key_set();
    if (!keys || !keys->FetchDue()) return;
    self->fetching_ = std::move(keys);
    uv_queue_work(
        handle->loop, &self->work_,
        [](uv_work_t* work) { static_cast<JwksRefresher*>(work->data)->fetching_->RefreshIfDue(); },
        [](uv_work_t* work, int) { static_cast<JwksRefresher*>(work->data)->fetching_.reset(); });
  }

  netgraph::api::Service& service_;
  uv_timer_t timer_{};
  uv_work_t work_{};
  std::shared_ptr<netgraph::auth::JwksKeySet> fetching_;  // the set a pool thread refreshes
};

// libwebsockets sizes its descriptor table from the soft limit, and each subscriber holds one
// descriptor: take everything the hard limit allows (systemd gives services a soft limit of 1024).
void RaiseDescriptorLimit(std::size_t max_connections) {
  rlimit limit{};
  if (::getrlimit(RLIMIT_NOFILE, &limit) != 0) return;
  const rlim_t previous = limit.rlim_cur;
  rlim_t target = limit.rlim_max == RLIM_INFINITY ? rlim_t{1} << 20 : limit.rlim_max;
  if (target > previous) {
    limit.rlim_cur = target;
    if (::setrlimit(RLIMIT_NOFILE, &limit) != 0) limit.rlim_cur = previous;
  }
  if (limit.rlim_cur < max_connections + 128) {
    netgraph::log::Warn("the descriptor limit (" + std::to_string(limit.rlim_cur) +
                        ") caps connections below NETGRAPH_WS_MAX_CONNECTIONS (" +
                        std::to_string(max_connections) + "); raise LimitNOFILE");
  }
}

// Runs `action` when SIGTERM or SIGINT arrives (once), through the loop.
class StopSignals {
 public:
  StopSignals(uv_loop_t* loop, std::function<void()> action) : action_(std::move(action)) {
    for (uv_signal_t* handle : {&term_, &interrupt_}) {
      uv_signal_init(loop, handle);
      handle->data = this;
    }
    uv_signal_start(&term_, &StopSignals::OnSignal, SIGTERM);
    uv_signal_start(&interrupt_, &StopSignals::OnSignal, SIGINT);
  }

 private:
  // Releases the handles so the loop can end.
  void Close() {
    for (uv_signal_t* handle : {&term_, &interrupt_}) {
      if (!uv_is_closing(reinterpret_cast<uv_handle_t*>(handle))) {
        uv_close(reinterpret_cast<uv_handle_t*>(handle), nullptr);
      }
    }
  }

  static void OnSignal(uv_signal_t* handle, int signal) {
    auto* self = static_cast<StopSignals*>(handle->data);
    netgraph::log::Info(std::string("received ") + ::strsignal(signal) + "; stopping");
    self->Close();
    if (self->action_) std::exchange(self->action_, nullptr)();
  }

  std::function<void()> action_;
  uv_signal_t term_{};
  uv_signal_t interrupt_{};
};

// Serves on `listen_fd` until a stop signal; everything on `loop` is gone when this returns.
int Serve(uv_loop_t* loop, netgraph::api::Service& service, netgraph::ws::DatabaseWorkers& workers,
          std::chrono::seconds token_leeway, const netgraph::store::RedisAddress& redis_address,
          const netgraph::store::RedisSentinels& sentinels, const netgraph::ws::Options& options,
          const std::string& where, int listen_fd) {
  using namespace netgraph;
  std::unique_ptr<ws::RedisSubscriber> redis;
  // A published update is held to the size of a client's message.
  ws::GraphqlBackend backend(
      service, workers, token_leeway, options.memory,
      [&redis](const std::string& channel) { redis->Listen(channel); }, options.max_message_bytes);
  redis = std::make_unique<ws::RedisSubscriber>(
      loop, redis_address, sentinels, ws::Backoff(options.redis_retry_min, options.redis_retry_max),
      ws::RedisSubscriber::Handlers{[&backend](std::string_view channel, std::string_view payload) {
                                      backend.OnPublished(channel, payload);
                                    },
                                    [&backend] { backend.OnSubscribed(); }});
  ws::Server server(loop, options, backend, backend.clients());
  if (Status s = server.Start(listen_fd); !s.ok()) {
    log::Error(s.message());
    return 1;
  }
  redis->Start();
  // At start the graph channel; later any other channel a subscription's source stream names.
  redis->Listen(std::string(domain::kGraphChannel));
  ReloadSignal reload(loop, service);
  JwksRefresher refresher(loop, service);
  StopSignals signals(loop, [&] {
    reload.Close();
    refresher.Close();
    daemon::NotifySystemd("STOPPING=1");
    server.Stop([&] { redis->Stop(); });
  });
  log::Info("serving GraphQL over WebSocket on " + where);
  daemon::NotifySystemd("READY=1");
  uv_run(loop, UV_RUN_DEFAULT);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace netgraph;
  const daemon::Invocation invocation = daemon::ParseCommandLine(argc, argv, "netgraph-ws", kAbout);
  if (invocation.exit_status) return *invocation.exit_status;
  log::Init("netgraph-ws");

  config::Environment env;
  ws::Options options;
  Result<daemon::LoadedService> loaded = ReadConfiguration(env, options);
  if (invocation.check_config) return daemon::CheckConfiguration(loaded.status(), env);
  if (invocation.print_config) return daemon::PrintConfiguration(loaded.status(), env);
  if (!loaded.ok()) {
    log::Error(loaded.status().message());
    return daemon::kExitConfig;
  }
  if (Status schema = daemon::CheckDatabaseSchema(env); !schema.ok()) {
    log::Error(schema.message());
    return 1;
  }
  RaiseDescriptorLimit(options.max_connections);

  Result<daemon::ServingSocket> socket =
      daemon::TakeOrOpenListenSocket(options.listen, options.listen_backlog);
  if (!socket.ok()) {
    log::Error(socket.status().message());
    return 1;
  }

  uv_loop_t loop;
  uv_loop_init(&loop);
  Result<std::unique_ptr<ws::DatabaseWorkers>> workers =
      ws::DatabaseWorkers::Start(&loop, loaded->config, options.database_threads,
                                 options.queued_operations, options.max_operations, options.memory);
  if (!workers.ok()) {
    log::Error(workers.status().message());
    return 1;
  }
  int status = Serve(&loop, *loaded->service, **workers,
                     std::chrono::seconds(loaded->config.auth.leeway_seconds), loaded->config.redis,
                     loaded->config.sentinels, options, socket->where, socket->fd);
  workers->reset();
  uv_run(&loop, UV_RUN_NOWAIT);  // the last close callbacks
  if (uv_loop_close(&loop) != 0) log::Warn("the event loop still had handles at exit");
  ::close(socket->fd);
  socket->file.Remove();
  if (status == 0) log::Info("stopped");
  return status;
}
