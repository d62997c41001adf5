// The netgraph service as both adapters (fcgi/, ws/) use it: the GraphQL engine loaded with the
// service schema (core/api/schema.graphql) and its resolvers bound, plus the per-process resources
// resolvers reach through a request's context: the PostgreSQL connection and the Redis client.
//
// One Service per process. Create it before forking workers: it opens no connection until first use,
// so every forked worker opens its own.
#ifndef NETGRAPH_CORE_API_SERVICE_H_
#define NETGRAPH_CORE_API_SERVICE_H_

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/auth/auth_config.h"
#include "core/auth/identity.h"
#include "core/auth/token_verifier.h"
#include "core/config/environment.h"
#include "core/graphql/engine.h"
#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/redis.h"

namespace netgraph::api {

struct ServiceConfig {
  std::string database_url;  // DATABASE_URL
  store::RedisAddress redis;  // REDIS_URL
  graphql::EngineOptions engine;
  auth::AuthConfig auth;

  static Result<ServiceConfig> FromEnvironment(config::Environment& env);
};

// What /health reports. The service can serve while PostgreSQL answers; Redis only delays updates.
struct Health {
  bool database_connected = false;
  std::string database_version;
  std::string database_error;
  bool redis_connected = false;
  std::string redis_error;

  bool serving() const { return database_connected; }
  // The public body: connection states and the database version, no error details.
  std::string ToJson() const;
};

class Service;

// What a request's Authorization header amounted to. kInvalid (a token was sent and failed
// verification) is not the same as kNone: public operations still run, but the WebSocket process
// refuses such a connection (4403).
enum class Credentials { kNone, kValid, kInvalid };

// What resolvers see of a request: the service's resources and the caller's credentials.
class RequestScope : public graphql::RequestContext {
 public:
  RequestScope(Service& service, Credentials credentials, std::optional<auth::Identity> identity)
      : service_(service), credentials_(credentials), identity_(std::move(identity)) {}
  Service& service() const { return service_; }
  Credentials credentials() const { return credentials_; }
  // The verified caller; null unless credentials() is kValid.
  const auth::Identity* identity() const { return identity_ ? &*identity_ : nullptr; }

 private:
  Service& service_;
  Credentials credentials_;
  std::optional<auth::Identity> identity_;
};

class Service {
 public:
  static Result<std::unique_ptr<Service>> Create(const ServiceConfig& config);

  graphql::Engine& engine() { return *engine_; }
  store::Connection& database() { return database_; }
  store::RedisClient& redis() { return redis_; }

  // The context for one request carrying `authorization` (the Authorization header value, e.g.
  // "Bearer eyJ..."; empty when the request has none).
  std::unique_ptr<RequestScope> NewRequest(std::string_view authorization);

  Health CheckHealth();

 private:
  Service(const ServiceConfig& config, std::unique_ptr<graphql::Engine> engine,
          auth::TokenVerifier verifier);

  std::unique_ptr<graphql::Engine> engine_;
  auth::TokenVerifier verifier_;
  store::Connection database_;
  store::RedisClient redis_;
};

// The service schema's SDL, compiled into the binary.
std::string_view ServiceSchema();

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_SERVICE_H_
