#include "core/api/service_config.h"

#include <cstdint>
#include <memory>
#include <utility>

#include "core/auth/token_verifier.h"

namespace netgraph::api {

Result<ServiceConfig> ServiceConfig::FromEnvironment(config::Environment& env) {
  ServiceConfig config;
  config.database_url = env.DatabaseUrl();
  config.database = store::ConnectionOptions::FromEnvironment(env);
  Result<store::RedisAddress> redis =
      store::RedisAddress::Parse(env.String("REDIS_URL", "redis://127.0.0.1:6379"));
  if (!redis.ok()) redis = redis.status().WithContext("REDIS_URL");
  config.sentinels = store::RedisSentinels::FromEnvironment(env);
  graphql::Limits& limits = config.engine.limits;
  limits.max_document_bytes = static_cast<std::size_t>(
      env.Int("NETGRAPH_MAX_DOCUMENT_BYTES", static_cast<std::int64_t>(limits.max_document_bytes),
              64, 16 * 1024 * 1024));
  limits.max_tokens = static_cast<std::size_t>(
      env.Int("NETGRAPH_MAX_TOKENS", static_cast<std::int64_t>(limits.max_tokens), 10, 1000000));
  limits.max_depth = static_cast<std::size_t>(
      env.Int("NETGRAPH_MAX_DEPTH", static_cast<std::int64_t>(limits.max_depth), 1, 1000));
  limits.max_aliases = static_cast<std::size_t>(
      env.Int("NETGRAPH_MAX_ALIASES", static_cast<std::int64_t>(limits.max_aliases), 0, 100000));
  limits.max_introspection_depth = static_cast<std::size_t>(
      env.Int("NETGRAPH_MAX_INTROSPECTION_DEPTH",
              static_cast<std::int64_t>(limits.max_introspection_depth), 1, 100));
  config.engine.document_cache_capacity = static_cast<std::size_t>(
      env.Int("NETGRAPH_DOCUMENT_CACHE",
              static_cast<std::int64_t>(config.engine.document_cache_capacity), 0, 1000000));
  config.engine.document_cache_bytes = static_cast<std::size_t>(
      env.Int("NETGRAPH_DOCUMENT_CACHE_BYTES",
              static_cast<std::int64_t>(config.engine.document_cache_bytes), 0,
              std::int64_t{16} * 1024 * 1024 * 1024));
  limits.max_cost = static_cast<std::uint64_t>(env.Int(
      "NETGRAPH_MAX_COST", static_cast<std::int64_t>(limits.max_cost), 0, std::int64_t{1} << 53));
  config.engine.introspection = env.Bool("NETGRAPH_INTROSPECTION", config.engine.introspection);
  config.read_cache = env.Bool("NETGRAPH_READ_CACHE", config.read_cache);
  config.persisted_queries_max_rows =
      env.Int("NETGRAPH_PERSISTED_QUERIES_MAX_ROWS", config.persisted_queries_max_rows, 0,
              std::int64_t{10} * 1000 * 1000);
  if (std::string manifest = env.String(std::string(kTrustedDocumentsVariable));
      !manifest.empty()) {
    Result<TrustedDocuments> trusted = TrustedDocuments::Load(manifest);
    if (trusted.ok()) {
      config.trusted_documents = std::make_shared<const TrustedDocuments>(std::move(*trusted));
    } else {
      env.AddProblem(trusted.status().message());
    }
  }
  Result<auth::AuthConfig> auth = auth::LoadAuthConfig(env);
  config.claims = domain::ClaimPolicy::FromEnvironment(env);
  config.wallet_proofs = domain::WalletProofPolicy::FromEnvironment(env);
  config.ledger = domain::LedgerConfig::FromEnvironment(env);
  config.relay = domain::RelayOptions::FromEnvironment(env);
  Result<domain::UpdateAuthenticator> updates = domain::UpdateAuthenticator::FromEnvironment(env);
  // Every mistake joins the variables' own in `env`, so one message lists them all.
  if (!auth.ok()) {
    env.AddProblem(auth.status().message());
  } else if (Result<auth::TokenVerifier> verifier = auth::TokenVerifier::Create(*auth);
             !verifier.ok()) {
    // The key files are read here too (Service::Create reads them again), so a missing issuer or
    // a key that does not load is listed with the other mistakes rather than after them.
    env.AddProblem(verifier.status().message());
  }
  if (!redis.ok()) env.AddProblem(redis.status().message());
  if (!updates.ok()) env.AddProblem(updates.status().message());
  NETGRAPH_RETURN_IF_ERROR(env.status());
  config.auth = *auth;
  config.redis = *redis;
  config.updates = *updates;
  return config;
}

}  // namespace netgraph::api
