// What a Service (core/api/service.h) is made from: every setting of the core, read from the
// environment (and the configuration file it names) once, at start and on reload.
#ifndef NETGRAPH_CORE_API_SERVICE_CONFIG_H_
#define NETGRAPH_CORE_API_SERVICE_CONFIG_H_

#include <cstdint>
#include <memory>
#include <string>

#include "core/api/trusted_documents.h"

#include "core/auth/auth_config.h"
#include "core/config/environment.h"
#include "core/domain/outbox_relay.h"
#include "core/domain/token2022_ledger.h"
#include "core/domain/update_authenticator.h"
#include "core/domain/voucher.h"
#include "core/domain/wallet_proof.h"
#include "core/graphql/engine.h"
#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/redis.h"
#include "core/store/redis_sentinel.h"

namespace netgraph::api {

struct ServiceConfig {
  std::string database_url;           // DATABASE_URL
  store::ConnectionOptions database;  // NETGRAPH_DB_*
  store::RedisAddress redis;          // REDIS_URL
  store::RedisSentinels sentinels;    // NETGRAPH_REDIS_SENTINELS, NETGRAPH_REDIS_MASTER_NAME
  graphql::EngineOptions engine;
  auth::AuthConfig auth;
  domain::ClaimPolicy claims;           // NETGRAPH_CLAIM_*
  domain::LedgerConfig ledger;          // NETGRAPH_TREASURY_KEYPAIR_FILE, NETGRAPH_MINT_ADDRESS
  domain::RelayOptions relay;           // NETGRAPH_RELAY_*, NETGRAPH_OUTBOX_RETENTION_SECONDS
  domain::UpdateAuthenticator updates;  // NETGRAPH_UPDATE_SIGNING_KEY_FILE
  bool read_cache = true;               // NETGRAPH_READ_CACHE
  // NETGRAPH_TRUSTED_DOCUMENTS: the manifest, or null (automatic persisted queries instead).
  std::shared_ptr<const TrustedDocuments> trusted_documents;
  std::int64_t persisted_queries_max_rows = 10000;  // NETGRAPH_PERSISTED_QUERIES_MAX_ROWS
  // NETGRAPH_PUBLIC_ORIGIN
  domain::WalletProofPolicy wallet_proofs;

  // Every mistake is recorded in `env`; the error is env.status(), naming them all.
  static Result<ServiceConfig> FromEnvironment(config::Environment& env);
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_SERVICE_CONFIG_H_
