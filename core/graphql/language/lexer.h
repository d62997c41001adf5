// The GraphQL lexer: turns source text into tokens, one at a time, with graphql-js's error
// messages (September 2025 grammar: `&`, block strings, `\u{...}` escapes, surrogate pairs, the
// lookahead rules for numbers). Source is UTF-8; a malformed byte sequence reads as U+FFFD.
//
// No heap allocation per token: values are views into the source, or into `arena` for strings
// that need unescaping and for block strings (graphql-js's dedented BlockStringValue).
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_LEXER_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_LEXER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/graphql/language/arena.h"
#include "core/graphql/language/token.h"

namespace netgraph::graphql {

class Lexer {
 public:
  // `source` and `arena` must outlive the lexer and every token it returns. Offsets are 32-bit:
  // the source must be shorter than 4 GiB.
  Lexer(std::string_view source, Arena* arena) : source_(source), arena_(arena) {}

  // Reads the next token, comments included; at the end it returns <EOF> again and again.
  // Returns false on a lexical error, described by error_message() (graphql-js's text without
  // the "Syntax Error: " prefix) at error_offset().
  bool Next(Token* token);

  const std::string& error_message() const { return error_message_; }
  std::uint32_t error_offset() const { return error_offset_; }

 private:
  struct Escape {
    char32_t code_point;
    std::uint32_t size;  // bytes of the escape sequence in the source
  };

  // Each reader fills in *token, or throws after setting the error.
  void Read(Token* token);
  void ReadComment(std::uint32_t start, Token* token);
  void ReadNumber(std::uint32_t start, Token* token);
  std::uint32_t ReadDigits(std::uint32_t position);
  void ReadName(std::uint32_t start, Token* token);
  void ReadString(std::uint32_t start, Token* token);
  void ReadBlockString(std::uint32_t start, Token* token);
  Escape ReadEscape(std::uint32_t position) const;
  Escape ReadVariableWidthEscape(std::uint32_t position) const;
  Escape ReadFixedWidthEscape(std::uint32_t position) const;

  // Byte at `position`, or -1 past the end (JavaScript's charCodeAt gives NaN there).
  int At(std::uint32_t position) const {
    return position < source_.size() ? static_cast<unsigned char>(source_[position]) : -1;
  }
  // graphql-js's printCodePointAt: "\"a\"", "'\"'", "U+00E9" or "<EOF>".
  std::string DescribeCharacterAt(std::uint32_t position) const;
  [[noreturn]] void Fail(std::uint32_t position, std::string message) const;

  std::string_view source_;
  Arena* arena_;
  std::uint32_t position_ = 0;
  mutable std::string error_message_;
  mutable std::uint32_t error_offset_ = 0;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_LEXER_H_
