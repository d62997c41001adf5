// The router (fcgi/http/routes.h): which path answers what, with what methods, and the pages the
// pool adds. The service behind it has no database or Redis to reach (a closed port), so /health
// shows what an outage looks like.
#include "fcgi/http/routes.h"

#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/api/service.h"

namespace netgraph::fcgi {
namespace {

// Port 9 (discard) on loopback: nothing listens there, so a connection is refused at once.
constexpr char kNowhere[] = "127.0.0.1:9";

std::optional<std::string> Header(const HttpResponse& response, std::string_view name) {
  for (const auto& [key, value] : response.headers) {
    if (key == name) return value;
  }
  return std::nullopt;
}

class RouterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    api::ServiceConfig config;
    // A key set nobody fetched: every token is refused, and nothing is read from disk.
    config.auth.jwks_endpoint.url = "https://127.0.0.1:9/jwks.json";
    config.auth.issuer = "https://issuer.test";
    config.auth.audience = "netgraph";
    config.database_url = std::string("postgresql://") + kNowhere + "/netgraph";
    Result<store::RedisAddress> redis =
        store::RedisAddress::Parse(std::string("redis://") + kNowhere);
    ASSERT_TRUE(redis.ok());
    config.redis = *redis;
    Result<std::unique_ptr<api::Service>> created = api::Service::Create(config);
    ASSERT_TRUE(created.ok()) << created.status().message();
    service_ = std::move(created).value();
  }

  HttpResponse Route(std::string_view method, std::string_view path,
                     std::string_view query_string = "") {
    HttpRequest request;
    request.method = method;
    request.path = path;
    request.query_string = query_string;
    return router_.Route(request, *service_);
  }

  std::unique_ptr<api::Service> service_;
  Router router_{GraphQLHttpOptions{}, kNowhere};
};

TEST_F(RouterTest, LiveAnswersWithoutAskingAnyDependency) {
  HttpResponse live = Route("GET", "/live");
  EXPECT_EQ(live.status, 200);
  EXPECT_EQ(nlohmann::json::parse(live.body), nlohmann::json::parse(R"({"status":"alive"})"));
  EXPECT_EQ(Header(live, "Cache-Control"), "no-store");

  HttpResponse head = Route("HEAD", "/live");
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
}

TEST_F(RouterTest, HealthIsUnavailableWhilePostgresqlIsAndSaysWhatIsDown) {
  HttpResponse health = Route("GET", "/health");
  EXPECT_EQ(health.status, 503);
  const nlohmann::json body = nlohmann::json::parse(health.body);
  EXPECT_EQ(body["status"], "unavailable");
  EXPECT_EQ(body["postgres"]["connected"], false);
  EXPECT_EQ(body["redis"]["connected"], false);
  EXPECT_EQ(body["ws"]["reachable"], false);
  // Where the dependencies are stays in the logs.
  EXPECT_EQ(health.body.find("127.0.0.1"), std::string::npos) << health.body;
}

TEST_F(RouterTest, PagesAndProbesRefuseOtherMethodsThanGetAndHead) {
  router_.AddPage("/status", Page{"text/plain", [] { return std::string("up"); }});
  for (std::string_view path : {"/live", "/health", "/status"}) {
    HttpResponse refused = Route("POST", path);
    EXPECT_EQ(refused.status, 405) << path;
    EXPECT_EQ(Header(refused, "Allow"), "GET, HEAD") << path;
  }
}

TEST_F(RouterTest, AnAddedPageIsRenderedForEachGetAndNeverForHead) {
  int renders = 0;
  router_.AddPage("/metrics", Page{"text/plain; version=0.0.4", [&renders] {
                                     ++renders;
                                     return "render " + std::to_string(renders);
                                   }});
  HttpResponse first = Route("GET", "/metrics");
  EXPECT_EQ(first.status, 200);
  EXPECT_EQ(first.body, "render 1");
  EXPECT_EQ(Header(first, "Content-Type"), "text/plain; version=0.0.4");
  EXPECT_EQ(Header(first, "Cache-Control"), "no-store");
  EXPECT_EQ(Route("GET", "/metrics").body, "render 2");

  HttpResponse head = Route("HEAD", "/metrics");
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
  EXPECT_EQ(renders, 2);
}

TEST_F(RouterTest, UnknownPathsAreNotFoundAndNameTheEndpoint) {
  for (std::string_view path : {"/", "/graphql/", "/status", "/healthz"}) {
    HttpResponse missing = Route("GET", path);
    EXPECT_EQ(missing.status, 404) << path;
    EXPECT_NE(missing.body.find("/graphql"), std::string::npos) << path;
  }
}

TEST_F(RouterTest, GraphqlGoesToTheGraphqlAdapter) {
  HttpResponse answer = Route("GET", "/graphql", "query=%7B__typename%7D");
  EXPECT_EQ(answer.status, 200) << answer.body;
  EXPECT_EQ(nlohmann::json::parse(answer.body)["data"]["__typename"], "Query");

  // The adapter's own refusal, not the router's 404 or 405.
  HttpResponse without_query = Route("GET", "/graphql");
  EXPECT_EQ(without_query.status, 400) << without_query.body;
}

}  // namespace
}  // namespace netgraph::fcgi
