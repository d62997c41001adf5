// A synchronous Redis client (hiredis) as a worker process holds it: to publish committed graph
// updates and to report health. It connects on first use, gives every command a timeout, and
// re-opens a lost connection: a command that finds the connection broken (Redis restarted since
// the last command) is sent once more on a fresh one, so a PUBLISH may, rarely, go out twice.
//
// Not thread-safe: each process owns its client.
#ifndef NETGRAPH_CORE_STORE_REDIS_H_
#define NETGRAPH_CORE_STORE_REDIS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/status.h"

struct redisContext;
struct redisReply;

namespace netgraph::store {

// Where a Redis server listens, parsed from REDIS_URL: redis://host:port, or unix:///path/to.sock.
struct RedisAddress {
  std::string host;         // empty for a unix socket
  int port = 6379;
  std::string socket_path;  // empty for TCP

  static Result<RedisAddress> Parse(std::string_view url);
};

class RedisClient {
 public:
  explicit RedisClient(RedisAddress address, int timeout_ms = 1000);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  Status Ping();
  // PUBLISH; returns the number of subscribers that received the message.
  Result<std::int64_t> Publish(std::string_view channel, std::string_view message);

 private:
  Status EnsureConnected();
  void Disconnect();
  // Runs `send` (which issues one command on context_) with the reconnect rule above; returns an
  // integer reply's value, 0 for a status reply.
  Result<std::int64_t> Command(const std::function<redisReply*()>& send, const char* name);

  RedisAddress address_;
  int timeout_ms_;
  redisContext* context_ = nullptr;
};

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_REDIS_H_
