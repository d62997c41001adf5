#include "ws/options.h"

#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "core/config/environment.h"
#include "core/store/redis.h"
#include "tests/support/environment.h"

namespace netgraph::ws {
namespace {

using netgraph::testing::EnvironmentOf;

TEST(OptionsTest, DefaultsWhenNothingIsSet) {
  config::Environment env = EnvironmentOf({});
  Options options = Options::FromEnvironment(env);
  EXPECT_TRUE(env.status().ok());
  EXPECT_TRUE(env.warnings().empty());
  EXPECT_EQ(options.listen, "/run/netgraph/ws.sock");
  EXPECT_EQ(options.init_timeout.count(), 3000);
  EXPECT_EQ(options.ping_interval, std::chrono::seconds(30));
  EXPECT_EQ(options.pong_timeout, std::chrono::seconds(30));
  EXPECT_EQ(options.max_connections, 10000u);
  EXPECT_EQ(options.max_operations, 100u);
  EXPECT_EQ(options.operations_per_second, 20u);
  EXPECT_EQ(options.operations_burst, 100u);
  EXPECT_TRUE(options.allowed_origins.empty());
  EXPECT_EQ(options.queued_operations.process, 1024u);
  EXPECT_EQ(options.queued_operations.per_address, 128u);
}

TEST(OptionsTest, ReadsEveryVariable) {
  config::Environment env = EnvironmentOf({
      {"NETGRAPH_WS_LISTEN", "127.0.0.1:9001"},
      {"NETGRAPH_WS_MAX_CONNECTIONS", "5"},
      {"NETGRAPH_WS_MAX_SUBSCRIPTIONS", "6"},
      {"NETGRAPH_WS_OPERATIONS_PER_SECOND", "8"},
      {"NETGRAPH_WS_OPERATIONS_BURST", "9"},
      {"NETGRAPH_WS_MAX_MESSAGE_BYTES", "2048"},
      {"NETGRAPH_WS_QUEUE_MESSAGES", "7"},
      {"NETGRAPH_WS_QUEUE_BYTES", "4096"},
      {"NETGRAPH_WS_INIT_TIMEOUT_MS", "500"},
      {"NETGRAPH_WS_LEGACY_KEEPALIVE_MS", "2000"},
      {"NETGRAPH_WS_PING_INTERVAL_MS", "10000"},
      {"NETGRAPH_WS_PONG_TIMEOUT_MS", "4500"},
      {"NETGRAPH_WS_SHUTDOWN_TIMEOUT_MS", "100"},
      {"NETGRAPH_WS_ALLOWED_ORIGINS", " https://a.example , https://b.example/ ,,"},
      {"NETGRAPH_WS_REDIS_RETRY_MIN_MS", "20"},
      {"NETGRAPH_WS_REDIS_RETRY_MAX_MS", "200"},
      {"NETGRAPH_WS_MAX_QUEUED_OPERATIONS", "300"},
      {"NETGRAPH_WS_MAX_QUEUED_OPERATIONS_PER_ADDRESS", "30"},
  });
  Options o = Options::FromEnvironment(env);
  ASSERT_TRUE(env.status().ok()) << env.status().message();
  EXPECT_EQ(o.listen, "127.0.0.1:9001");
  EXPECT_EQ(o.max_connections, 5u);
  EXPECT_EQ(o.max_operations, 6u);
  EXPECT_EQ(o.operations_per_second, 8u);
  EXPECT_EQ(o.operations_burst, 9u);
  EXPECT_EQ(o.max_message_bytes, 2048u);
  EXPECT_EQ(o.queue.max_messages, 7u);
  EXPECT_EQ(o.queue.max_bytes, 4096u);
  EXPECT_EQ(o.init_timeout.count(), 500);
  EXPECT_EQ(o.legacy_keepalive.count(), 2000);
  EXPECT_EQ(o.ping_interval.count(), 10000);
  EXPECT_EQ(o.pong_timeout.count(), 4500);
  EXPECT_EQ(o.shutdown_timeout.count(), 100);
  EXPECT_EQ(o.allowed_origins,
            (std::vector<std::string>{"https://a.example", "https://b.example"}));
  EXPECT_EQ(o.redis_retry_min.count(), 20);
  EXPECT_EQ(o.redis_retry_max.count(), 200);
  EXPECT_EQ(o.queued_operations.process, 300u);
  EXPECT_EQ(o.queued_operations.per_address, 30u);
}

// The names without a unit, in seconds, work for one more release, each with a warning to log.
TEST(OptionsTest, TheOldSecondsNamesStillWorkWithAWarning) {
  config::Environment env =
      EnvironmentOf({{"NETGRAPH_WS_PING_INTERVAL", "10"}, {"NETGRAPH_WS_PONG_TIMEOUT", "4"}});
  Options o = Options::FromEnvironment(env);
  ASSERT_TRUE(env.status().ok()) << env.status().message();
  EXPECT_EQ(o.ping_interval.count(), 10000);
  EXPECT_EQ(o.pong_timeout.count(), 4000);
  ASSERT_EQ(env.warnings().size(), 2u);
  EXPECT_NE(env.warnings()[0].find("NETGRAPH_WS_PING_INTERVAL is deprecated"), std::string::npos);
  EXPECT_NE(env.warnings()[0].find("NETGRAPH_WS_PING_INTERVAL_MS"), std::string::npos);
}

TEST(OptionsTest, TheNewNameWinsOverTheOldOneWithAWarning) {
  config::Environment env =
      EnvironmentOf({{"NETGRAPH_WS_PONG_TIMEOUT_MS", "2500"}, {"NETGRAPH_WS_PONG_TIMEOUT", "4"}});
  Options o = Options::FromEnvironment(env);
  EXPECT_EQ(o.pong_timeout.count(), 2500);
  ASSERT_EQ(env.warnings().size(), 1u);
  EXPECT_NE(env.warnings()[0].find("NETGRAPH_WS_PONG_TIMEOUT is ignored"), std::string::npos);
}

TEST(OptionsTest, AnOldNameIsCheckedInItsOwnUnit) {
  config::Environment env = EnvironmentOf({{"NETGRAPH_WS_PING_INTERVAL", "3601"}});
  Options o = Options::FromEnvironment(env);
  ASSERT_FALSE(env.status().ok());
  EXPECT_NE(env.status().message().find("NETGRAPH_WS_PING_INTERVAL must be an integer from 1 to "
                                        "3600"),
            std::string::npos)
      << env.status().message();
  EXPECT_EQ(o.ping_interval.count(), 30000) << "the default, not 1000 times a bad value";
}

TEST(OptionsTest, BadValuesAreReported) {
  config::Environment env = EnvironmentOf({
      {"NETGRAPH_WS_INIT_TIMEOUT_MS", "soon"},
      {"NETGRAPH_WS_MAX_CONNECTIONS", "0"},
      {"NETGRAPH_WS_OPERATIONS_BURST", "0"},
  });
  Options options = Options::FromEnvironment(env);
  EXPECT_FALSE(env.status().ok());
  EXPECT_NE(env.status().message().find("NETGRAPH_WS_OPERATIONS_BURST"), std::string::npos);
  EXPECT_NE(env.status().message().find("NETGRAPH_WS_INIT_TIMEOUT_MS"), std::string::npos);
  EXPECT_NE(env.status().message().find("NETGRAPH_WS_MAX_CONNECTIONS"), std::string::npos);
  EXPECT_EQ(options.init_timeout.count(), 3000);
}

TEST(OptionsTest, ARetryMaximumBelowTheMinimumIsRaisedToIt) {
  config::Environment env = EnvironmentOf(
      {{"NETGRAPH_WS_REDIS_RETRY_MIN_MS", "500"}, {"NETGRAPH_WS_REDIS_RETRY_MAX_MS", "100"}});
  Options options = Options::FromEnvironment(env);
  EXPECT_EQ(options.redis_retry_max.count(), 500);
}

// netgraph-ws subscribes where REDIS_URL points, through the same parser as the workers.
TEST(RedisUrlTest, TcpAndUnixForms) {
  Result<store::RedisAddress> tcp = store::RedisAddress::Parse("redis://127.0.0.1:56999");
  ASSERT_TRUE(tcp.ok());
  EXPECT_EQ(tcp->host, "127.0.0.1");
  EXPECT_EQ(tcp->port, 56999);
  Result<store::RedisAddress> default_port = store::RedisAddress::Parse("redis://cache.internal");
  ASSERT_TRUE(default_port.ok());
  EXPECT_EQ(default_port->port, 6379);
  Result<store::RedisAddress> unix = store::RedisAddress::Parse("unix:///run/redis/redis.sock");
  ASSERT_TRUE(unix.ok());
  EXPECT_EQ(unix->socket_path, "/run/redis/redis.sock");
  EXPECT_FALSE(store::RedisAddress::Parse("http://x").ok());
  EXPECT_FALSE(store::RedisAddress::Parse("redis://h:99999").ok());
}

TEST(RedisUrlTest, APasswordAloneIsSentWithTheDefaultUser) {
  Result<store::RedisAddress> address = store::RedisAddress::Parse("redis://:s3cret@cache:6380");
  ASSERT_TRUE(address.ok()) << address.status().message();
  EXPECT_EQ(address->host, "cache");
  EXPECT_EQ(address->port, 6380);
  EXPECT_EQ(address->username, "");
  EXPECT_EQ(address->password, "s3cret");
  EXPECT_EQ(address->database, 0);
  EXPECT_EQ(store::LoginCommands(*address),
            (std::vector<std::vector<std::string>>{{"AUTH", "s3cret"}}));
  Result<store::RedisAddress> no_port = store::RedisAddress::Parse("redis://:pw@host");
  ASSERT_TRUE(no_port.ok());
  EXPECT_EQ(no_port->host, "host");
  EXPECT_EQ(no_port->port, 6379);
}

TEST(RedisUrlTest, UserPasswordAndDatabase) {
  // Reserved characters in the password are percent-encoded; '+' stays a plus.
  Result<store::RedisAddress> address =
      store::RedisAddress::Parse("redis://relay:p%40ss%3Aw%2Fo%25rd+x@10.0.0.5:6379/3");
  ASSERT_TRUE(address.ok()) << address.status().message();
  EXPECT_EQ(address->username, "relay");
  EXPECT_EQ(address->password, "p@ss:w/o%rd+x");
  EXPECT_EQ(address->host, "10.0.0.5");
  EXPECT_EQ(address->database, 3);
  EXPECT_EQ(
      store::LoginCommands(*address),
      (std::vector<std::vector<std::string>>{{"AUTH", "relay", "p@ss:w/o%rd+x"}, {"SELECT", "3"}}));
  EXPECT_EQ(address->Describe(), "relay@10.0.0.5:6379/3") << "never the password";

  Result<store::RedisAddress> ipv6 = store::RedisAddress::Parse("redis://[::1]:7000/0");
  ASSERT_TRUE(ipv6.ok()) << ipv6.status().message();
  EXPECT_EQ(ipv6->host, "::1");
  EXPECT_EQ(ipv6->port, 7000);
  EXPECT_TRUE(store::LoginCommands(*ipv6).empty());
}

TEST(RedisUrlTest, BadUrlsAreRefusedWithoutShowingThePassword) {
  for (const char* url :
       {"redis://:pw@host:port", "redis://:pw@host:", "redis://host/db1", "redis://host/-1",
        "redis://user@host", "redis://user:@host", "redis://:p%4@host", "redis://:p%zz@host",
        "redis://host?db=1", "redis://[::1", "redis://:pw@host/99999999999"}) {
    Result<store::RedisAddress> address = store::RedisAddress::Parse(url);
    ASSERT_FALSE(address.ok()) << url;
    EXPECT_EQ(address.status().message().find("pw@"), std::string::npos) << url;
  }
}

TEST(RedisUrlTest, TlsIsRefusedWithAClearReason) {
  Result<store::RedisAddress> tls = store::RedisAddress::Parse("rediss://:pw@cache:6380");
  ASSERT_FALSE(tls.ok());
  EXPECT_NE(tls.status().message().find("TLS"), std::string::npos);
}

}  // namespace
}  // namespace netgraph::ws
