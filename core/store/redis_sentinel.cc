#include "core/store/redis_sentinel.h"

#include <hiredis/hiredis.h>

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace netgraph::store {
namespace {

constexpr char kSentinelsVariable[] = "NETGRAPH_REDIS_SENTINELS";
constexpr char kMasterNameVariable[] = "NETGRAPH_REDIS_MASTER_NAME";

// Whether the authority of a sentinel's address (what follows "redis://" and any "user:password@")
// ends in a port: Sentinel does not listen on Redis's default port, so none is assumed.
bool NamesAPort(std::string_view url) {
  std::string_view authority = url.substr(url.find("://") + 3);
  authority = authority.substr(0, authority.find('/'));
  if (std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
    authority = authority.substr(at + 1);
  }
  if (!authority.empty() && authority.front() == '[') {
    std::size_t close = authority.find(']');
    return close != std::string_view::npos && authority.substr(close + 1, 1) == ":";
  }
  return authority.find(':') != std::string_view::npos;
}

Result<RedisAddress> ParseSentinel(const std::string& entry) {
  auto bad = [&](const std::string& what) {
    return Status::InvalidArgument(std::string(kSentinelsVariable) + ": " + what);
  };
  const bool url = entry.find("://") != std::string::npos;
  // rediss:// is left to RedisAddress::Parse, which says why TLS is refused.
  if (url && entry.rfind("redis://", 0) != 0 && entry.rfind("rediss://", 0) != 0 &&
      entry.rfind("unix://", 0) != 0) {
    return bad("each sentinel is host:port or redis://[[user]:password@]host:port");
  }
  const std::string text = url ? entry : "redis://" + entry;
  Result<RedisAddress> address = RedisAddress::Parse(text);
  // RedisAddress::Parse's messages never quote a password.
  if (!address.ok()) return bad(address.status().message());
  if (address->socket_path.empty() && !NamesAPort(text)) {
    return bad("give each sentinel's port (Sentinel listens on 26379 unless told otherwise): " +
               address->Describe());
  }
  if (address->database != 0) return bad("a sentinel has no database: " + address->Describe());
  return address;
}

std::string_view Text(const redisReply& reply) { return {reply.str, reply.len}; }

}  // namespace

Result<RedisSentinels> RedisSentinels::Parse(const std::vector<std::string>& list,
                                             std::string_view master_name) {
  RedisSentinels parsed;
  if (master_name.empty() ||
      master_name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                    "0123456789.-_") != std::string_view::npos) {
    return Status::InvalidArgument(std::string(kMasterNameVariable) +
                                   ": a master's name is letters, digits, '.', '-' and '_', not '" +
                                   std::string(master_name) + "'");
  }
  parsed.master_name = std::string(master_name);
  for (const std::string& entry : list) {
    NETGRAPH_ASSIGN_OR_RETURN(RedisAddress sentinel, ParseSentinel(entry));
    parsed.sentinels.push_back(std::move(sentinel));
  }
  return parsed;
}

RedisSentinels RedisSentinels::FromEnvironment(config::Environment& env) {
  const std::vector<std::string> list = env.List(kSentinelsVariable);
  const std::string name = env.String(kMasterNameVariable, RedisSentinels().master_name);
  Result<RedisSentinels> parsed = Parse(list, name);
  if (!parsed.ok()) {
    env.AddProblem(parsed.status().message());
    return {};
  }
  return *std::move(parsed);
}

std::string RedisSentinels::Describe() const {
  std::string text = "master '" + master_name + "' of sentinels ";
  for (std::size_t i = 0; i < sentinels.size(); ++i) {
    if (i > 0) text += ", ";
    text += sentinels[i].Describe();
  }
  return text;
}

Result<HostPort> ParseMasterAddressReply(const redisReply& reply) {
  if (reply.type == REDIS_REPLY_NIL) {
    return Status::NotFound("the sentinel monitors no master of that name");
  }
  if (reply.type == REDIS_REPLY_ERROR) {
    return Status::InvalidArgument("the sentinel answered " + std::string(Text(reply)));
  }
  if (reply.type != REDIS_REPLY_ARRAY || reply.elements != 2 ||
      reply.element[0]->type != REDIS_REPLY_STRING ||
      reply.element[1]->type != REDIS_REPLY_STRING) {
    return Status::InvalidArgument("not an answer to SENTINEL get-master-addr-by-name");
  }
  HostPort master{std::string(Text(*reply.element[0])), 0};
  const std::string_view port = Text(*reply.element[1]);
  if (master.host.empty() || port.empty() || port.size() > 5 ||
      port.find_first_not_of("0123456789") != std::string_view::npos ||
      std::atoi(std::string(port).c_str()) < 1 || std::atoi(std::string(port).c_str()) > 65535) {
    return Status::InvalidArgument("the sentinel named no usable address: '" + master.host + "' '" +
                                   std::string(port) + "'");
  }
  master.port = std::atoi(std::string(port).c_str());
  return master;
}

Result<bool> ParseRoleReplyIsMaster(const redisReply& reply) {
  if (reply.type == REDIS_REPLY_ERROR) {
    return Status::InvalidArgument("ROLE was refused: " + std::string(Text(reply)));
  }
  if (reply.type != REDIS_REPLY_ARRAY || reply.elements == 0 ||
      (reply.element[0]->type != REDIS_REPLY_STRING &&
       reply.element[0]->type != REDIS_REPLY_STATUS)) {
    return Status::InvalidArgument("not an answer to ROLE");
  }
  const std::string_view role = Text(*reply.element[0]);
  if (role != "master" && role != "slave" && role != "sentinel") {
    return Status::InvalidArgument("ROLE answered an unknown role '" + std::string(role) + "'");
  }
  return role == "master";
}

MasterLocator::MasterLocator(RedisSentinels sentinels, RedisAddress login, int timeout_ms)
    : sentinels_(std::move(sentinels)), login_(std::move(login)), timeout_ms_(timeout_ms) {}

Result<HostPort> MasterLocator::Ask(const RedisAddress& sentinel) {
  RedisClient client(sentinel, timeout_ms_);
  NETGRAPH_ASSIGN_OR_RETURN(RedisReply reply, client.Call({"SENTINEL", "get-master-addr-by-name",
                                                           sentinels_.master_name}));
  return ParseMasterAddressReply(*reply);
}

Status MasterLocator::CheckIsMaster(const RedisAddress& master) {
  RedisClient client(master, timeout_ms_);
  NETGRAPH_ASSIGN_OR_RETURN(RedisReply reply, client.Call({"ROLE"}));
  NETGRAPH_ASSIGN_OR_RETURN(bool is_master, ParseRoleReplyIsMaster(*reply));
  if (!is_master) return Status::FailedPrecondition("it says it is not the master");
  return Status::Ok();
}

Result<RedisAddress> MasterLocator::Locate() {
  const std::size_t count = sentinels_.sentinels.size();
  std::string problems;
  // Masters that did not pass the ROLE check in this lookup: until the sentinels agree that a dead
  // master is down, each of them names it, and asking it again would cost a timeout per sentinel
  // (what the workers' /health waits for, while the balancer's check waits for /health).
  std::vector<std::string> failed;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t index = (first_ + i) % count;
    const RedisAddress& sentinel = sentinels_.sentinels[index];
    if (!problems.empty()) problems += "; ";
    Result<HostPort> named = Ask(sentinel);
    if (!named.ok()) {
      problems += sentinel.Describe() + ": " + named.status().message();
      continue;
    }
    RedisAddress master = login_;
    master.socket_path.clear();
    master.host = named->host;
    master.port = named->port;
    if (std::find(failed.begin(), failed.end(), master.Describe()) != failed.end()) {
      problems += sentinel.Describe() + " names " + master.Describe() + " too";
      continue;
    }
    if (Status is_master = CheckIsMaster(master); !is_master.ok()) {
      problems += sentinel.Describe() + " names " + master.Describe() + ": " + is_master.message();
      failed.push_back(master.Describe());
      continue;
    }
    first_ = index;
    return master;
  }
  return Status::Unavailable("no sentinel names a master for " + sentinels_.Describe() + " (" +
                             problems + ")");
}

}  // namespace netgraph::store
