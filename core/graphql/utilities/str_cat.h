// Error messages are built from many pieces; StrCat joins them in one allocation. (It also avoids
// `"literal" + std::string`, which GCC 12 wrongly warns about at -O2: its bug 105329.)
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_STR_CAT_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_STR_CAT_H_

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>

namespace netgraph::graphql {

inline std::string StrCat(std::initializer_list<std::string_view> pieces) {
  std::size_t size = 0;
  for (std::string_view piece : pieces) size += piece.size();
  std::string result;
  result.reserve(size);
  for (std::string_view piece : pieces) result += piece;
  return result;
}

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_STR_CAT_H_
