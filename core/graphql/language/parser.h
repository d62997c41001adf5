// The GraphQL parser: source text to ast::Document, for executable documents and for SDL alike
// (as graphql-js's parse()). Syntax errors carry graphql-js's message ("Syntax Error: Expected
// Name, found <EOF>.") and location.
//
// Protective limits hold while parsing, so hostile input fails fast with an error instead of
// exhausting the stack or memory:
//  - max_tokens: graphql-js's maxTokens ("Document contains more than N tokens. Parsing
//    aborted.");
//  - max_depth: nesting of selection sets, list and object values and list types (recursion
//    depth of the parser, and so of any recursive walk over the tree);
//  - list types nest at most TypeRef's limit (63) so that every parsed type has a TypeRef.
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_PARSER_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_PARSER_H_

#include <cstddef>
#include <memory>
#include <string>

#include "core/graphql/error/error.h"
#include "core/graphql/language/ast.h"

namespace netgraph::graphql {

struct ParseOptions {
  std::size_t max_tokens = 0;  // 0: no limit
  std::size_t max_depth = 256;
  // List types nest at most this deep (TypeRef cannot represent more).
  static constexpr std::size_t kMaxListTypeDepth = 63;
};

// Parses `source` (the document takes ownership of it). On a syntax error returns nullptr and
// sets *error (message and one location). Sources of 4 GiB or more are refused.
std::unique_ptr<const ast::Document> Parse(std::string source, const ParseOptions& options,
                                           Error* error);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_PARSER_H_
