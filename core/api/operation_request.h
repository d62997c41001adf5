// One GraphQL operation as a client asks for it: the query text, the operation name and the
// variables, checked for type (GraphQL over HTTP's request parameters; JSON null counts as absent).
// Parsed once, here, whatever transport carried it (fcgi/http/graphql_http.cc: a POST body or GET's
// parameters as that JSON; ws/session.cc: a subscribe or start payload).
//
// A persisted query (Apollo's automatic persisted queries: extensions.persistedQuery is
// {"version": 1, "sha256Hash": "<64 lower-case hex digits>"}) may come without its query: the
// document is then looked up by its hash (core/api/persisted_documents.h). With both, the hash must
// be the SHA-256 of the query's text.
#ifndef NETGRAPH_CORE_API_OPERATION_REQUEST_H_
#define NETGRAPH_CORE_API_OPERATION_REQUEST_H_

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace netgraph::api {

struct OperationRequest {
  std::string query;
  std::optional<std::string> operation_name;
  nlohmann::json variables;  // null or an object
  // extensions.persistedQuery.sha256Hash; `query` is empty when the request carried only the hash.
  std::optional<std::string> persisted_hash;

  // The request `body` (a JSON object) carries, its members moved out; InvalidArgument with the
  // message a client is answered (400 over HTTP) when a parameter is missing or of the wrong type.
  // `extensions`, when present, must be an object; only its persistedQuery is read: an unknown
  // version, a malformed hash or a hash that is not the query's is InvalidArgument too.
  static Result<OperationRequest> FromJson(nlohmann::json body);
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_OPERATION_REQUEST_H_
