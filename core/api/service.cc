#include "core/api/service.h"

#include <algorithm>
#include <chrono>
#include <utility>

#include "core/api/internal/resolvers.h"
#include "core/auth/authorization_header.h"
#include "core/auth/token_refusal.h"
#include "core/embedded_file.h"
#include "core/log.h"

namespace netgraph::api {

const std::vector<EmbeddedFile>& EmbeddedSchema();  // generated from schema.graphql

namespace {

// A flood of bad tokens writes about two lines a minute per process (core/throttled_log.h).
constexpr std::chrono::seconds kRejectionLogInterval{60};

// Distinct public answers a process keeps (networkGraph per limit, investmentData, and the whole
// answers of anonymous public queries: fcgi/http/graphql_http.cc) and the memory they may hold: a
// pool worker must stay small (32 MiB RSS, issue 11) and a networkGraph(limit: 1000) answer holds
// about 1.4 MB, a limit: 100 one about 140 KB (its whole answer as text, about 7 KB).
constexpr std::size_t kReadCacheMaxEntries = 64;
constexpr std::size_t kReadCacheMaxBytes = 4 * 1024 * 1024;

// Users whose portfolios a process keeps, and the memory they may hold: a portfolio of 40 vouchers
// holds about 40 KB (ReadCache::ApproximateBytes), so 4 MiB keeps about a hundred such users and
// all 1,024 of users with a few vouchers.
constexpr std::size_t kPortfolioCacheMaxEntries = 1024;
constexpr std::size_t kPortfolioCacheMaxBytes = 4 * 1024 * 1024;
// A subject and an email are at most 512 and 320 bytes (core/domain/user.cc): about 4 MiB at most.
constexpr std::size_t kUserCacheMaxEntries = 4096;

}  // namespace

std::string_view ServiceSchema() { return EmbeddedSchema().front().content; }

bool Service::AnsweredFromReadCache(const graphql::OperationSummary& operation) {
  if (operation.type != graphql::OperationType::kQuery) return false;
  return std::all_of(
      operation.root_fields.begin(), operation.root_fields.end(), [](std::string_view field) {
        return field == "networkGraph" || field == "investmentData" || field == "__typename";
      });
}

Service::Service(const ServiceConfig& config, std::unique_ptr<graphql::Engine> engine,
                 auth::TokenVerifier verifier, std::unique_ptr<domain::ConfidentialLedger> ledger)
    : engine_(std::move(engine)),
      verifier_(std::move(verifier)),
      rejections_("rejected credentials", kRejectionLogInterval, log::Info),
      database_(config.database_url, config.database),
      redis_(config.redis, store::kRedisTimeoutMs, config.sentinels),
      claim_policy_(config.claims),
      wallet_proof_policy_(config.wallet_proofs),
      relay_options_(config.relay),
      updates_(config.updates),
      ledger_(std::move(ledger)),
      read_cache_on_(config.read_cache),
      read_cache_(kReadCacheMaxEntries, kReadCacheMaxBytes),
      portfolio_cache_(kPortfolioCacheMaxEntries, kPortfolioCacheMaxBytes),
      user_cache_(kUserCacheMaxEntries),
      persisted_documents_(config.trusted_documents, config.persisted_queries_max_rows) {}

void Service::UseDataGeneration(DataGeneration* generation) {
  generation_ = generation;
  read_cache_.Attach(read_cache_on_ ? generation : nullptr);
}

void Service::NoteDataChanged() {
  if (generation_ != nullptr) generation_->Advance();
}

void Service::UseUserGenerations(UserGenerations* generations) {
  user_generations_ = generations;
  portfolio_cache_.Attach(read_cache_on_ ? generations : nullptr);
}

void Service::NotePortfolioChanged(std::int64_t user_id) {
  if (user_generations_ != nullptr) user_generations_->Advance(user_id);
}

void Service::NoteAllPortfoliosChanged() {
  if (user_generations_ != nullptr) user_generations_->AdvanceAll();
}

void Service::UseUserRowGenerations(UserGenerations* generations) {
  user_row_generations_ = generations;
  user_cache_.Attach(read_cache_on_ ? generations : nullptr);
}

void Service::NoteUserRowChanged(std::int64_t user_id) {
  if (user_row_generations_ != nullptr) user_row_generations_->Advance(user_id);
}

void Service::NoteAllUserRowsChanged() {
  if (user_row_generations_ != nullptr) user_row_generations_->AdvanceAll();
}

Result<std::unique_ptr<Service>> Service::Create(const ServiceConfig& config) {
  std::vector<graphql::Error> errors;
  std::unique_ptr<graphql::Engine> engine =
      graphql::Engine::Create(ServiceSchema(), config.engine, &errors);
  if (!engine) {
    std::string message = "the service schema does not load:";
    for (const graphql::Error& e : errors) message += "\n  " + e.message;
    return Status::Internal(message);
  }
  NETGRAPH_RETURN_IF_ERROR(BindResolvers(*engine));
  NETGRAPH_ASSIGN_OR_RETURN(auth::TokenVerifier verifier, auth::TokenVerifier::Create(config.auth));
  std::unique_ptr<domain::ConfidentialLedger> ledger;
  if (config.ledger.configured()) {
    NETGRAPH_ASSIGN_OR_RETURN(std::unique_ptr<domain::Token2022Ledger> created,
                              domain::Token2022Ledger::Create(config.ledger));
    log::Info("redemption receipts are signed by treasury key " + created->TreasuryPublicKey());
    ledger = std::move(created);
  } else {
    log::Warn("NETGRAPH_TREASURY_KEYPAIR_FILE or NETGRAPH_MINT_ADDRESS is unset: redemptions fail");
  }
  return std::unique_ptr<Service>(
      new Service(config, std::move(engine), std::move(verifier), std::move(ledger)));
}

std::unique_ptr<RequestScope> Service::NewRequest(std::string_view authorization) {
  if (authorization.empty()) {
    return std::make_unique<RequestScope>(*this, Credentials::kNone, std::nullopt);
  }
  Result<std::string_view> token = auth::BearerToken(authorization);
  auth::Verification verification =
      token.ok()
          ? verifier_.Verify(*token, std::chrono::system_clock::now())
          : auth::Verification::Refused(auth::TokenRefusal::kMalformed, token.status().message());
  if (!verification.ok()) {
    // The caller only ever learns "Authentication required"; the reason is for the operator.
    rejections_.Record(verification.identity.status().message());
    auth::CountRefusal(*verification.refusal);
    return std::make_unique<RequestScope>(*this, Credentials::kInvalid, std::nullopt);
  }
  return std::make_unique<RequestScope>(*this, Credentials::kValid,
                                        std::move(verification.identity).value());
}

Health Service::CheckHealth() {
  Health health;
  Result<std::string> version = database_.ServerVersion();
  health.database_connected = version.ok();
  if (version.ok()) {
    health.database_version = *version;
  } else {
    health.database_error = version.status().message();
  }
  Status redis = redis_.Ping();
  health.redis_connected = redis.ok();
  health.redis_error = redis.message();
  return health;
}

}  // namespace netgraph::api
