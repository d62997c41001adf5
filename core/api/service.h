// The netgraph service as both adapters (fcgi/, ws/) use it, the façade of core/api: the GraphQL
// engine loaded with the service schema (core/api/schema.graphql) and its
// resolvers bound, plus the per-process resources resolvers reach through a request's context
// (core/api/request_scope.h): the PostgreSQL connection and the Redis client. It is made from a
// ServiceConfig (core/api/service_config.h) and reports its Health (core/api/health.h); an
// adapter runs each operation through RunOperation (core/api/operation.h).
//
// One Service per process. Create it before forking workers: it opens no connection until first
// use, so every forked worker opens its own.
#ifndef NETGRAPH_CORE_API_SERVICE_H_
#define NETGRAPH_CORE_API_SERVICE_H_

#include <cstdint>
#include <memory>
#include <string_view>

#include "core/api/health.h"
#include "core/api/operation.h"
#include "core/api/persisted_documents.h"
#include "core/api/portfolio_cache.h"
#include "core/api/read_cache.h"
#include "core/api/request_scope.h"
#include "core/api/service_config.h"
#include "core/api/user_cache.h"
#include "core/auth/jwks_key_set.h"
#include "core/auth/token_verifier.h"
#include "core/domain/confidential_ledger.h"
#include "core/domain/outbox_relay.h"
#include "core/domain/update_authenticator.h"
#include "core/domain/voucher.h"
#include "core/domain/wallet_proof.h"
#include "core/graphql/engine.h"
#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/redis.h"
#include "core/store/redis_sentinel.h"
#include "core/throttled_log.h"

namespace netgraph::api {

class Service {
 public:
  static Result<std::unique_ptr<Service>> Create(const ServiceConfig& config);

  graphql::Engine& engine() { return *engine_; }
  store::Connection& database() { return database_; }
  store::RedisClient& redis() { return redis_; }
  // Seals the graph updates the relay publishes and opens the ones netgraph-ws receives.
  const domain::UpdateAuthenticator& updates() const { return updates_; }
  const domain::ClaimPolicy& claim_policy() const { return claim_policy_; }
  const domain::WalletProofPolicy& wallet_proof_policy() const { return wallet_proof_policy_; }
  // Null when NETGRAPH_TREASURY_KEYPAIR_FILE or NETGRAPH_MINT_ADDRESS is unset: redemptions fail.
  const domain::ConfidentialLedger* ledger() const { return ledger_.get(); }

  // How the outbox relay (core/domain/outbox_relay.h) publishes: NETGRAPH_RELAY_*.
  const domain::RelayOptions& relay_options() const { return relay_options_; }

  // The generation of the public data this process shares with the others that serve it (not
  // owned; it must outlive the service). With one, and NETGRAPH_READ_CACHE on, networkGraph and
  // investmentData are answered from read_cache(); without one (netgraph-ws, netgraphctl) they
  // always read the database.
  void UseDataGeneration(DataGeneration* generation);
  ReadCache& read_cache() { return read_cache_; }
  // Whether the whole answer to `operation` comes from read_cache(): a query whose root fields are
  // all networkGraph, investmentData or __typename (core/api/resolvers.cc). Asked without a token,
  // such a query's answer then depends only on its text, its variables and the data, so the
  // caller may keep the answer's bytes in read_cache() as well (core/api/operation.cc does, under
  // core/api/answer_key.h's key).
  static bool AnsweredFromReadCache(const graphql::OperationSummary& operation);
  // Called once a change of the public data has committed, before the caller learns of it: every
  // process sharing the generation then reads the database again.
  void NoteDataChanged();

  // The users' generations this process shares with the others that serve them (not owned; it
  // must outlive the service). With them, and NETGRAPH_READ_CACHE on, getUserPortfolio answers
  // from portfolio_cache() while the user's data is unchanged.
  void UseUserGenerations(UserGenerations* generations);
  PortfolioCache& portfolio_cache() { return portfolio_cache_; }
  // Called once a change of `user_id`'s portfolio has committed (or may have), before the caller
  // learns of it; NoteAllPortfoliosChanged for a change of every user's, or announcements lost.
  void NotePortfolioChanged(std::int64_t user_id);
  void NoteAllPortfoliosChanged();

  // The generations of the users' rows, shared the same way: with them, and NETGRAPH_READ_CACHE
  // on, the callers' users come from user_cache() while their rows are unchanged.
  void UseUserRowGenerations(UserGenerations* generations);
  UserCache& user_cache() { return user_cache_; }
  // Called once a change of `user_id`'s row has committed; NoteAllUserRowsChanged for
  // announcements lost.
  void NoteUserRowChanged(std::int64_t user_id);
  void NoteAllUserRowsChanged();

  // Persisted and trusted documents (NETGRAPH_TRUSTED_DOCUMENTS,
  // NETGRAPH_PERSISTED_QUERIES_MAX_ROWS): RunOperation resolves every request through them.
  PersistedDocuments& persisted_documents() { return persisted_documents_; }

  // The context for one request carrying `authorization` (the Authorization header value, e.g.
  // "Bearer eyJ..."; empty when the request has none).
  std::unique_ptr<RequestScope> NewRequest(std::string_view authorization);

  Health CheckHealth();

  // Verifies tokens with `fresh`'s keys and token settings from now on (netgraph-ws's reload, which
  // loads a whole Service from the new configuration to validate it); `fresh` verifies none after.
  void AdoptTokenVerifier(Service& fresh) { verifier_ = std::move(fresh.verifier_); }

  // The JWKS URL's key set (NETGRAPH_JWT_JWKS_URL), for the daemon to fetch and refresh; null when
  // the keys come from a file.
  const std::shared_ptr<auth::JwksKeySet>& token_key_set() const {
    return verifier_.jwks_key_set();
  }

 private:
  Service(const ServiceConfig& config, std::unique_ptr<graphql::Engine> engine,
          auth::TokenVerifier verifier, std::unique_ptr<domain::ConfidentialLedger> ledger);

  std::unique_ptr<graphql::Engine> engine_;
  auth::TokenVerifier verifier_;
  log::ThrottledLog rejections_;
  store::Connection database_;
  store::RedisClient redis_;
  domain::ClaimPolicy claim_policy_;
  domain::WalletProofPolicy wallet_proof_policy_;
  domain::RelayOptions relay_options_;
  domain::UpdateAuthenticator updates_;
  std::unique_ptr<domain::ConfidentialLedger> ledger_;
  bool read_cache_on_;
  DataGeneration* generation_ = nullptr;
  ReadCache read_cache_;
  UserGenerations* user_generations_ = nullptr;
  UserGenerations* user_row_generations_ = nullptr;
  PortfolioCache portfolio_cache_;
  UserCache user_cache_;
  PersistedDocuments persisted_documents_;
};

// The service schema's SDL, compiled into the binary.
std::string_view ServiceSchema();

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_SERVICE_H_
