// Turns a byte offset in a GraphQL source into the 1-based line and column that graphql-js
// reports: lines end at "\r\n", "\n" or "\r"; columns count UTF-16 code units, as JavaScript
// string indices do, so an emoji counts two columns and "é" one.
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_SOURCE_LOCATION_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_SOURCE_LOCATION_H_

#include <cstdint>
#include <string_view>
#include <vector>

namespace netgraph::graphql {

// Where in a source an error points (graphql-js's SourceLocation).
struct SourceLocation {
  int line = 0;    // 1-based
  int column = 0;  // 1-based, in UTF-16 code units, as graphql-js counts them
};

// One lookup: scans the source from the start. For many lookups in one source use LineIndex.
SourceLocation LocateOffset(std::string_view source, std::uint32_t offset);

// The line terminators of a source, for repeated lookups (a binary search, then a scan of one
// line).
class LineIndex {
 public:
  // `source` must outlive the index.
  explicit LineIndex(std::string_view source);
  SourceLocation Locate(std::uint32_t offset) const;

 private:
  std::string_view source_;
  struct Terminator {
    std::uint32_t offset;     // where the terminator begins
    std::uint32_t next_line;  // where the line after it begins
  };
  std::vector<Terminator> terminators_;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_SOURCE_LOCATION_H_
