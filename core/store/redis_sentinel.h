// Finding the Redis master through Redis Sentinel, for both daemons: the outbox relay's client
// (core/store/redis.h, in netgraph-fcgi) and netgraph-ws's subscriber (ws/redis_subscriber.h). Both
// call MasterLocator::Locate whenever they (re)connect, so they follow a failover the sentinels
// made. netgraph never decides a failover; it only asks who the master is now.
//
// hiredis 0.14 (Debian 12's) has no Sentinel support, but Sentinel speaks the ordinary Redis
// protocol: the lookup is one command on an ordinary connection,
//   SENTINEL get-master-addr-by-name <name>   ->  ["10.0.0.5", "6379"], or nil for an unknown name
// and, as Sentinel's client guidelines ask, the server named is then asked ROLE: a master that was
// just demoted, or an old master restarted before the sentinels reconfigured it, still answers
// commands but says it is not the master, and the next sentinel is asked.
//
// Configuration (docs/operations.md, "Several hosts"):
//   NETGRAPH_REDIS_SENTINELS     comma-separated sentinels: host:port, [ipv6]:port, or
//                                redis://[[user]:password@]host:port for a sentinel with a password
//                                (requirepass in sentinel.conf); the port is required
//   NETGRAPH_REDIS_MASTER_NAME   the name in `sentinel monitor <name> ...` (default netgraph)
// With sentinels, REDIS_URL still gives the login (user, password, database) for the master; its
// host and port are not used.
//
// Not thread-safe: one locator per client; netgraph-ws runs its lookups one at a time on a worker
// thread, so that a sentinel that does not answer never holds up its event loop.
#ifndef NETGRAPH_CORE_STORE_REDIS_SENTINEL_H_
#define NETGRAPH_CORE_STORE_REDIS_SENTINEL_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/config/environment.h"
#include "core/status.h"
#include "core/store/redis.h"

struct redisReply;

namespace netgraph::store {

struct RedisSentinels {
  std::vector<RedisAddress> sentinels;  // empty: no Sentinel, REDIS_URL names the server
  std::string master_name = "netgraph";

  bool enabled() const { return !sentinels.empty(); }

  // `list` as NETGRAPH_REDIS_SENTINELS takes it (already split at commas); an empty list is no
  // Sentinel. A master name must be a plain word (letters, digits, '.', '-', '_').
  static Result<RedisSentinels> Parse(const std::vector<std::string>& list,
                                      std::string_view master_name);
  // NETGRAPH_REDIS_SENTINELS and NETGRAPH_REDIS_MASTER_NAME; a mistake is recorded in `env`.
  static RedisSentinels FromEnvironment(config::Environment& env);

  // "master 'netgraph' of sentinels 10.0.0.1:26379, 10.0.0.2:26379", for log lines (no password).
  std::string Describe() const;
};

// The host and port in a reply to SENTINEL get-master-addr-by-name. NotFound when the sentinel
// does not know the name (a nil reply); InvalidArgument for any other shape, or an error reply.
struct HostPort {
  std::string host;
  int port = 0;
};
Result<HostPort> ParseMasterAddressReply(const redisReply& reply);

// Whether a reply to ROLE says the server is a master ("master"; "slave" or "sentinel" are not).
// InvalidArgument for anything that is not a ROLE reply.
Result<bool> ParseRoleReplyIsMaster(const redisReply& reply);

class MasterLocator {
 public:
  // `login`: REDIS_URL's address, whose user, password and database are used on the master.
  // `timeout_ms` bounds each connection and command.
  MasterLocator(RedisSentinels sentinels, RedisAddress login, int timeout_ms);

  // Asks the sentinels, starting with the one that answered last (then in the configured order),
  // for the master's address, logs in there as `login` says and checks with ROLE that it is the
  // master. Returns `login` with the master's host and port. When no sentinel names a server that
  // says it is the master: Unavailable, naming what each sentinel answered. A server several
  // sentinels name is asked once per lookup, so one that does not answer costs one timeout: a
  // lookup takes at most (sentinels + distinct masters named) x timeout_ms.
  Result<RedisAddress> Locate();

  const RedisSentinels& sentinels() const { return sentinels_; }

 private:
  Result<HostPort> Ask(const RedisAddress& sentinel);
  Status CheckIsMaster(const RedisAddress& master);

  RedisSentinels sentinels_;
  RedisAddress login_;
  int timeout_ms_;
  std::size_t first_ = 0;  // the sentinel that answered last
};

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_REDIS_SENTINEL_H_
