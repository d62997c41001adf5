#include "core/api/operation_request.h"

#include <utility>

namespace netgraph::api {

Result<OperationRequest> OperationRequest::FromJson(nlohmann::json body) {
  if (!body.is_object()) return Status::InvalidArgument("JSON body must be an object");
  OperationRequest request;
  auto query = body.find("query");
  if (query == body.end() || query->is_null()) return Status::InvalidArgument("Missing query");
  if (!query->is_string()) {
    return Status::InvalidArgument("The \"query\" parameter must be a string");
  }
  request.query = std::move(query->get_ref<std::string&>());
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
  if (auto extensions = body.find("extensions");
      extensions != body.end() && !extensions->is_null() && !extensions->is_object()) {
    return Status::InvalidArgument("The \"extensions\" parameter must be a JSON object");
  }
  return request;
}

}  // namespace netgraph::api
