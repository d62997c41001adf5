#include "core/auth/auth_config.h"
#include "tests/support/environment.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>
#include <string>

namespace netgraph::auth {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

using netgraph::testing::EnvironmentOf;

TEST(AuthConfigTest, DefaultsWithOnlyAKeyFile) {
  config::Environment env = EnvironmentOf({{"NETGRAPH_JWT_PUBLIC_KEY_FILE", "/etc/idp.pem"}});
  Result<AuthConfig> config = LoadAuthConfig(env);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_TRUE(env.status().ok());
  EXPECT_EQ(config->algorithm, JwtAlgorithm::kES256);
  EXPECT_EQ(config->public_key_file, "/etc/idp.pem");
  EXPECT_EQ(config->jwks_file, "");
  EXPECT_EQ(config->issuer, std::nullopt);
  EXPECT_EQ(config->audience, std::nullopt);
  EXPECT_FALSE(config->allow_any_issuer_audience);
  EXPECT_EQ(config->leeway_seconds, 60);
  EXPECT_FALSE(config->admin_role_claim.has_value());
  EXPECT_EQ(config->max_token_bytes, 8192);
}

TEST(AuthConfigTest, ReadsEverySetting) {
  config::Environment env = EnvironmentOf({{"NETGRAPH_JWT_ALG", "RS256"},
                                           {"NETGRAPH_JWT_JWKS_FILE", "/etc/jwks.json"},
                                           {"NETGRAPH_JWT_ISSUER", "privy.io"},
                                           {"NETGRAPH_JWT_AUDIENCE", "app-1"},
                                           {"NETGRAPH_JWT_ALLOW_ANY_ISSUER_AUDIENCE", "on"},
                                           {"NETGRAPH_JWT_LEEWAY_SECONDS", "0"},
                                           {"NETGRAPH_ADMIN_ROLE_CLAIM", "groups=ops=admin"},
                                           {"NETGRAPH_JWT_MAX_BYTES", "4096"}});
  Result<AuthConfig> config = LoadAuthConfig(env);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_TRUE(env.status().ok());
  EXPECT_EQ(config->algorithm, JwtAlgorithm::kRS256);
  EXPECT_EQ(config->jwks_file, "/etc/jwks.json");
  EXPECT_EQ(config->issuer, "privy.io");
  EXPECT_EQ(config->audience, "app-1");
  EXPECT_TRUE(config->allow_any_issuer_audience);
  EXPECT_EQ(config->leeway_seconds, 0);
  ASSERT_TRUE(config->admin_role_claim.has_value());
  EXPECT_EQ(config->admin_role_claim->name, "groups");
  EXPECT_EQ(config->admin_role_claim->value, "ops=admin");
  EXPECT_EQ(config->max_token_bytes, 4096);
}

TEST(AuthConfigTest, RefusesAlgorithmsOtherThanES256AndRS256) {
  for (const char* alg : {"HS256", "none", "es256", "RS384", "PS256", "EdDSA"}) {
    config::Environment env =
        EnvironmentOf({{"NETGRAPH_JWT_ALG", alg}, {"NETGRAPH_JWT_PUBLIC_KEY_FILE", "/k.pem"}});
    Result<AuthConfig> config = LoadAuthConfig(env);
    ASSERT_FALSE(config.ok()) << alg;
    EXPECT_THAT(config.status().message(),
                HasSubstr(std::string("NETGRAPH_JWT_ALG must be ES256 or RS256, not '") + alg));
  }
}

TEST(AuthConfigTest, NeedsExactlyOneKeySource) {
  config::Environment none = EnvironmentOf({});
  EXPECT_THAT(
      LoadAuthConfig(none).status().message(),
      HasSubstr("set exactly one of NETGRAPH_JWT_PUBLIC_KEY_FILE, NETGRAPH_JWT_JWKS_FILE and "
                "NETGRAPH_JWT_JWKS_URL"));
  config::Environment both = EnvironmentOf(
      {{"NETGRAPH_JWT_PUBLIC_KEY_FILE", "/k.pem"}, {"NETGRAPH_JWT_JWKS_FILE", "/k.json"}});
  EXPECT_FALSE(LoadAuthConfig(both).ok());
  config::Environment file_and_url = EnvironmentOf(
      {{"NETGRAPH_JWT_JWKS_FILE", "/k.json"}, {"NETGRAPH_JWT_JWKS_URL", "https://idp.example/k"}});
  EXPECT_FALSE(LoadAuthConfig(file_and_url).ok());
}

TEST(AuthConfigTest, JwksUrlDefaults) {
  config::Environment env =
      EnvironmentOf({{"NETGRAPH_JWT_JWKS_URL", "https://idp.example/.well-known/jwks.json"}});
  Result<AuthConfig> config = LoadAuthConfig(env);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_TRUE(env.status().ok());
  EXPECT_EQ(config->jwks_endpoint.url, "https://idp.example/.well-known/jwks.json");
  EXPECT_EQ(config->jwks_endpoint.ca_file, "");
  EXPECT_EQ(config->jwks_endpoint.timeout, std::chrono::milliseconds(5000));
  EXPECT_EQ(config->jwks_min_refresh, std::chrono::seconds(60));
  EXPECT_EQ(config->jwks_max_refresh, std::chrono::seconds(3600));
}

TEST(AuthConfigTest, ReadsTheJwksUrlSettings) {
  config::Environment env = EnvironmentOf({{"NETGRAPH_JWT_JWKS_URL", "https://127.0.0.1:8443/k"},
                                           {"NETGRAPH_JWT_JWKS_CA_FILE", "/etc/ca.pem"},
                                           {"NETGRAPH_JWT_JWKS_TIMEOUT_MS", "2000"},
                                           {"NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS", "5"},
                                           {"NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS", "600"}});
  Result<AuthConfig> config = LoadAuthConfig(env);
  ASSERT_TRUE(config.ok()) << config.status().message();
  EXPECT_TRUE(env.status().ok());
  EXPECT_EQ(config->jwks_endpoint.ca_file, "/etc/ca.pem");
  EXPECT_EQ(config->jwks_endpoint.timeout, std::chrono::milliseconds(2000));
  EXPECT_EQ(config->jwks_min_refresh, std::chrono::seconds(5));
  EXPECT_EQ(config->jwks_max_refresh, std::chrono::seconds(600));
}

TEST(AuthConfigTest, RefusesJwksUrlsThatAreNotHttps) {
  const std::map<std::string, std::string> refused = {
      {"http://idp.example/jwks.json",
       "must be an https:// URL, not 'http://idp.example/jwks.json'"},
      {"file:///etc/jwks.json", "must be an https:// URL"},
      {"https://", "NETGRAPH_JWT_JWKS_URL is not a URL: 'https://'"},
      {"idp example", "NETGRAPH_JWT_JWKS_URL is not a URL"},
  };
  for (const auto& [url, reason] : refused) {
    config::Environment env = EnvironmentOf({{"NETGRAPH_JWT_JWKS_URL", url}});
    Result<AuthConfig> config = LoadAuthConfig(env);
    ASSERT_FALSE(config.ok()) << url;
    EXPECT_THAT(config.status().message(), HasSubstr(reason)) << url;
  }
}

TEST(AuthConfigTest, RefusesJwksRefreshBoundsOutOfOrderOrRange) {
  config::Environment reversed = EnvironmentOf({{"NETGRAPH_JWT_JWKS_URL", "https://idp.example/k"},
                                                {"NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS", "600"},
                                                {"NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS", "60"}});
  EXPECT_THAT(LoadAuthConfig(reversed).status().message(),
              HasSubstr("NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS (600) is above "
                        "NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS (60)"));
  config::Environment range = EnvironmentOf({{"NETGRAPH_JWT_JWKS_URL", "https://idp.example/k"},
                                             {"NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS", "0"},
                                             {"NETGRAPH_JWT_JWKS_TIMEOUT_MS", "10"}});
  ASSERT_TRUE(LoadAuthConfig(range).ok());
  EXPECT_THAT(range.status().message(), AllOf(HasSubstr("NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS"),
                                              HasSubstr("NETGRAPH_JWT_JWKS_TIMEOUT_MS")));
}

TEST(AuthConfigTest, RefusesMalformedAdminRoleClaims) {
  for (const char* claim : {"roles", "=admin", "roles="}) {
    config::Environment env = EnvironmentOf(
        {{"NETGRAPH_ADMIN_ROLE_CLAIM", claim}, {"NETGRAPH_JWT_PUBLIC_KEY_FILE", "/k.pem"}});
    Result<AuthConfig> config = LoadAuthConfig(env);
    ASSERT_FALSE(config.ok()) << claim;
    EXPECT_THAT(config.status().message(), HasSubstr("NETGRAPH_ADMIN_ROLE_CLAIM"));
  }
}

TEST(AuthConfigTest, ReportsEveryOwnProblemAtOnce) {
  config::Environment env =
      EnvironmentOf({{"NETGRAPH_JWT_ALG", "HS256"}, {"NETGRAPH_ADMIN_ROLE_CLAIM", "admin"}});
  EXPECT_THAT(LoadAuthConfig(env).status().message(),
              AllOf(HasSubstr("NETGRAPH_JWT_ALG"), HasSubstr("set exactly one of"),
                    HasSubstr("NETGRAPH_ADMIN_ROLE_CLAIM")));
}

TEST(AuthConfigTest, RecordsBadNumbersInTheEnvironment) {
  config::Environment env = EnvironmentOf({{"NETGRAPH_JWT_PUBLIC_KEY_FILE", "/k.pem"},
                                           {"NETGRAPH_JWT_LEEWAY_SECONDS", "3600"},
                                           {"NETGRAPH_JWT_MAX_BYTES", "big"}});
  Result<AuthConfig> config = LoadAuthConfig(env);
  ASSERT_TRUE(config.ok());
  EXPECT_EQ(config->leeway_seconds, 60);
  EXPECT_EQ(config->max_token_bytes, 8192);
  EXPECT_THAT(env.status().message(),
              AllOf(HasSubstr("NETGRAPH_JWT_LEEWAY_SECONDS"), HasSubstr("NETGRAPH_JWT_MAX_BYTES")));
}

}  // namespace
}  // namespace netgraph::auth
