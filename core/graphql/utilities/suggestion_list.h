// "Did you mean ...?" hints, worded and ranked as graphql-js ranks them (its suggestionList and
// didYouMean): options within a lexical distance of 40% of the input's length, closest first,
// ties in natural order ("a2" before "a10"), at most five shown.
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_SUGGESTION_LIST_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_SUGGESTION_LIST_H_

#include <string>
#include <string_view>
#include <vector>

namespace netgraph::graphql {

// The options close to `input`, best first.
std::vector<std::string_view> SuggestionList(std::string_view input,
                                             const std::vector<std::string_view>& options);

// " Did you mean \"a\", \"b\", or \"c\"?" ("" without suggestions). `sub_message`, when not
// empty, follows "Did you mean" (graphql-js uses "the enum value").
std::string DidYouMean(const std::vector<std::string_view>& suggestions,
                       std::string_view sub_message = {});

// Removes the hint DidYouMean appended to `message`, if any: with introspection off the hints
// would name what the schema holds (graphql-js's hideSuggestions option does the same).
void StripSuggestions(std::string* message);

// graphql-js's naturalCompare: negative, zero or positive.
int NaturalCompare(std::string_view a, std::string_view b);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_SUGGESTION_LIST_H_
