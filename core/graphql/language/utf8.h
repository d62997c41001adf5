// UTF-8 helpers for the GraphQL language layer. GraphQL source is UTF-8 here, while graphql-js
// reads JavaScript strings (UTF-16): these helpers let the lexer and the error locations count
// characters the way graphql-js does. A malformed sequence reads as U+FFFD per "maximal subpart"
// (what a WHATWG decoder in front of graphql-js would have produced).
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_UTF8_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_UTF8_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace netgraph::graphql::utf8 {

inline constexpr char32_t kReplacementCharacter = 0xFFFD;

struct Decoded {
  char32_t code_point;  // U+FFFD for a malformed sequence
  std::uint8_t length;  // bytes consumed, at least 1
  bool well_formed;
};

// Decodes the character starting at `p`; requires p < end.
Decoded Decode(const char* p, const char* end);

// Appends the UTF-8 encoding of `code_point` (a Unicode scalar value).
void Append(char32_t code_point, std::string* out);
// Writes the UTF-8 encoding of `code_point` to `out` (room for 4 bytes); returns the byte count.
int Encode(char32_t code_point, char* out);

// UTF-16 code units of one character: 2 above U+FFFF, as a JavaScript string would hold it.
inline int Utf16Units(char32_t code_point) { return code_point > 0xFFFF ? 2 : 1; }

// Length of `text` in UTF-16 code units (JavaScript's String length).
std::size_t Utf16Length(std::string_view text);

// The prefix of `text` that holds `units` UTF-16 code units (JavaScript's slice(0, units)); a
// character split by the limit is kept whole.
std::string_view Utf16Prefix(std::string_view text, std::size_t units);

}  // namespace netgraph::graphql::utf8

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_UTF8_H_
