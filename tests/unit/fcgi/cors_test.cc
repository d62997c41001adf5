#include "fcgi/http/cors.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>

namespace netgraph::fcgi {
namespace {

CorsPolicy Policy(const std::vector<std::string>& origins) {
  Result<CorsPolicy> policy = CorsPolicy::FromOrigins(origins);
  EXPECT_TRUE(policy.ok()) << policy.status().message();
  return policy.value();
}

std::optional<std::string> Header(const HttpResponse& response, std::string_view name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

HttpRequest FromOrigin(std::string_view method, std::string_view origin) {
  HttpRequest request;
  request.method = method;
  request.path = "/graphql";
  request.origin = origin;
  return request;
}

TEST(CorsPolicy, AcceptsOriginsWithAndWithoutPorts) {
  EXPECT_TRUE(CorsPolicy::FromOrigins({"https://app.example", "http://127.0.0.1:8080",
                                       "http://[::1]:3000", "HTTPS://Mixed.Case.example"})
                  .ok());
}

TEST(CorsPolicy, RefusesWhatIsNotAnOriginNamingEachEntry) {
  Result<CorsPolicy> policy = CorsPolicy::FromOrigins(
      {"*", "app.example", "https://app.example/path", "ftp://app.example", "http://host:port",
       "https://", "http://[zz]", "https://ok.example"});
  ASSERT_FALSE(policy.ok());
  const std::string& message = policy.status().message();
  for (const char* bad :
       {"'*'", "'app.example'", "'https://app.example/path'", "'ftp://app.example'",
        "'http://host:port'", "'https://'", "'http://[zz]'"}) {
    EXPECT_NE(message.find(bad), std::string::npos) << bad << " in " << message;
  }
  EXPECT_EQ(message.find("ok.example"), std::string::npos) << message;
}

TEST(CorsPolicy, AllowsListedOriginsIgnoringCase) {
  CorsPolicy policy = Policy({"https://App.Example", "http://127.0.0.1:8080"});
  EXPECT_TRUE(policy.Allows("https://app.example"));
  EXPECT_TRUE(policy.Allows("http://127.0.0.1:8080"));
  EXPECT_FALSE(policy.Allows("http://127.0.0.1:8081"));
  EXPECT_FALSE(policy.Allows("http://app.example"));
  EXPECT_FALSE(policy.Allows("https://app.example.evil"));
  EXPECT_FALSE(policy.Allows(""));
  EXPECT_FALSE(policy.Allows("null"));
}

TEST(CorsPolicy, EmptyListAllowsNothingAndAddsNoHeaders) {
  CorsPolicy policy;
  EXPECT_FALSE(policy.Allows("https://app.example"));
  HttpResponse response;
  policy.Decorate(FromOrigin("POST", "https://app.example"), response);
  EXPECT_TRUE(response.headers.empty());
}

TEST(CorsPolicy, AllowedOriginIsEchoedWithVary) {
  CorsPolicy policy = Policy({"https://app.example"});
  HttpResponse response;
  policy.Decorate(FromOrigin("POST", "https://app.example"), response);
  EXPECT_EQ(Header(response, "Access-Control-Allow-Origin"), "https://app.example");
  EXPECT_EQ(Header(response, "Vary"), "Origin");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Credentials"), std::nullopt);
}

TEST(CorsPolicy, OtherOriginGetsVaryButNoCorsHeader) {
  CorsPolicy policy = Policy({"https://app.example"});
  for (std::string_view origin : {"https://evil.example", ""}) {
    HttpResponse response;
    policy.Decorate(FromOrigin("POST", origin), response);
    EXPECT_EQ(Header(response, "Vary"), "Origin");
    EXPECT_EQ(response.headers.size(), 1u) << origin;
  }
}

TEST(CorsPolicy, PreflightOfAnAllowedOrigin) {
  CorsPolicy policy = Policy({"https://app.example"});
  HttpResponse response = policy.Preflight(FromOrigin("OPTIONS", "https://app.example"));
  EXPECT_EQ(response.status, 204);
  EXPECT_TRUE(response.body.empty());
  EXPECT_EQ(Header(response, "Access-Control-Allow-Origin"), "https://app.example");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Methods"), "GET, POST, OPTIONS");
  EXPECT_EQ(Header(response, "Access-Control-Allow-Headers"), "authorization, content-type");
  EXPECT_EQ(Header(response, "Access-Control-Max-Age"), std::to_string(kCorsMaxAgeSeconds));
  EXPECT_EQ(Header(response, "Vary"), "Origin");
}

TEST(CorsPolicy, PreflightOfAnotherOriginHasNoCorsHeaders) {
  CorsPolicy policy = Policy({"https://app.example"});
  HttpResponse response = policy.Preflight(FromOrigin("OPTIONS", "https://evil.example"));
  EXPECT_EQ(response.status, 204);
  EXPECT_EQ(Header(response, "Allow"), "GET, POST, OPTIONS");
  for (const auto& [name, value] : response.headers) {
    EXPECT_EQ(name.rfind("Access-Control-", 0), std::string::npos) << name;
  }
}

}  // namespace
}  // namespace netgraph::fcgi
