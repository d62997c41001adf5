#include "core/api/answer_key.h"

#include <nlohmann/json.hpp>

namespace netgraph::api {

std::optional<std::string> AnswerKey(graphql::Engine& engine,
                                     const graphql::PreparedDocument& document,
                                     const OperationRequest& request) {
  // The text alone may already be too long: then nothing more is looked at.
  if (request.query.size() > kMaxAnswerKeyBytes) return std::nullopt;
  graphql::ExecuteParams params;
  if (request.operation_name) params.operation_name = *request.operation_name;
  params.variables = request.variables.is_null() ? nullptr : &request.variables;
  std::optional<graphql::Value> variables = engine.CoerceVariables(document, params);
  if (!variables) return std::nullopt;
  std::string key = "answer\n";
  key += request.query;
  key += request.operation_name ? "\n+" + *request.operation_name : std::string("\n-");
  key += '\n';
  key += variables->ToJson().dump();
  if (key.size() > kMaxAnswerKeyBytes) return std::nullopt;
  return key;
}

}  // namespace netgraph::api
