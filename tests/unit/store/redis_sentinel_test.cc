// The Sentinel lookup's configuration and its reading of replies (core/store/redis_sentinel.h).
// Replies are made by hiredis's own reader from RESP text, as they arrive from a sentinel.
#include "core/store/redis_sentinel.h"
#include "tests/support/environment.h"

#include <gtest/gtest.h>
#include <hiredis/hiredis.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace netgraph::store {
namespace {

using netgraph::testing::EnvironmentOf;

// The reply hiredis reads from `resp`.
RedisReply ReplyOf(const std::string& resp) {
  redisReader* reader = redisReaderCreate();
  redisReaderFeed(reader, resp.data(), resp.size());
  void* reply = nullptr;
  EXPECT_EQ(redisReaderGetReply(reader, &reply), REDIS_OK);
  redisReaderFree(reader);
  EXPECT_NE(reply, nullptr) << "incomplete RESP: " << resp;
  return RedisReply(static_cast<redisReply*>(reply));
}

TEST(RedisSentinelsTest, UnsetMeansNoSentinel) {
  config::Environment env = EnvironmentOf({});
  RedisSentinels sentinels = RedisSentinels::FromEnvironment(env);
  EXPECT_TRUE(env.status().ok());
  EXPECT_FALSE(sentinels.enabled());
}

TEST(RedisSentinelsTest, HostPortAndUrlEntriesWithTheMasterName) {
  config::Environment env =
      EnvironmentOf({{"NETGRAPH_REDIS_SENTINELS",
                      "10.0.0.1:26379, [fd00::2]:26380,redis://:s3cret@sentinel.internal:26379"},
                     {"NETGRAPH_REDIS_MASTER_NAME", "cache-1"}});
  RedisSentinels sentinels = RedisSentinels::FromEnvironment(env);
  ASSERT_TRUE(env.status().ok()) << env.status().message();
  ASSERT_EQ(sentinels.sentinels.size(), 3u);
  EXPECT_EQ(sentinels.sentinels[0].host, "10.0.0.1");
  EXPECT_EQ(sentinels.sentinels[0].port, 26379);
  EXPECT_EQ(sentinels.sentinels[1].host, "fd00::2");
  EXPECT_EQ(sentinels.sentinels[1].port, 26380);
  EXPECT_EQ(sentinels.sentinels[2].password, "s3cret");
  EXPECT_EQ(LoginCommands(sentinels.sentinels[2]),
            (std::vector<std::vector<std::string>>{{"AUTH", "s3cret"}}));
  EXPECT_EQ(sentinels.master_name, "cache-1");
  EXPECT_EQ(sentinels.Describe(),
            "master 'cache-1' of sentinels 10.0.0.1:26379, [fd00::2]:26380, "
            "sentinel.internal:26379")
      << "never the password";
}

TEST(RedisSentinelsTest, TheMasterNameDefaultsToNetgraph) {
  config::Environment env = EnvironmentOf({{"NETGRAPH_REDIS_SENTINELS", "s1:26379"}});
  EXPECT_EQ(RedisSentinels::FromEnvironment(env).master_name, "netgraph");
}

TEST(RedisSentinelsTest, MistakesAreNamedWithoutThePassword) {
  const std::map<std::string, std::string> cases = {
      {"s1", "give each sentinel's port"},
      {"redis://:pw@s1", "give each sentinel's port"},
      {"[fd00::2]", "give each sentinel's port"},
      {"s1:port", "bad port"},
      {"redis://:pw@s1:26379/2", "a sentinel has no database"},
      {"http://s1:26379", "each sentinel is host:port"},
      {"rediss://:pw@s1:26379", "TLS"},
  };
  for (const auto& [list, expected] : cases) {
    config::Environment env = EnvironmentOf({{"NETGRAPH_REDIS_SENTINELS", list}});
    RedisSentinels sentinels = RedisSentinels::FromEnvironment(env);
    ASSERT_FALSE(env.status().ok()) << list;
    EXPECT_FALSE(sentinels.enabled()) << list;
    const std::string message = env.status().message();
    EXPECT_NE(message.find("NETGRAPH_REDIS_SENTINELS: "), std::string::npos) << message;
    EXPECT_NE(message.find(expected), std::string::npos) << message;
    EXPECT_EQ(message.find("REDIS_URL"), std::string::npos) << message;
    EXPECT_EQ(message.find("pw"), std::string::npos) << message;
  }
  config::Environment env = EnvironmentOf(
      {{"NETGRAPH_REDIS_SENTINELS", "s1:26379"}, {"NETGRAPH_REDIS_MASTER_NAME", "my master"}});
  RedisSentinels::FromEnvironment(env);
  EXPECT_NE(env.status().message().find("NETGRAPH_REDIS_MASTER_NAME: "), std::string::npos);
}

TEST(MasterAddressReplyTest, TheHostAndPortOfTheMaster) {
  Result<HostPort> master =
      ParseMasterAddressReply(*ReplyOf("*2\r\n$9\r\n10.0.0.31\r\n$4\r\n6379\r\n"));
  ASSERT_TRUE(master.ok()) << master.status().message();
  EXPECT_EQ(master->host, "10.0.0.31");
  EXPECT_EQ(master->port, 6379);
}

TEST(MasterAddressReplyTest, AnUnknownNameIsNotFound) {
  Result<HostPort> master = ParseMasterAddressReply(*ReplyOf("*-1\r\n"));
  ASSERT_FALSE(master.ok());
  EXPECT_EQ(master.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(ParseMasterAddressReply(*ReplyOf("$-1\r\n")).status().code(), StatusCode::kNotFound);
}

TEST(MasterAddressReplyTest, OtherShapesAreRefused) {
  for (const std::string resp :
       {"-ERR unknown command 'SENTINEL'\r\n", "-NOAUTH Authentication required.\r\n", ":6379\r\n",
        "*1\r\n$9\r\n10.0.0.31\r\n", "*2\r\n$9\r\n10.0.0.31\r\n:6379\r\n",
        "*2\r\n$0\r\n\r\n$4\r\n6379\r\n", "*2\r\n$1\r\nh\r\n$5\r\n65536\r\n",
        "*2\r\n$1\r\nh\r\n$1\r\n0\r\n", "*2\r\n$1\r\nh\r\n$3\r\n6a9\r\n"}) {
    Result<HostPort> master = ParseMasterAddressReply(*ReplyOf(resp));
    ASSERT_FALSE(master.ok()) << resp;
    EXPECT_EQ(master.status().code(), StatusCode::kInvalidArgument) << resp;
  }
  EXPECT_NE(ParseMasterAddressReply(*ReplyOf("-NOAUTH Authentication required.\r\n"))
                .status()
                .message()
                .find("NOAUTH"),
            std::string::npos);
}

TEST(RoleReplyTest, MasterReplicaAndSentinel) {
  Result<bool> master = ParseRoleReplyIsMaster(
      *ReplyOf("*3\r\n$6\r\nmaster\r\n:3129659\r\n*1\r\n*3\r\n$9\r\n10.0.0.32\r\n$4\r\n6379\r\n"
               "$7\r\n3129242\r\n"));
  ASSERT_TRUE(master.ok()) << master.status().message();
  EXPECT_TRUE(*master);
  Result<bool> replica = ParseRoleReplyIsMaster(
      *ReplyOf("*5\r\n$5\r\nslave\r\n$9\r\n10.0.0.31\r\n:6379\r\n$9\r\nconnected\r\n:3167038\r\n"));
  ASSERT_TRUE(replica.ok());
  EXPECT_FALSE(*replica);
  Result<bool> sentinel =
      ParseRoleReplyIsMaster(*ReplyOf("*2\r\n$8\r\nsentinel\r\n*1\r\n$8\r\nnetgraph\r\n"));
  ASSERT_TRUE(sentinel.ok());
  EXPECT_FALSE(*sentinel);
}

TEST(RoleReplyTest, AnythingElseIsRefused) {
  for (const std::string resp : {"-NOPERM this user has no permissions\r\n", "+OK\r\n", "*0\r\n",
                                 "*1\r\n:1\r\n", "*1\r\n$7\r\nprimary\r\n"}) {
    EXPECT_EQ(ParseRoleReplyIsMaster(*ReplyOf(resp)).status().code(), StatusCode::kInvalidArgument)
        << resp;
  }
}

}  // namespace
}  // namespace netgraph::store
