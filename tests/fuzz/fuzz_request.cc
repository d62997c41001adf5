// The request path of the service: Prepare + Execute (and Subscribe + ExecuteEvent for
// subscriptions) of arbitrary query text with arbitrary JSON variables, against the service schema
// with in-memory resolvers (no database). Input: the query, then optionally a NUL byte and the
// variables JSON, then optionally a NUL byte and the operation name.
//
// Checked for every input:
//  - every response body is JSON, with "errors" (never empty) first and a "data" key exactly when
//    the result says it has data;
//  - execution is deterministic: the same request on the same engine (its plans now cached) and on
//    an engine that caches nothing gives the same body.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/embedded_file.h"
#include "core/graphql/engine.h"

namespace netgraph::fuzz {
const std::vector<EmbeddedFile>& FuzzSchema();  // generated from core/api/schema.graphql
}  // namespace netgraph::fuzz

namespace {

using netgraph::graphql::Engine;
using netgraph::graphql::EngineOptions;
using netgraph::graphql::ExecuteParams;
using netgraph::graphql::ExecutionResult;
using netgraph::graphql::ResolveInfo;
using netgraph::graphql::ResolverResult;
using netgraph::graphql::Value;

constexpr std::string_view kData = R"({
  "graph": {"nodes": [{"id": "n1", "type": "investor", "labels": ["a", "b"]},
                      {"id": "n2", "type": "token", "labels": []},
                      {"id": "n3", "type": "wallet", "labels": ["\u00e9\ud83d\ude00"]}],
            "links": [{"source": "n1", "target": "n2", "type": "invests"},
                      {"source": "n3", "target": "n2", "type": "holds"}],
            "metadata": {"nodeCount": 3, "linkCount": 2, "lastUpdated": "2026-11-21T09:30:00Z"}},
  "investment": {"tokenName": "Net", "tokenSymbol": "NET", "currentRound": null,
                 "roundRaised": 1.5e6, "roundTarget": 2000000, "investorCount": 42,
                 "currentPrice": 0.25, "marketCap": 1e308},
  "vouchers": [{"id": "1", "code": "NG-1", "amount": 10.5, "status": "CLAIMED", "redeemed": false,
                "walletAddress": "w1", "claimedAt": "2026-11-20T10:00:00Z", "redeemedAt": null,
                "expiresAt": null},
               {"id": "2", "code": "NG-2", "amount": 7, "status": "AVAILABLE", "redeemed": false,
                "walletAddress": null, "claimedAt": null, "redeemedAt": null, "expiresAt": null},
               {"id": "3", "code": "NG-3", "amount": 3, "status": "REDEEMED", "redeemed": true,
                "walletAddress": "w1", "claimedAt": null, "redeemedAt": "2026-11-21T00:00:00Z",
                "expiresAt": null}]
})";

[[noreturn]] void Fail(const std::string& what, const std::string& detail) {
  std::cerr << what << "\n" << detail << "\n";
  std::abort();
}

const Value& Data() {
  static const Value data = Value::FromJson(nlohmann::json::parse(kData));
  return data;
}

const Value* Argument(const ResolveInfo& info, std::string_view name) {
  const Value* value = info.arguments.Find(name);
  return value == nullptr || value->is_null() ? nullptr : value;
}

// Resolvers shaped like core/api/resolvers.cc's, over the in-memory data.
std::unique_ptr<Engine> ServiceEngine(std::size_t cache_capacity) {
  EngineOptions options;
  options.document_cache_capacity = cache_capacity;
  std::vector<netgraph::graphql::Error> errors;
  std::unique_ptr<Engine> engine =
      Engine::Create(netgraph::fuzz::FuzzSchema().front().content, options, &errors);
  if (engine == nullptr) Fail("the service schema does not load", errors.at(0).message);
  auto bind = [&engine](const char* coordinate, netgraph::graphql::Resolver resolver) {
    if (!engine->BindResolver(coordinate, std::move(resolver)).ok()) Fail("bind", coordinate);
  };
  bind("Query.graphdbStatus", [](const ResolveInfo&) -> ResolverResult {
    return Value::MakeObject(
        {{"connected", Value::Boolean(true)}, {"version", Value::String("15")}});
  });
  bind("Query.networkGraph", [](const ResolveInfo& info) -> ResolverResult {
    const Value* limit = Argument(info, "limit");
    if (limit != nullptr && (limit->as_int() < 1 || limit->as_int() > 1000)) {
      return ResolverResult::Error("limit must be between 1 and 1000", "BAD_USER_INPUT");
    }
    return *Data().Find("graph");
  });
  bind("Query.investmentData",
       [](const ResolveInfo&) -> ResolverResult { return *Data().Find("investment"); });
  bind("Query.getUserPortfolio", [](const ResolveInfo& info) -> ResolverResult {
    if (info.context == nullptr) {
      return Value::MakeObject({{"success", Value::Boolean(false)},
                                {"error", Value::String("AUTHENTICATION_REQUIRED")},
                                {"data", Value()}});
    }
    return Value();
  });
  bind("Query.allVouchers", [](const ResolveInfo& info) -> ResolverResult {
    const Value* first = Argument(info, "first");
    const Value* status = Argument(info, "status");
    if (first != nullptr && (first->as_int() < 1 || first->as_int() > 500)) {
      return ResolverResult::Error("first must be between 1 and 500", "BAD_USER_INPUT");
    }
    Value::List page;
    for (const Value& voucher : Data().Find("vouchers")->as_list()) {
      if (status != nullptr && *voucher.Find("status") != *status) continue;
      if (first != nullptr && static_cast<std::int64_t>(page.size()) >= first->as_int()) break;
      page.push_back(voucher);
    }
    return Value::MakeList(std::move(page));
  });
  bind("Mutation.claimVoucher", [](const ResolveInfo& info) -> ResolverResult {
    const Value* wallet = Argument(info, "walletAddress");
    return Value::MakeObject(
        {{"success", Value::Boolean(true)},
         {"error", Value()},
         {"message", Value::String("Voucher claimed to wallet " +
                                   (wallet != nullptr ? wallet->as_string() : "") + ".")},
         {"voucher", Data().Find("vouchers")->as_list()[0]}});
  });
  bind("Mutation.redeemVoucher", [](const ResolveInfo&) {
    return ResolverResult::Error("Internal server error", "INTERNAL_SERVER_ERROR");
  });
  if (!engine
           ->BindSubscribe(
               "Subscription.networkUpdated",
               [](const ResolveInfo&) -> ResolverResult { return Value::String("netgraph:graph"); })
           .ok()) {
    Fail("bind", "Subscription.networkUpdated");
  }
  return engine;
}

// The checks every body must pass.
void CheckBody(const ExecutionResult& result, const std::string& request) {
  nlohmann::json body = nlohmann::json::parse(result.Body(), nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || !body.is_object())
    Fail("a body that is not a JSON object", result.Body());
  if (body.contains("data") != result.has_data)
    Fail("has_data disagrees with the body", result.Body());
  if (body.contains("errors")) {
    if (!body["errors"].is_array() || body["errors"].empty())
      Fail("an empty errors list", result.Body());
    if (!result.Body().starts_with("{\"errors\":")) Fail("errors are not first", result.Body());
  } else if (!result.has_data) {
    Fail("a request error without errors", result.Body() + "\n" + request);
  }
}

// Runs the request on `engine` (Subscribe + one event for a subscription).
std::string Run(Engine& engine, const std::string& query, const nlohmann::json* variables,
                const std::optional<std::string>& operation_name, const std::string& request) {
  ExecuteParams params;
  params.variables = variables;
  if (operation_name) params.operation_name = *operation_name;
  std::shared_ptr<const netgraph::graphql::PreparedDocument> document = engine.Prepare(query);
  if (document->valid() && document->OperationTypeFor(params.operation_name) ==
                               netgraph::graphql::OperationType::kSubscription) {
    ExecutionResult error;
    std::unique_ptr<netgraph::graphql::Subscription> subscription =
        engine.Subscribe(document, params, &error);
    if (subscription == nullptr) {
      CheckBody(error, request);
      return error.Body();
    }
    ExecutionResult event = engine.ExecuteEvent(*subscription, *Data().Find("graph"), nullptr);
    CheckBody(event, request);
    return event.Body();
  }
  ExecutionResult result = engine.Execute(*document, params);
  CheckBody(result, request);
  return result.Body();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static std::unique_ptr<Engine> cached = ServiceEngine(16);
  static std::unique_ptr<Engine> uncached = ServiceEngine(0);

  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::size_t first_nul = input.find('\0');
  const std::string query = input.substr(0, first_nul);
  std::string variables_text;
  std::optional<std::string> operation_name;
  if (first_nul != std::string::npos) {
    const std::size_t second_nul = input.find('\0', first_nul + 1);
    variables_text = input.substr(first_nul + 1, second_nul - first_nul - 1);
    if (second_nul != std::string::npos) operation_name = input.substr(second_nul + 1);
  }
  // As the HTTP adapter: variables are a JSON object nested at most 64 deep, or absent.
  nlohmann::json variables;
  std::size_t depth = 0;
  std::size_t max_depth = 0;
  for (char c : variables_text) {
    if (c == '[' || c == '{') max_depth = std::max(max_depth, ++depth);
    if ((c == ']' || c == '}') && depth > 0) --depth;
  }
  if (max_depth <= 64) {
    variables = nlohmann::json::parse(variables_text, nullptr, /*allow_exceptions=*/false);
  }
  const nlohmann::json* variables_pointer = variables.is_object() ? &variables : nullptr;

  const std::string first = Run(*cached, query, variables_pointer, operation_name, input);
  const std::string again = Run(*cached, query, variables_pointer, operation_name, input);
  const std::string fresh = Run(*uncached, query, variables_pointer, operation_name, input);
  if (first != again || first != fresh) {
    Fail("execution is not deterministic", query + "\n" + first + "\n" + again + "\n" + fresh);
  }
  return 0;
}
