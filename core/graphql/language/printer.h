// Prints AST nodes back to GraphQL source exactly as graphql-js's print() does (its layout:
// two-space indentation, arguments wrapped past 80 columns, block strings kept as blocks), and
// string values as graphql-js's printString().
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_PRINTER_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_PRINTER_H_

#include <string>
#include <string_view>

#include "core/graphql/language/ast.h"

namespace netgraph::graphql {

// Any node: a value literal ("[1, \"a\"]"), a type ("[Int!]"), a definition...
std::string Print(const ast::Node& node);
// A whole document: definitions separated by blank lines.
std::string Print(const ast::Document& document);

// `value` as a quoted GraphQL string literal, escaping `"`, `\`, and control characters
// (U+0000-U+001F, U+007F-U+009F).
std::string PrintString(std::string_view value);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_PRINTER_H_
