#include "ws/options.h"

#include <cstdint>

#include "daemon/listen_socket.h"

namespace netgraph::ws {
namespace {

std::size_t Size(config::Environment& env, const std::string& name, std::size_t fallback,
                 std::int64_t min, std::int64_t max) {
  return static_cast<std::size_t>(env.Int(name, static_cast<std::int64_t>(fallback), min, max));
}

}  // namespace

Options Options::FromEnvironment(config::Environment& env) {
  Options o;
  o.listen = env.String("NETGRAPH_WS_LISTEN", o.listen);
  if (Status listen = daemon::CheckListenAddress("NETGRAPH_WS_LISTEN", o.listen); !listen.ok()) {
    env.AddProblem(listen.message());
  }
  o.listen_backlog =
      static_cast<int>(env.Int("NETGRAPH_LISTEN_BACKLOG", o.listen_backlog, 1, 65535));
  o.max_connections = Size(env, "NETGRAPH_WS_MAX_CONNECTIONS", o.max_connections, 1, 1000000);
  o.max_operations = Size(env, "NETGRAPH_WS_MAX_SUBSCRIPTIONS", o.max_operations, 1, 100000);
  o.operations_per_second =
      Size(env, "NETGRAPH_WS_OPERATIONS_PER_SECOND", o.operations_per_second, 1, 1000000);
  o.operations_burst = Size(env, "NETGRAPH_WS_OPERATIONS_BURST", o.operations_burst, 1, 1000000);
  o.max_message_bytes =
      Size(env, "NETGRAPH_WS_MAX_MESSAGE_BYTES", o.max_message_bytes, 1024, 64L << 20);
  o.queue.max_messages = Size(env, "NETGRAPH_WS_QUEUE_MESSAGES", o.queue.max_messages, 1, 1000000);
  o.queue.max_bytes = Size(env, "NETGRAPH_WS_QUEUE_BYTES", o.queue.max_bytes, 1024, 1L << 32);
  o.init_timeout = std::chrono::milliseconds(
      env.Int("NETGRAPH_WS_INIT_TIMEOUT_MS", o.init_timeout.count(), 100, 600000));
  o.legacy_keepalive = std::chrono::milliseconds(
      env.Int("NETGRAPH_WS_LEGACY_KEEPALIVE_MS", o.legacy_keepalive.count(), 1000, 600000));
  o.ping_interval = std::chrono::milliseconds(
      env.RenamedInt("NETGRAPH_WS_PING_INTERVAL_MS", "NETGRAPH_WS_PING_INTERVAL", 1000,
                     o.ping_interval.count(), 1000, 3600000));
  o.pong_timeout = std::chrono::milliseconds(env.RenamedInt("NETGRAPH_WS_PONG_TIMEOUT_MS",
                                                            "NETGRAPH_WS_PONG_TIMEOUT", 1000,
                                                            o.pong_timeout.count(), 1000, 3600000));
  o.shutdown_timeout = std::chrono::milliseconds(
      env.Int("NETGRAPH_WS_SHUTDOWN_TIMEOUT_MS", o.shutdown_timeout.count(), 0, 600000));
  o.allowed_origins = env.List("NETGRAPH_WS_ALLOWED_ORIGINS");
  o.redis_retry_min = std::chrono::milliseconds(
      env.Int("NETGRAPH_WS_REDIS_RETRY_MIN_MS", o.redis_retry_min.count(), 10, 60000));
  o.redis_retry_max = std::chrono::milliseconds(
      env.Int("NETGRAPH_WS_REDIS_RETRY_MAX_MS", o.redis_retry_max.count(), 10, 600000));
  if (o.redis_retry_max < o.redis_retry_min) o.redis_retry_max = o.redis_retry_min;
  o.database_threads = Size(env, "NETGRAPH_WS_DATABASE_THREADS", o.database_threads, 1, 64);
  o.queued_operations.process =
      Size(env, "NETGRAPH_WS_MAX_QUEUED_OPERATIONS", o.queued_operations.process, 1, 1000000);
  o.queued_operations.per_address = Size(env, "NETGRAPH_WS_MAX_QUEUED_OPERATIONS_PER_ADDRESS",
                                         o.queued_operations.per_address, 1, 1000000);

  o.memory.per_connection = Size(env, "NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_CONNECTION",
                                 o.memory.per_connection, 64 * 1024, 1L << 40);
  o.memory.per_address = Size(env, "NETGRAPH_WS_MAX_DOCUMENT_BYTES_PER_ADDRESS",
                              o.memory.per_address, 64 * 1024, 1L << 40);
  o.memory.process =
      Size(env, "NETGRAPH_WS_MAX_DOCUMENT_BYTES", o.memory.process, 64 * 1024, 1L << 40);
  o.memory.documents = Size(env, "NETGRAPH_WS_MAX_DOCUMENTS", o.memory.documents, 1, 10000000);
  o.max_connections_per_address = Size(env, "NETGRAPH_WS_MAX_CONNECTIONS_PER_ADDRESS",
                                       o.max_connections_per_address, 1, 1000000);
  o.idle_anonymous_timeout = std::chrono::milliseconds(env.Int(
      "NETGRAPH_WS_IDLE_ANONYMOUS_TIMEOUT_MS", o.idle_anonymous_timeout.count(), 1000, 86400000));
  o.trusted_proxies = env.List("NETGRAPH_WS_TRUSTED_PROXIES", "127.0.0.1,::1");
  return o;
}

}  // namespace netgraph::ws
