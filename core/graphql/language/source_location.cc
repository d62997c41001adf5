#include "core/graphql/language/source_location.h"

#include <algorithm>

#include "core/graphql/language/utf8.h"

namespace netgraph::graphql {

namespace {

// Calls `on_terminator(offset, next_line)` for every line terminator that begins before `limit`,
// the way graphql-js's getLocation counts them.
template <typename Callback>
void ForEachTerminator(std::string_view source, std::size_t limit, Callback on_terminator) {
  for (std::size_t i = 0; i < source.size() && i < limit; ++i) {
    char c = source[i];
    if (c == '\n') {
      on_terminator(i, i + 1);
    } else if (c == '\r') {
      std::size_t next = (i + 1 < source.size() && source[i + 1] == '\n') ? i + 2 : i + 1;
      on_terminator(i, next);
      i = next - 1;
    }
  }
}

SourceLocation ColumnFrom(std::string_view source, int line, std::size_t line_start,
                          std::size_t offset) {
  offset = std::min(offset, source.size());
  if (line_start > offset) return {line, 0};  // between "\r" and "\n", as graphql-js would say
  std::size_t units = utf8::Utf16Length(source.substr(line_start, offset - line_start));
  return {line, static_cast<int>(units) + 1};
}

}  // namespace

SourceLocation LocateOffset(std::string_view source, std::uint32_t offset) {
  int line = 1;
  std::size_t line_start = 0;
  ForEachTerminator(source, offset, [&](std::size_t, std::size_t next_line) {
    ++line;
    line_start = next_line;
  });
  return ColumnFrom(source, line, line_start, offset);
}

LineIndex::LineIndex(std::string_view source) : source_(source) {
  ForEachTerminator(source, source.size(), [&](std::size_t offset, std::size_t next_line) {
    terminators_.push_back(
        {static_cast<std::uint32_t>(offset), static_cast<std::uint32_t>(next_line)});
  });
}

SourceLocation LineIndex::Locate(std::uint32_t offset) const {
  // Terminators that begin before `offset` end the lines above it.
  auto after = std::lower_bound(
      terminators_.begin(), terminators_.end(), offset,
      [](const Terminator& terminator, std::uint32_t value) { return terminator.offset < value; });
  auto count = static_cast<std::size_t>(after - terminators_.begin());
  std::size_t line_start = count == 0 ? 0 : terminators_[count - 1].next_line;
  return ColumnFrom(source_, static_cast<int>(count) + 1, line_start, offset);
}

}  // namespace netgraph::graphql
