#include "core/auth/auth_config.h"

#include <utility>
#include <vector>

#include "core/auth/internal/jwks_fetch.h"

namespace netgraph::auth {

std::string_view AlgorithmName(JwtAlgorithm algorithm) {
  switch (algorithm) {
    case JwtAlgorithm::kES256:
      return "ES256";
    case JwtAlgorithm::kRS256:
      return "RS256";
  }
  return "?";
}

namespace {

std::optional<std::string> Optional(config::Environment& env, const std::string& name) {
  std::string value = env.String(name);
  if (value.empty()) return std::nullopt;
  return value;
}

}  // namespace

Result<AuthConfig> LoadAuthConfig(config::Environment& env) {
  AuthConfig config;
  std::vector<std::string> problems;

  std::string algorithm = env.String("NETGRAPH_JWT_ALG", "ES256");
  if (algorithm == "ES256") {
    config.algorithm = JwtAlgorithm::kES256;
  } else if (algorithm == "RS256") {
    config.algorithm = JwtAlgorithm::kRS256;
  } else {
    problems.push_back("NETGRAPH_JWT_ALG must be ES256 or RS256, not '" + algorithm + "'");
  }

  config.public_key_file = env.String("NETGRAPH_JWT_PUBLIC_KEY_FILE");
  config.jwks_file = env.String("NETGRAPH_JWT_JWKS_FILE");
  JwksEndpoint& endpoint = config.jwks_endpoint;
  endpoint.url = env.String("NETGRAPH_JWT_JWKS_URL");
  endpoint.ca_file = env.String("NETGRAPH_JWT_JWKS_CA_FILE");
  endpoint.timeout = std::chrono::milliseconds(
      env.Int("NETGRAPH_JWT_JWKS_TIMEOUT_MS", endpoint.timeout.count(), 100, 60000));
  config.jwks_min_refresh = std::chrono::seconds(
      env.Int("NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS", config.jwks_min_refresh.count(), 1, 86400));
  config.jwks_max_refresh = std::chrono::seconds(
      env.Int("NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS", config.jwks_max_refresh.count(), 1, 86400));
  const int key_sources =
      !config.public_key_file.empty() + !config.jwks_file.empty() + !endpoint.url.empty();
  if (key_sources != 1) {
    problems.push_back(
        "set exactly one of NETGRAPH_JWT_PUBLIC_KEY_FILE, NETGRAPH_JWT_JWKS_FILE and "
        "NETGRAPH_JWT_JWKS_URL");
  }
  if (!endpoint.url.empty()) {
    if (Status url = CheckJwksUrl(endpoint.url); !url.ok()) problems.push_back(url.message());
  }
  if (config.jwks_min_refresh > config.jwks_max_refresh) {
    problems.push_back("NETGRAPH_JWT_JWKS_MIN_REFRESH_SECONDS (" +
                       std::to_string(config.jwks_min_refresh.count()) +
                       ") is above NETGRAPH_JWT_JWKS_MAX_REFRESH_SECONDS (" +
                       std::to_string(config.jwks_max_refresh.count()) + ")");
  }

  config.issuer = Optional(env, "NETGRAPH_JWT_ISSUER");
  config.audience = Optional(env, "NETGRAPH_JWT_AUDIENCE");
  config.allow_any_issuer_audience =
      env.Bool("NETGRAPH_JWT_ALLOW_ANY_ISSUER_AUDIENCE", config.allow_any_issuer_audience);
  config.leeway_seconds = env.Int("NETGRAPH_JWT_LEEWAY_SECONDS", config.leeway_seconds, 0,
                                  AuthConfig::kMaxLeewaySeconds);
  config.max_token_bytes = env.Int("NETGRAPH_JWT_MAX_BYTES", config.max_token_bytes, 512, 65536);

  if (std::optional<std::string> claim = Optional(env, "NETGRAPH_ADMIN_ROLE_CLAIM")) {
    std::size_t equals = claim->find('=');
    if (equals == std::string::npos || equals == 0 || equals + 1 == claim->size()) {
      problems.push_back("NETGRAPH_ADMIN_ROLE_CLAIM must look like claim=value, not '" + *claim +
                         "'");
    } else {
      config.admin_role_claim = AdminRoleClaim{claim->substr(0, equals), claim->substr(equals + 1)};
    }
  }

  if (problems.empty()) return config;
  std::string message = "bad authentication configuration: ";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (i > 0) message += "; ";
    message += problems[i];
  }
  return Status::InvalidArgument(std::move(message));
}

}  // namespace netgraph::auth
