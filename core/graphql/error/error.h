// An error as a GraphQL response shows it (graphql-js's GraphQLError): every layer of the engine
// reports with it, from a syntax error in the lexer to a field error in execution. It lives in
// error/, below all of them, so that no layer includes the facade (engine.h) or a layer above it
// to report an error.
#ifndef NETGRAPH_CORE_GRAPHQL_ERROR_ERROR_H_
#define NETGRAPH_CORE_GRAPHQL_ERROR_ERROR_H_

#include <string>
#include <vector>

#include "core/graphql/language/source_location.h"
#include "core/graphql/utilities/value.h"

namespace netgraph::graphql {

// `path` holds response keys (strings) and list indices (ints).
struct Error {
  std::string message;
  std::vector<SourceLocation> locations;
  Value path;        // null or a List
  Value extensions;  // null or an Object
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_ERROR_ERROR_H_
