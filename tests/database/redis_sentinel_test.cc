// The Sentinel lookup (core/store/redis_sentinel.h) against real servers: a Redis master, its
// replica and a sentinel, started here on loopback (redis-server, as the stack has it). The client
// the relay publishes with follows a failover the sentinel makes; a sentinel that does not answer
// is passed over. tests/cluster/ shows the same with both daemons on several hosts.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <hiredis/hiredis.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

#include "core/store/redis.h"
#include "core/store/redis_sentinel.h"
#include "tests/support/redis_subscriber.h"
#include "tests/support/temp_dir.h"

namespace netgraph::store {
namespace {

constexpr char kPassword[] = "redis-test-password";
constexpr char kSentinelPassword[] = "sentinel-test-password";

// A loopback port nothing listens on right now.
int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address);
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  ::close(fd);
  return ntohs(address.sin_port);
}

bool Eventually(const std::function<bool()>& condition, std::chrono::seconds limit) {
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (condition()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return condition();
}

// One command on a fresh connection to 127.0.0.1:`port`, logged in with `password`; the reply as
// text (strings of an array joined by spaces), or "" when it fails.
std::string Ask(int port, const std::string& password, const std::string& command) {
  timeval timeout{1, 0};
  redisContext* context = redisConnectWithTimeout("127.0.0.1", port, timeout);
  if (context == nullptr || context->err != 0) {
    if (context != nullptr) redisFree(context);
    return "";
  }
  redisSetTimeout(context, timeout);
  freeReplyObject(redisCommand(context, "AUTH %s", password.c_str()));
  auto* reply = static_cast<redisReply*>(redisCommand(context, command.c_str()));
  std::string text;
  const std::function<void(const redisReply*)> flatten = [&](const redisReply* r) {
    if (r->type == REDIS_REPLY_STRING || r->type == REDIS_REPLY_STATUS) {
      text += (text.empty() ? "" : " ") + std::string(r->str, r->len);
    } else if (r->type == REDIS_REPLY_ARRAY) {
      for (std::size_t i = 0; i < r->elements; ++i) flatten(r->element[i]);
    }
  };
  if (reply != nullptr) {
    flatten(reply);
    freeReplyObject(reply);
  }
  redisFree(context);
  return text;
}

// A subscriber to one channel of 127.0.0.1:`port`.
class Subscriber : public netgraph::testing::RedisSubscriber {
 public:
  Subscriber(int port, const char* channel)
      : RedisSubscriber(redisConnect("127.0.0.1", port), channel, kPassword) {}
};

class RedisSentinelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    master_ = FreePort();
    replica_ = FreePort();
    sentinel_ = FreePort();
    if (!Start("master", master_, "") ||
        !Start("replica", replica_, "--replicaof 127.0.0.1 " + std::to_string(master_))) {
      GTEST_SKIP() << "redis-server is not available";
    }
    std::ofstream(dir_ + "/sentinel.conf")
        << "port " << sentinel_ << "\nbind 127.0.0.1\ndir " << dir_ << "\nrequirepass "
        << kSentinelPassword << "\nsentinel monitor netgraph 127.0.0.1 " << master_
        << " 1\nsentinel auth-pass netgraph " << kPassword
        << "\nsentinel down-after-milliseconds netgraph 1000\n"
           "sentinel failover-timeout netgraph 5000\n";
    ASSERT_EQ(
        std::system(("redis-server " + dir_ + "/sentinel.conf --sentinel --daemonize yes " +
                     "--pidfile " + dir_ + "/sentinel.pid --logfile " + dir_ + "/sentinel.log")
                        .c_str()),
        0);
    // The sentinel knows the master and its replica, which is in sync.
    ASSERT_TRUE(Eventually(
        [&] {
          return Ask(replica_, kPassword, "INFO replication").find("master_link_status:up") !=
                     std::string::npos &&
                 Ask(sentinel_, kSentinelPassword, "SENTINEL replicas netgraph")
                         .find(std::to_string(replica_)) != std::string::npos;
        },
        std::chrono::seconds(30)));
  }

  void TearDown() override {
    for (const char* name : {"sentinel", "replica", "master"}) {
      std::system(("kill -CONT $(cat " + dir_ + "/" + name + ".pid) 2>/dev/null; kill $(cat " +
                   dir_ + "/" + name + ".pid) 2>/dev/null")
                      .c_str());
    }
  }

  bool Start(const std::string& name, int port, const std::string& extra) {
    const std::string command = "redis-server --bind 127.0.0.1 --port " + std::to_string(port) +
                                " --requirepass " + kPassword + " --masterauth " + kPassword +
                                " --save '' --appendonly no --dir " + dir_ +
                                " --daemonize yes --pidfile " + dir_ + "/" + name +
                                ".pid --logfile " + dir_ + "/" + name + ".log " + extra;
    if (std::system(command.c_str()) != 0) return false;
    return Eventually([&] { return Ask(port, kPassword, "PING") == "PONG"; },
                      std::chrono::seconds(10));
  }

  // The sentinels as NETGRAPH_REDIS_SENTINELS lists them: `first`, then the real one.
  RedisSentinels Sentinels(const std::string& first) {
    Result<RedisSentinels> sentinels =
        RedisSentinels::Parse({first, "redis://:" + std::string(kSentinelPassword) +
                                          "@127.0.0.1:" + std::to_string(sentinel_)},
                              "netgraph");
    EXPECT_TRUE(sentinels.ok()) << sentinels.status().message();
    return *sentinels;
  }

  // REDIS_URL's login; its host is never used with sentinels.
  RedisAddress Login() {
    return *RedisAddress::Parse("redis://:" + std::string(kPassword) + "@not-used.invalid:1");
  }

  // Short, for the sockets' paths; removed after TearDown stopped the servers in it.
  netgraph::testing::TempDir scratch_{"netgraph-sentinel", "/var/tmp"};
  const std::string dir_ = scratch_.path().string();
  int master_ = 0;
  int replica_ = 0;
  int sentinel_ = 0;
};

TEST_F(RedisSentinelTest, ASentinelThatDoesNotAnswerIsPassedOver) {
  MasterLocator locator(Sentinels("127.0.0.1:" + std::to_string(FreePort())), Login(), 500);
  Result<RedisAddress> master = locator.Locate();
  ASSERT_TRUE(master.ok()) << master.status().message();
  EXPECT_EQ(master->host, "127.0.0.1");
  EXPECT_EQ(master->port, master_);
  EXPECT_EQ(master->password, kPassword) << "REDIS_URL's login, on the master";
}

TEST_F(RedisSentinelTest, WithoutAnAnsweringSentinelTheErrorNamesEachOne) {
  Result<RedisSentinels> sentinels =
      RedisSentinels::Parse({"127.0.0.1:" + std::to_string(FreePort())}, "netgraph");
  ASSERT_TRUE(sentinels.ok());
  MasterLocator locator(*sentinels, Login(), 500);
  Result<RedisAddress> master = locator.Locate();
  ASSERT_FALSE(master.ok());
  EXPECT_EQ(master.status().code(), StatusCode::kUnavailable);
  EXPECT_NE(master.status().message().find("no sentinel names a master for master 'netgraph'"),
            std::string::npos)
      << master.status().message();
}

// A master that stops answering (here: stopped, so connections are accepted and never answered)
// is named by every sentinel until they agree it is down; a lookup meanwhile asks it once, not once
// per sentinel, so it costs one timeout (the workers' /health waits for it, and the balancer's
// check for /health).
TEST_F(RedisSentinelTest, AMasterThatDoesNotAnswerIsAskedOncePerLookup) {
  const std::string sentinel =
      "redis://:" + std::string(kSentinelPassword) + "@127.0.0.1:" + std::to_string(sentinel_);
  Result<RedisSentinels> sentinels = RedisSentinels::Parse({sentinel, sentinel}, "netgraph");
  ASSERT_TRUE(sentinels.ok());
  MasterLocator locator(*sentinels, Login(), 300);
  ASSERT_EQ(std::system(("kill -STOP $(cat " + dir_ + "/master.pid)").c_str()), 0);
  Result<RedisAddress> master = locator.Locate();
  std::system(("kill -CONT $(cat " + dir_ + "/master.pid)").c_str());
  ASSERT_FALSE(master.ok());
  const std::string named = "names 127.0.0.1:" + std::to_string(master_);
  const std::string& message = master.status().message();
  EXPECT_NE(message.find(named + ": "), std::string::npos) << message;
  EXPECT_NE(message.find(named + " too"), std::string::npos) << message;
  EXPECT_EQ(message.find(named + ": "), message.rfind(named + ": ")) << "asked once: " << message;
}

// What the outbox relay does: publish through a client that asks the sentinels at every
// connection. After the sentinel fails over, the next PUBLISH reaches the new master.
TEST_F(RedisSentinelTest, TheRelaysClientFollowsAFailover) {
  RedisClient client(Login(), 1000, Sentinels("127.0.0.1:" + std::to_string(FreePort())));
  {
    Subscriber on_master(master_, "netgraph:test");
    Result<std::int64_t> before = client.Publish("netgraph:test", "before");
    ASSERT_TRUE(before.ok()) << before.status().message();
    EXPECT_EQ(*before, 1);
    EXPECT_EQ(on_master.Next(), "before");
  }

  ASSERT_EQ(Ask(sentinel_, kSentinelPassword, "SENTINEL FAILOVER netgraph"), "OK");
  ASSERT_TRUE(Eventually(
      [&] {
        return Ask(sentinel_, kSentinelPassword, "SENTINEL get-master-addr-by-name netgraph") ==
                   "127.0.0.1 " + std::to_string(replica_) &&
               Ask(replica_, kPassword, "ROLE").rfind("master", 0) == 0 &&
               Ask(master_, kPassword, "ROLE").rfind("slave", 0) == 0;
      },
      std::chrono::seconds(30)));

  Subscriber on_new_master(replica_, "netgraph:test");
  Result<std::int64_t> after = client.Publish("netgraph:test", "after");
  ASSERT_TRUE(after.ok()) << after.status().message();
  EXPECT_EQ(*after, 1) << "published on the new master, where the subscriber is";
  EXPECT_EQ(on_new_master.Next(), "after");
}

}  // namespace
}  // namespace netgraph::store
