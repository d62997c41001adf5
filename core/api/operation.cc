#include "core/api/operation.h"

#include <utility>

#include "core/api/answer_key.h"
#include "core/api/persisted_documents.h"
#include "core/api/service.h"

namespace netgraph::api {
namespace {

// What the engine runs `request` with, in `context`.
graphql::ExecuteParams ExecuteParamsFor(const OperationRequest& request,
                                        graphql::RequestContext* context) {
  graphql::ExecuteParams params;
  if (request.operation_name) params.operation_name = *request.operation_name;
  params.variables = request.variables.is_null() ? nullptr : &request.variables;
  params.context = context;
  return params;
}

}  // namespace

OperationRun RunOperation(Service& service, OperationRequest request, const Caller& caller,
                          const OperationOptions& options) {
  OperationRun run;
  graphql::Engine& engine = service.engine();
  const auto prepare_start = std::chrono::steady_clock::now();
  PersistedLookup persisted = service.persisted_documents().Resolve(&service.database(), request);
  if (persisted.refusal) {
    run.persisted_refusal = true;
    run.result = std::move(*persisted.refusal);
    run.prepare = std::chrono::steady_clock::now() - prepare_start;
    return run;
  }
  run.document = options.document != nullptr ? options.document : engine.Prepare(request.query);
  if (!persisted.to_register.empty() && run.document->valid()) {
    service.persisted_documents().Register(service.database(), persisted.to_register,
                                           request.query);
  }
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

  RequestScope* scope = caller.scope();
  if (scope == nullptr) {
    run.scope = service.NewRequest(caller.authorization());
    scope = run.scope.get();
  }
  graphql::ExecuteParams execute = ExecuteParamsFor(request, scope);
  execute.subscription_refusal = options.subscription_refusal;
  const auto execute_start = std::chrono::steady_clock::now();
  // An anonymous query of public reads only: its whole answer is kept in the read cache beside
  // the answers of its fields and is valid exactly as long as they are (read_cache.h), so a
  // repeated public read skips execution and serialisation too. Answers with errors are not
  // kept, so the data is the whole answer.
  std::optional<std::string> answer_key;
  if (scope->credentials() == Credentials::kNone && service.read_cache().enabled() &&
      run.operation.has_value() && Service::AnsweredFromReadCache(*run.operation)) {
    answer_key = AnswerKey(engine, *run.document, request);
  }
  if (answer_key) {
    const ReadCache::Clock::time_point now = ReadCache::Clock::now();
    if (options.holds) {
      if (std::optional<std::string> digest = service.read_cache().Peek(*answer_key, now);
          digest && options.holds(*digest)) {
        kReadCacheHits.Add();
        run.digest = std::move(*digest);
        run.not_modified = true;
        run.result.has_data = true;
        run.execute = std::chrono::steady_clock::now() - execute_start;
        return run;
      }
    }
    bool executed = false;
    std::string digest;
    Result<graphql::Value> kept = service.read_cache().Get(
        *answer_key, now,
        [&]() -> Result<ReadCache::Fresh> {
          run.result = engine.Execute(*run.document, execute);
          executed = true;
          if (!run.result.has_data || !run.result.errors.empty()) {
            return Status::FailedPrecondition("an answer with errors is not kept");
          }
          return ReadCache::Fresh{graphql::Value::String(run.result.data), std::nullopt,
                                  AnswerDigest(run.result.data)};
        },
        &digest);
    if (kept.ok()) {
      if (!executed) run.result = graphql::ExecutionResult{true, kept->as_string(), {}};
      run.digest = std::move(digest);
    }
  } else {
    run.result = engine.Execute(*run.document, execute);
  }
  run.execute = std::chrono::steady_clock::now() - execute_start;
  run.failure = scope->failure();
  return run;
}

std::unique_ptr<graphql::Subscription> Subscribe(
    Service& service, std::shared_ptr<const graphql::PreparedDocument> document,
    const OperationRequest& request, RequestScope& scope, graphql::ExecutionResult* request_error) {
  return service.engine().Subscribe(std::move(document), ExecuteParamsFor(request, &scope),
                                    request_error);
}

}  // namespace netgraph::api
