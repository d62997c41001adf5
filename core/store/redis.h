// A synchronous Redis client (hiredis) as a worker process holds it: to publish committed graph
// updates, to keep the relay's note of what it published (core/domain/outbox_relay.h) and to report
// health. It connects on first use, gives every command a timeout, and
// re-opens a lost connection: a command that finds the connection broken (Redis restarted since
// the last command) is sent once more on a fresh one, so a PUBLISH may, rarely, go out twice.
// Given sentinels (core/store/redis_sentinel.h), it asks them where the master is at every
// connection, and drops the connection when a command is refused with READONLY (it reached a
// server demoted to replica), so that the retry asks again.
//
// Not thread-safe: each process owns its client.
#ifndef NETGRAPH_CORE_STORE_REDIS_H_
#define NETGRAPH_CORE_STORE_REDIS_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

struct redisContext;
struct redisReply;

namespace netgraph::store {

class MasterLocator;
struct RedisSentinels;

struct RedisReplyDeleter {
  void operator()(redisReply* reply) const;
};
using RedisReply = std::unique_ptr<redisReply, RedisReplyDeleter>;

// Where a Redis server listens and how to log in, parsed from REDIS_URL:
//   redis://[[user]:password@]host[:port][/db]   (user and password percent-decoded)
//   unix:///path/to.sock
// With a password, every new connection first sends AUTH (AUTH user password when a user is given:
// a Redis 6 ACL user), then SELECT db when db is not 0. rediss:// (TLS) is refused: hiredis 0.14,
// Debian 12's, has no TLS (docs/operations.md says how to reach a TLS-only Redis).
struct RedisAddress {
  std::string host;  // empty for a unix socket
  int port = 6379;
  std::string socket_path;  // empty for TCP
  std::string username;     // empty: the default user
  std::string password;     // empty: no AUTH
  int database = 0;

  // The address `url` gives; an error says what is wrong without quoting the URL (a password), and
  // without naming the setting it came from.
  static Result<RedisAddress> Parse(std::string_view url);

  // Where it is, for log lines: never the password.
  std::string Describe() const;
};

// The commands that log in on a new connection, in order, as argument lists: AUTH when there is a
// password, SELECT when the database is not 0. Used by the synchronous client here and by
// netgraph-ws's subscriber (ws/redis_subscriber.h).
std::vector<std::vector<std::string>> LoginCommands(const RedisAddress& address);

// How long a connection attempt or a command may take before it fails.
inline constexpr int kRedisTimeoutMs = 1000;

class RedisClient {
 public:
  explicit RedisClient(RedisAddress address, int timeout_ms = kRedisTimeoutMs);
  // The master `sentinels` name (when they are enabled), logged in to as `address` says.
  RedisClient(RedisAddress address, int timeout_ms, const RedisSentinels& sentinels);
  ~RedisClient();
  RedisClient(const RedisClient&) = delete;
  RedisClient& operator=(const RedisClient&) = delete;

  Status Ping();
  // PUBLISH; returns the number of subscribers that received the message.
  Result<std::int64_t> Publish(std::string_view channel, std::string_view message);
  // Any command, its arguments as given; the reply whatever its type (an error reply too).
  Result<RedisReply> Call(const std::vector<std::string>& arguments);
  // GET: the key's value, nullopt when it has none. SET: stores one, without expiry.
  Result<std::optional<std::string>> Get(std::string_view key);
  Status Set(std::string_view key, std::string_view value);

 private:
  Status EnsureConnected();
  void Disconnect();
  // Runs `send` (which issues one command on context_) with the reconnect rule above; returns the
  // reply, an error reply included.
  Result<RedisReply> Send(const std::function<redisReply*()>& send, const char* name);
  // Send, then an integer reply's value, 0 for a status reply; an error reply is an error.
  Result<std::int64_t> Command(const std::function<redisReply*()>& send, const char* name);

  RedisAddress address_;
  int timeout_ms_;
  std::unique_ptr<MasterLocator> locator_;  // null without sentinels
  std::string master_;                      // where the sentinels last said the master is
  redisContext* context_ = nullptr;
};

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_REDIS_H_
