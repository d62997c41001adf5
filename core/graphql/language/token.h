// The lexical tokens of the GraphQL language (September 2025 edition).
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_TOKEN_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_TOKEN_H_

#include <cstdint>
#include <string_view>

namespace netgraph::graphql {

enum class TokenKind : std::uint8_t {
  kStartOfFile,
  kEndOfFile,
  kBang,      // !
  kDollar,    // $
  kAmp,       // &
  kParenL,    // (
  kParenR,    // )
  kSpread,    // ...
  kColon,     // :
  kEquals,    // =
  kAt,        // @
  kBracketL,  // [
  kBracketR,  // ]
  kBraceL,    // {
  kPipe,      // |
  kBraceR,    // }
  kName,
  kInt,
  kFloat,
  kString,
  kBlockString,
  kComment,
};

// A token is a view: `value` points into the source (names, numbers, comments, strings without
// escapes) or into the arena of the document being parsed (strings that needed unescaping, block
// strings after dedent). Punctuators, <SOF> and <EOF> have an empty value.
struct Token {
  TokenKind kind = TokenKind::kStartOfFile;
  std::uint32_t start = 0;  // byte offset of the first character
  std::uint32_t end = 0;    // byte offset just past the last character
  std::string_view value;
};

// How graphql-js names a token kind in messages: "Name", "<EOF>", "\"{\"" (punctuators quoted).
std::string_view TokenKindDescription(TokenKind kind);

// True for the kinds whose token carries a value (graphql-js's `token.value !== undefined`).
inline bool TokenHasValue(TokenKind kind) { return kind >= TokenKind::kName; }

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_TOKEN_H_
