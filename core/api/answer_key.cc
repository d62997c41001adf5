#include "core/api/answer_key.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <span>

#include "core/crypto/digest.h"
#include "core/crypto/hex.h"

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

std::string AnswerDigest(std::string_view data) {
  const crypto::Bytes32 sha256 =
      crypto::Sha256(std::span(reinterpret_cast<const std::uint8_t*>(data.data()), data.size()));
  // 128 bits: a collision would need 2^64 answers.
  return crypto::HexEncode(std::span(sha256.data(), 16));
}

}  // namespace netgraph::api
