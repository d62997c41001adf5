#include "core/api/internal/resolvers.h"

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/api/service.h"
#include "core/crypto/base64.h"
#include "core/domain/graph_change.h"
#include "core/domain/network_graph.h"
#include "core/domain/portfolio.h"
#include "core/domain/redemption.h"
#include "core/domain/voucher.h"
#include "core/domain/voucher_admin.h"
#include "core/domain/wallet_proof.h"
#include "core/log.h"
#include "core/telemetry.h"

namespace netgraph::api {
namespace {

using graphql::ResolveInfo;
using graphql::ResolverResult;
using graphql::Value;

RequestScope& ScopeOf(const ResolveInfo& info) { return *static_cast<RequestScope*>(info.context); }
Service& ServiceOf(const ResolveInfo& info) { return ScopeOf(info).service(); }

// An argument's value; nullopt when absent or null.
const Value* Argument(const ResolveInfo& info, std::string_view name) {
  const Value* value = info.arguments.Find(name);
  return value == nullptr || value->is_null() ? nullptr : value;
}

std::string StringArgument(const ResolveInfo& info, std::string_view name) {
  const Value* value = Argument(info, name);
  return value == nullptr ? std::string() : value->as_string();
}

// The failure the client sees when something broke inside; the detail goes to the log only.
ResolverResult InternalError(const ResolveInfo& info, const Status& status) {
  log::Error(std::string(info.parent_type) + "." + std::string(info.field_name) + ": " +
             status.message());
  return ResolverResult::Error("Internal server error", "INTERNAL_SERVER_ERROR");
}

ResolverResult BadInput(std::string message) {
  return ResolverResult::Error(std::move(message), "BAD_USER_INPUT");
}

Value OptionalString(const std::optional<std::string>& text) {
  return text ? Value::String(*text) : Value();
}

Value DateTime(domain::Timestamp instant) { return Value::String(domain::FormatDateTime(instant)); }

Value OptionalDateTime(const std::optional<domain::Timestamp>& instant) {
  return instant ? DateTime(*instant) : Value();
}

Value VoucherValue(const domain::Voucher& v) {
  return Value::MakeObject({
      {"id", Value::String(std::to_string(v.id))},
      {"code", Value::String(v.code)},
      {"amount", Value::Float(v.amount)},
      {"status", Value::String(std::string(domain::VoucherStateName(v.status)))},
      {"redeemed", Value::Boolean(v.redeemed())},
      {"walletAddress", OptionalString(v.wallet_address)},
      {"claimedAt", OptionalDateTime(v.claimed_at)},
      {"redeemedAt", OptionalDateTime(v.redeemed_at)},
      {"expiresAt", OptionalDateTime(v.expires_at)},
  });
}

Value StringList(const std::vector<std::string>& items) {
  Value::List list;
  list.reserve(items.size());
  for (const std::string& item : items) list.push_back(Value::String(item));
  return Value::MakeList(std::move(list));
}

// The refusal shape of the result objects (ClaimVoucherResult, RedeemVoucherResult,
// WalletChallenge, VerifyWalletResult): the payload fields are null. The request scope learns of
// the refusal too (what the adapters count).
Value MutationRefusal(const ResolveInfo& info, domain::Failure failure,
                      std::initializer_list<const char*> payload_fields) {
  ScopeOf(info).NoteFailure(failure);
  Value::Object fields{
      {"success", Value::Boolean(false)},
      {"error", Value::String(std::string(domain::FailureText(failure)))},
      {"message", Value::String(std::string(domain::FailureMessage(failure)))},
  };
  for (const char* field : payload_fields) fields.emplace_back(field, Value());
  return Value::MakeObject(std::move(fields));
}

// After a mutation that may have changed the public data (vouchers, the graph) and `user`'s
// portfolio: unless the domain refused it (then nothing was written), the read caches and the
// user's portfolio in the portfolio caches of every process sharing the generations are
// invalidated before this response leaves. An error counts as a change: the commit may have
// happened. Other users' portfolios it changed (a wallet taken over) follow the database's
// announcement (core/api/portfolio_cache.h).
template <typename T>
void NoteChangeUnlessRefused(Service& service, const domain::User& user,
                             const domain::Outcome<T>& outcome) {
  if (outcome.failure()) return;
  service.NoteDataChanged();
  service.NotePortfolioChanged(user.id);
}

ResolverResult GraphdbStatus(const ResolveInfo& info) {
  Result<std::string> version = ServiceOf(info).database().ServerVersion();
  return Value::MakeObject({
      {"connected", Value::Boolean(version.ok())},
      {"version", version.ok() ? Value::String(*version) : Value()},
  });
}

Result<ReadCache::Fresh> ReadNetworkGraph(Service& service, std::int64_t limit) {
  NETGRAPH_ASSIGN_OR_RETURN(domain::NetworkGraph graph,
                            domain::ReadNetworkGraph(service.database(), limit));
  Value::List nodes;
  nodes.reserve(graph.nodes.size());
  for (const domain::GraphNode& n : graph.nodes) {
    nodes.push_back(Value::MakeObject({{"id", Value::String(n.id)},
                                       {"type", Value::String(n.type)},
                                       {"labels", StringList(n.labels)}}));
  }
  Value::List links;
  links.reserve(graph.links.size());
  for (const domain::GraphLink& l : graph.links) {
    links.push_back(Value::MakeObject({{"source", Value::String(l.source)},
                                       {"target", Value::String(l.target)},
                                       {"type", Value::String(l.type)}}));
  }
  Value metadata = Value::MakeObject({
      {"nodeCount", Value::Int(static_cast<std::int64_t>(nodes.size()))},
      {"linkCount", Value::Int(static_cast<std::int64_t>(links.size()))},
      {"lastUpdated", OptionalDateTime(graph.last_updated)},
  });
  return ReadCache::Fresh{Value::MakeObject({{"nodes", Value::MakeList(std::move(nodes))},
                                             {"links", Value::MakeList(std::move(links))},
                                             {"metadata", std::move(metadata)}}),
                          std::nullopt};
}

ResolverResult NetworkGraph(const ResolveInfo& info) {
  const Value* limit_argument = Argument(info, "limit");
  const std::int64_t limit =
      limit_argument == nullptr ? domain::kDefaultGraphLimit : limit_argument->as_int();
  if (!domain::IsValidGraphLimit(limit)) {
    return BadInput("limit must be between " + std::to_string(domain::kMinGraphLimit) + " and " +
                    std::to_string(domain::kMaxGraphLimit) + ", not " + std::to_string(limit));
  }
  Service& service = ServiceOf(info);
  Result<Value> graph =
      service.read_cache().Get("networkGraph:" + std::to_string(limit), ReadCache::Clock::now(),
                               [&] { return ReadNetworkGraph(service, limit); });
  if (!graph.ok()) return InternalError(info, graph.status());
  return std::move(graph).value();
}

Result<ReadCache::Fresh> ReadInvestmentData(Service& service) {
  NETGRAPH_ASSIGN_OR_RETURN(domain::InvestmentData data,
                            domain::ReadInvestmentData(service.database()));
  std::optional<ReadCache::Clock::time_point> valid_until;
  if (data.next_change) {
    valid_until = ReadCache::Clock::time_point(std::chrono::microseconds(*data.next_change));
  }
  return ReadCache::Fresh{Value::MakeObject({
                              {"tokenName", Value::String(data.token.name)},
                              {"tokenSymbol", Value::String(data.token.symbol)},
                              {"currentRound", OptionalString(data.current_round)},
                              {"roundRaised", Value::Float(data.round_raised)},
                              {"roundTarget", Value::Float(data.round_target)},
                              {"investorCount", Value::Int(data.investor_count)},
                              {"currentPrice", Value::Float(data.current_price)},
                              {"marketCap", Value::Float(data.market_cap)},
                          }),
                          valid_until};
}

ResolverResult InvestmentData(const ResolveInfo& info) {
  Service& service = ServiceOf(info);
  Result<Value> data = service.read_cache().Get("investmentData", ReadCache::Clock::now(),
                                                [&] { return ReadInvestmentData(service); });
  if (!data.ok()) return InternalError(info, data.status());
  return std::move(data).value();
}

Value PortfolioAnswer(const domain::Portfolio& portfolio) {
  Value::List vouchers;
  vouchers.reserve(portfolio.vouchers.size());
  for (const domain::Voucher& v : portfolio.vouchers) vouchers.push_back(VoucherValue(v));
  const domain::User& u = portfolio.user;
  Value data = Value::MakeObject({
      {"user", Value::MakeObject({{"idpDid", Value::String(u.idp_did)},
                                  {"email", OptionalString(u.email)},
                                  {"wallets", StringList(portfolio.wallets)}})},
      {"vouchers", Value::MakeList(std::move(vouchers))},
      {"balances",
       Value::MakeObject(
           {{"encryptedBalance", OptionalString(portfolio.encrypted_balance)},
            {"confidentialPublicKey", OptionalString(portfolio.confidential_public_key)},
            {"tokenAccount", OptionalString(portfolio.token_account)}})},
      {"summary",
       Value::MakeObject(
           {{"totalInvestments", Value::Float(portfolio.total_investments)},
            {"totalVouchers", Value::Int(portfolio.total_vouchers)},
            {"hasConfidentialBalance", Value::Boolean(portfolio.has_confidential_balance)}})},
  });
  return Value::MakeObject(
      {{"success", Value::Boolean(true)}, {"error", Value()}, {"data", std::move(data)}});
}

// From the portfolio cache while the user's data is unchanged (core/api/portfolio_cache.h); the
// token was verified before (Service::NewRequest), so only a valid one finds an answer.
ResolverResult GetUserPortfolio(const ResolveInfo& info) {
  RequestScope& scope = ScopeOf(info);
  PortfolioCache& cache = scope.service().portfolio_cache();
  if (std::optional<domain::Principal> principal = scope.principal()) {
    if (const Value* kept = cache.Find(*principal, PortfolioCache::Clock::now())) return *kept;
  }
  domain::Outcome<const domain::User*> user = scope.CurrentUser();
  if (const Status* error = user.error()) return InternalError(info, *error);
  if (user.failure()) {
    scope.NoteFailure(*user.failure());
    return Value::MakeObject({
        {"success", Value::Boolean(false)},
        {"error", Value::String(std::string(domain::FailureText(*user.failure())))},
        {"data", Value()},
    });
  }
  // Before the database: a change committed from here on leaves a newer generation behind.
  const std::uint64_t generation = cache.Generation(user.value()->id);
  Result<domain::Portfolio> portfolio =
      domain::ReadPortfolio(scope.service().database(), *user.value());
  if (!portfolio.ok()) return InternalError(info, portfolio.status());
  Value answer = PortfolioAnswer(*portfolio);
  std::optional<PortfolioCache::Clock::time_point> valid_until;
  if (portfolio->next_change) valid_until = *portfolio->next_change;
  cache.Keep(portfolio->user, generation, answer, valid_until);
  return answer;
}

ResolverResult AllVouchers(const ResolveInfo& info) {
  domain::Outcome<const domain::User*> user = ScopeOf(info).CurrentUser();
  if (const Status* error = user.error()) return InternalError(info, *error);
  if (user.failure()) return ResolverResult::Error("Authentication required", "UNAUTHENTICATED");
  if (!user.value()->is_admin) return ResolverResult::Error("Admin access required", "FORBIDDEN");

  const Value* first_argument = Argument(info, "first");
  const std::int64_t first =
      first_argument == nullptr ? domain::kDefaultVoucherPage : first_argument->as_int();
  if (!domain::IsValidVoucherPage(first)) {
    return BadInput("first must be between 1 and " + std::to_string(domain::kMaxVoucherPage) +
                    ", not " + std::to_string(first));
  }
  // The schema's VoucherStatus enum: its values are the states' names.
  std::optional<domain::VoucherState> status;
  if (const Value* s = Argument(info, "status")) {
    status = domain::ParseVoucherState(s->as_string());
    if (!status) return BadInput("status must be a VoucherStatus");
  }
  std::int64_t after_id = 0;
  if (const Value* after = Argument(info, "after")) {
    // ID input coerces from a string or an integer literal.
    std::optional<std::int64_t> id = domain::ParseVoucherId(
        after->kind() == Value::Kind::kInt ? std::to_string(after->as_int()) : after->as_string());
    if (!id) return BadInput("after must be the id of a voucher");
    after_id = *id;
  }
  Result<std::vector<domain::Voucher>> page =
      domain::ListVouchers(ServiceOf(info).database(), status, first, after_id);
  if (!page.ok()) return InternalError(info, page.status());
  Value::List vouchers;
  vouchers.reserve(page->size());
  for (const domain::Voucher& v : *page) vouchers.push_back(VoucherValue(v));
  return Value::MakeList(std::move(vouchers));
}

ResolverResult ClaimVoucher(const ResolveInfo& info) {
  domain::Outcome<const domain::User*> user = ScopeOf(info).CurrentUser();
  if (const Status* error = user.error()) return InternalError(info, *error);
  if (user.failure()) return MutationRefusal(info, *user.failure(), {"voucher"});
  Service& service = ServiceOf(info);
  domain::Outcome<domain::Voucher> claimed = domain::ClaimVoucher(
      service.database(), service.claim_policy(), *user.value(),
      StringArgument(info, "voucherCode"), StringArgument(info, "walletAddress"));
  NoteChangeUnlessRefused(service, *user.value(), claimed);
  if (const Status* error = claimed.error()) return InternalError(info, *error);
  if (claimed.failure()) return MutationRefusal(info, *claimed.failure(), {"voucher"});
  return Value::MakeObject({
      {"success", Value::Boolean(true)},
      {"error", Value()},
      {"message", Value::String("Voucher claimed to wallet " +
                                claimed->wallet_address.value_or(std::string()) + ".")},
      {"voucher", VoucherValue(claimed.value())},
  });
}

ResolverResult RedeemVoucher(const ResolveInfo& info) {
  domain::Outcome<const domain::User*> user = ScopeOf(info).CurrentUser();
  if (const Status* error = user.error()) return InternalError(info, *error);
  if (user.failure()) return MutationRefusal(info, *user.failure(), {"redemption"});
  Service& service = ServiceOf(info);
  domain::Outcome<domain::Redemption> redeemed = domain::RedeemVouchers(
      service.database(), service.ledger(), *user.value(), StringArgument(info, "walletAddress"),
      StringArgument(info, "confidentialPublicKey"));
  NoteChangeUnlessRefused(service, *user.value(), redeemed);
  if (const Status* error = redeemed.error()) return InternalError(info, *error);
  if (redeemed.failure()) return MutationRefusal(info, *redeemed.failure(), {"redemption"});
  const domain::Redemption& r = redeemed.value();
  return Value::MakeObject({
      {"success", Value::Boolean(true)},
      {"error", Value()},
      {"message", Value::String("Redeemed into the confidential balance of token account " +
                                r.token_account + ".")},
      {"redemption", Value::MakeObject({{"amount", Value::Float(r.amount)},
                                        {"txSignature", Value::String(r.tx_signature)},
                                        {"walletAddress", Value::String(r.wallet_address)},
                                        {"tokenAccount", Value::String(r.token_account)},
                                        {"encryptedAmount", Value::String(r.encrypted_amount)},
                                        {"redeemedAt", DateTime(r.redeemed_at)}})},
  });
}

constexpr std::initializer_list<const char*> kWalletChallengeFields = {"walletAddress", "challenge",
                                                                       "signedBytes", "expiresAt"};

ResolverResult WalletChallenge(const ResolveInfo& info) {
  domain::Outcome<const domain::User*> user = ScopeOf(info).CurrentUser();
  if (const Status* error = user.error()) return InternalError(info, *error);
  if (user.failure()) return MutationRefusal(info, *user.failure(), kWalletChallengeFields);
  Service& service = ServiceOf(info);
  domain::Outcome<domain::WalletChallenge> issued =
      domain::IssueWalletChallenge(service.database(), service.wallet_proof_policy(), *user.value(),
                                   StringArgument(info, "walletAddress"));
  if (const Status* error = issued.error()) return InternalError(info, *error);
  if (issued.failure()) return MutationRefusal(info, *issued.failure(), kWalletChallengeFields);
  const domain::WalletChallenge& c = issued.value();
  return Value::MakeObject({
      {"success", Value::Boolean(true)},
      {"error", Value()},
      {"message", Value::String("Sign the challenge with wallet " + c.wallet_address +
                                " and send the signature to verifyWallet before it expires.")},
      {"walletAddress", Value::String(c.wallet_address)},
      {"challenge", Value::String(c.message)},
      {"signedBytes", Value::String(crypto::Base64Encode(c.signed_bytes))},
      {"expiresAt", DateTime(c.expires_at)},
  });
}

constexpr std::initializer_list<const char*> kVerifyWalletFields = {"walletAddress", "tookOver"};

ResolverResult VerifyWallet(const ResolveInfo& info) {
  domain::Outcome<const domain::User*> user = ScopeOf(info).CurrentUser();
  if (const Status* error = user.error()) return InternalError(info, *error);
  if (user.failure()) return MutationRefusal(info, *user.failure(), kVerifyWalletFields);
  Service& service = ServiceOf(info);
  domain::Outcome<domain::ProvenWallet> proven = domain::VerifyWallet(
      service.database(), service.wallet_proof_policy(), *user.value(),
      StringArgument(info, "walletAddress"), StringArgument(info, "signature"));
  NoteChangeUnlessRefused(service, *user.value(), proven);  // a takeover releases claims
  if (const Status* error = proven.error()) return InternalError(info, *error);
  if (proven.failure()) return MutationRefusal(info, *proven.failure(), kVerifyWalletFields);
  const domain::ProvenWallet& p = proven.value();
  std::string message = "Wallet " + p.wallet_address + " is proven to be yours.";
  if (p.took_over) {
    message += " It was bound to another user without proof; " +
               std::to_string(p.released_vouchers) + " of their claims on it were released" +
               (p.removed_token_account ? " and its confidential token account was reset." : ".");
  }
  return Value::MakeObject({
      {"success", Value::Boolean(true)},
      {"error", Value()},
      {"message", Value::String(std::move(message))},
      {"walletAddress", Value::String(p.wallet_address)},
      {"tookOver", Value::Boolean(p.took_over)},
  });
}

// The source stream of networkUpdated is the Redis channel the outbox relay publishes on; each
// event is one NetworkUpdate message (core/domain/graph_change.h).
ResolverResult SubscribeNetworkUpdated(const ResolveInfo&) {
  return Value::String(std::string(domain::kGraphChannel));
}

// `resolver`, noting its time and its database time in the request's profile (the slow log).
graphql::Resolver Profiled(std::string_view coordinate, graphql::Resolver resolver) {
  return [field = std::string(coordinate.substr(coordinate.find('.') + 1)),
          resolver = std::move(resolver)](const graphql::ResolveInfo& info) {
    if (!telemetry::RequestProfile::Active()) return resolver(info);
    const auto start = std::chrono::steady_clock::now();
    const std::chrono::nanoseconds database_before = telemetry::RequestProfile::DatabaseTime();
    graphql::ResolverResult result = resolver(info);
    telemetry::RequestProfile::AddResolver(
        {field, std::chrono::steady_clock::now() - start,
         telemetry::RequestProfile::DatabaseTime() - database_before});
    return result;
  };
}

}  // namespace

Status BindResolvers(graphql::Engine& engine) {
  const std::pair<const char*, graphql::Resolver> resolvers[] = {
      {"Query.graphdbStatus", GraphdbStatus},    {"Query.networkGraph", NetworkGraph},
      {"Query.investmentData", InvestmentData},  {"Query.getUserPortfolio", GetUserPortfolio},
      {"Query.allVouchers", AllVouchers},        {"Mutation.claimVoucher", ClaimVoucher},
      {"Mutation.redeemVoucher", RedeemVoucher}, {"Mutation.walletChallenge", WalletChallenge},
      {"Mutation.verifyWallet", VerifyWallet},
  };
  for (const auto& [coordinate, resolver] : resolvers) {
    NETGRAPH_RETURN_IF_ERROR(engine.BindResolver(coordinate, Profiled(coordinate, resolver)));
  }
  return engine.BindSubscribe("Subscription.networkUpdated", SubscribeNetworkUpdated);
}

}  // namespace netgraph::api
