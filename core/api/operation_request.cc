#include "core/api/operation_request.h"

#include <utility>

#include "core/api/trusted_documents.h"

namespace netgraph::api {

namespace {

// The sha256Hash of `extensions`' persistedQuery, nullopt when there is none.
Result<std::optional<std::string>> PersistedHash(nlohmann::json& extensions) {
  auto persisted = extensions.find("persistedQuery");
  if (persisted == extensions.end() || persisted->is_null()) return std::optional<std::string>();
  if (!persisted->is_object()) {
    return Status::InvalidArgument("The \"persistedQuery\" extension must be a JSON object");
  }
  auto version = persisted->find("version");
  if (version == persisted->end() || !version->is_number_integer() || *version != 1) {
    return Status::InvalidArgument(
        "Unsupported persistedQuery version: this server supports version 1");
  }
  auto hash = persisted->find("sha256Hash");
  if (hash == persisted->end() || !hash->is_string() ||
      !IsDocumentHash(hash->get_ref<const std::string&>())) {
    return Status::InvalidArgument(
        "The persistedQuery's \"sha256Hash\" must be a SHA-256 in 64 lower-case hex digits");
  }
  return std::optional<std::string>(std::move(hash->get_ref<std::string&>()));
}

}  // namespace

Result<OperationRequest> OperationRequest::FromJson(nlohmann::json body) {
  if (!body.is_object()) return Status::InvalidArgument("JSON body must be an object");
  OperationRequest request;
  if (auto extensions = body.find("extensions");
      extensions != body.end() && !extensions->is_null()) {
    if (!extensions->is_object()) {
      return Status::InvalidArgument("The \"extensions\" parameter must be a JSON object");
    }
    NETGRAPH_ASSIGN_OR_RETURN(request.persisted_hash, PersistedHash(*extensions));
  }
  auto query = body.find("query");
  if (query == body.end() || query->is_null()) {
    if (!request.persisted_hash) return Status::InvalidArgument("Missing query");
  } else if (!query->is_string()) {
    return Status::InvalidArgument("The \"query\" parameter must be a string");
  } else {
    request.query = std::move(query->get_ref<std::string&>());
    if (request.persisted_hash && DocumentHash(request.query) != *request.persisted_hash) {
      return Status::InvalidArgument(
          "The persistedQuery's \"sha256Hash\" is not the SHA-256 of the query");
    }
  }
  if (auto name = body.find("operationName"); name != body.end() && !name->is_null()) {
    if (!name->is_string()) {
      return Status::InvalidArgument("The \"operationName\" parameter must be a string");
    }
    request.operation_name = std::move(name->get_ref<std::string&>());
  }
  if (auto variables = body.find("variables"); variables != body.end() && !variables->is_null()) {
    if (!variables->is_object()) {
      return Status::InvalidArgument("The \"variables\" parameter must be a JSON object");
    }
    request.variables = std::move(*variables);
  }
  return request;
}

}  // namespace netgraph::api
