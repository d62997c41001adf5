// Block strings ("""...""") as graphql-js reads and prints them: the spec's BlockStringValue()
// (common indentation removed, blank first and last lines dropped) and the printer's choice of
// layout.
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_BLOCK_STRING_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_BLOCK_STRING_H_

#include <string>
#include <string_view>

#include "core/graphql/language/arena.h"

namespace netgraph::graphql {

// The value of a block string whose raw text between the triple quotes is `raw`: lines dedented
// and joined with "\n", `\"""` unescaped, malformed UTF-8 replaced by U+FFFD. The result lives in
// `arena` (or is empty).
std::string_view BlockStringValue(std::string_view raw, Arena* arena);

// Whether `value` survives a print as a block string and a re-read unchanged.
bool IsPrintableAsBlockString(std::string_view value);

// `value` printed as a block string, with graphql-js's layout (leading and trailing newlines when
// they help readability; none when `minimize`).
std::string PrintBlockString(std::string_view value, bool minimize = false);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_BLOCK_STRING_H_
