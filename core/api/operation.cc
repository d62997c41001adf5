#include "core/api/operation.h"

#include <nlohmann/json.hpp>

#include <utility>

#include "core/api/answer_key.h"

namespace netgraph::api {
namespace {

// extensions.code of each error in `errors` (the engine's serialised list) that carries one.
std::vector<std::string> ErrorCodes(const std::string& errors) {
  std::vector<std::string> codes;
  if (errors.empty()) return codes;
  nlohmann::json list = nlohmann::json::parse(errors, nullptr, false);
  if (!list.is_array()) return codes;
  for (const nlohmann::json& error : list) {
    auto extensions = error.find("extensions");
    if (extensions == error.end() || !extensions->is_object()) continue;
    auto code = extensions->find("code");
    if (code != extensions->end() && code->is_string()) codes.push_back(code->get<std::string>());
  }
  return codes;
}

}  // namespace

OperationRun RunOperation(Service& service, const OperationRequest& request,
                          std::string_view authorization, const OperationOptions& options) {
  OperationRun run;
  graphql::Engine& engine = service.engine();
  const auto prepare_start = std::chrono::steady_clock::now();
  run.document = engine.Prepare(request.query);
  std::optional<std::string_view> operation_name;
  if (request.operation_name) operation_name = *request.operation_name;
  run.operation = run.document->Describe(operation_name);
  run.prepare = std::chrono::steady_clock::now() - prepare_start;
  if (options.on_prepared) options.on_prepared(run);
  if (options.queries_only && run.document->valid() &&
      run.document->OperationTypeFor(operation_name) == graphql::OperationType::kMutation) {
    run.mutation_refused = true;
    return run;
  }

  run.scope = service.NewRequest(authorization);
  graphql::ExecuteParams execute;
  execute.operation_name = operation_name;
  execute.variables = request.variables.is_null() ? nullptr : &request.variables;
  execute.context = run.scope.get();
  execute.subscription_refusal = options.subscription_refusal;
  const auto execute_start = std::chrono::steady_clock::now();
  graphql::ExecutionResult result;
  // An anonymous query of public reads only: its whole answer, as bytes, is kept in the read cache
  // beside the answers of its fields and is valid exactly as long as they are (read_cache.h), so a
  // repeated public read skips execution and serialisation too. Answers with errors are not kept.
  std::optional<std::string> answer_key;
  if (authorization.empty() && service.read_cache().enabled() && run.operation.has_value() &&
      Service::AnsweredFromReadCache(*run.operation)) {
    answer_key = AnswerKey(engine, *run.document, request);
  }
  if (answer_key) {
    Result<graphql::Value> kept = service.read_cache().Get(
        *answer_key, ReadCache::Clock::now(), [&]() -> Result<ReadCache::Fresh> {
          result = engine.Execute(*run.document, execute);
          if (!result.has_data || !result.errors.empty()) {
            return Status::FailedPrecondition("an answer with errors is not kept");
          }
          return ReadCache::Fresh{graphql::Value::String(result.Body()), std::nullopt};
        });
    if (kept.ok()) {
      run.body = kept->as_string();
      result.has_data = true;
    }
  } else {
    result = engine.Execute(*run.document, execute);
  }
  run.execute = std::chrono::steady_clock::now() - execute_start;
  if (run.body.empty()) run.body = result.Body();
  run.has_data = result.has_data;
  run.has_errors = !result.errors.empty();
  run.error_codes = ErrorCodes(result.errors);
  run.failure = run.scope->failure();
  return run;
}

}  // namespace netgraph::api
