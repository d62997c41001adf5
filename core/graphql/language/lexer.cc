#include "core/graphql/language/lexer.h"

#include <array>
#include <cstdio>
#include <utility>

#include "core/graphql/language/block_string.h"
#include "core/graphql/language/utf8.h"

namespace netgraph::graphql {

namespace {

// Thrown inside the lexer only; Next() turns it into a false return.
struct LexFailure {};

// Tab, space, comma and the line terminators: skipped between tokens (with the byte order mark).
constexpr auto kIgnoredBytes = [] {
  std::array<bool, 256> table{};
  for (unsigned char c : {'\t', ' ', ',', '\n', '\r'}) table[c] = true;
  return table;
}();

bool IsDigit(int c) { return c >= '0' && c <= '9'; }
bool IsLetter(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsNameStart(int c) { return IsLetter(c) || c == '_'; }
bool IsNameContinue(int c) { return IsLetter(c) || IsDigit(c) || c == '_'; }

int HexValue(int c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

bool IsUnicodeScalarValue(std::int64_t code) {
  return (code >= 0 && code <= 0xD7FF) || (code >= 0xE000 && code <= 0x10FFFF);
}
bool IsLeadingSurrogate(std::int64_t code) { return code >= 0xD800 && code <= 0xDBFF; }
bool IsTrailingSurrogate(std::int64_t code) { return code >= 0xDC00 && code <= 0xDFFF; }

// The UTF-8 byte order mark, U+FEFF.
bool IsByteOrderMark(std::string_view source, std::uint32_t position) {
  return source.size() - position >= 3 && source[position] == '\xEF' &&
         source[position + 1] == '\xBB' && source[position + 2] == '\xBF';
}

// Fills `token` field by field (a whole-struct copy here costs a store-forwarding stall).
void Emit(Token* token, TokenKind kind, std::uint32_t start, std::uint32_t end,
          std::string_view value = {}) {
  token->kind = kind;
  token->start = start;
  token->end = end;
  token->value = value;
}

}  // namespace

bool Lexer::Next(Token* token) {
  try {
    Read(token);
    position_ = token->end;
    return true;
  } catch (const LexFailure&) {
    return false;
  }
}

void Lexer::Fail(std::uint32_t position, std::string message) const {
  error_offset_ = position;
  error_message_ = std::move(message);
  throw LexFailure{};
}

std::string Lexer::DescribeCharacterAt(std::uint32_t position) const {
  if (position >= source_.size()) return "<EOF>";
  utf8::Decoded decoded = utf8::Decode(source_.data() + position, source_.data() + source_.size());
  char32_t code = decoded.code_point;
  if (code >= 0x20 && code <= 0x7E) {
    if (code == '"') return "'\"'";
    return std::string{'"', static_cast<char>(code), '"'};
  }
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "U+%04X", static_cast<unsigned>(code));
  return buffer;
}

void Lexer::Read(Token* token) {
  const auto size = static_cast<std::uint32_t>(source_.size());
  std::uint32_t position = position_;
  for (;;) {
    while (position < size && kIgnoredBytes[static_cast<unsigned char>(source_[position])]) {
      ++position;
    }
    if (position >= size) break;
    const int c = static_cast<unsigned char>(source_[position]);
    switch (c) {
      case '#':
        return ReadComment(position, token);
      case '!':
        Emit(token, TokenKind::kBang, position, position + 1);
        return;
      case '$':
        Emit(token, TokenKind::kDollar, position, position + 1);
        return;
      case '&':
        Emit(token, TokenKind::kAmp, position, position + 1);
        return;
      case '(':
        Emit(token, TokenKind::kParenL, position, position + 1);
        return;
      case ')':
        Emit(token, TokenKind::kParenR, position, position + 1);
        return;
      case '.':
        if (At(position + 1) == '.' && At(position + 2) == '.') {
          Emit(token, TokenKind::kSpread, position, position + 3);
          return;
        }
        break;
      case ':':
        Emit(token, TokenKind::kColon, position, position + 1);
        return;
      case '=':
        Emit(token, TokenKind::kEquals, position, position + 1);
        return;
      case '@':
        Emit(token, TokenKind::kAt, position, position + 1);
        return;
      case '[':
        Emit(token, TokenKind::kBracketL, position, position + 1);
        return;
      case ']':
        Emit(token, TokenKind::kBracketR, position, position + 1);
        return;
      case '{':
        Emit(token, TokenKind::kBraceL, position, position + 1);
        return;
      case '|':
        Emit(token, TokenKind::kPipe, position, position + 1);
        return;
      case '}':
        Emit(token, TokenKind::kBraceR, position, position + 1);
        return;
      case '"':
        if (At(position + 1) == '"' && At(position + 2) == '"') {
          return ReadBlockString(position, token);
        }
        return ReadString(position, token);
      default:
        break;
    }
    if (IsDigit(c) || c == '-') return ReadNumber(position, token);
    if (IsNameStart(c)) return ReadName(position, token);
    if (IsByteOrderMark(source_, position)) {
      position += 3;
      continue;
    }
    if (c == '\'') {
      Fail(position,
           "Unexpected single quote character ('), did you mean to use a double quote (\")?");
    }
    // Every decoded character is a Unicode scalar value (malformed bytes read as U+FFFD), so
    // graphql-js's "Invalid character" case for lone surrogates cannot arise here.
    Fail(position, "Unexpected character: " + DescribeCharacterAt(position) + ".");
  }
  Emit(token, TokenKind::kEndOfFile, size, size);
}

void Lexer::ReadComment(std::uint32_t start, Token* token) {
  const auto size = static_cast<std::uint32_t>(source_.size());
  std::uint32_t position = start + 1;
  while (position < size) {
    char c = source_[position];
    if (c == '\n' || c == '\r') break;
    ++position;
  }
  Emit(token, TokenKind::kComment, start, position,
       source_.substr(start + 1, position - start - 1));
}

void Lexer::ReadNumber(std::uint32_t start, Token* token) {
  std::uint32_t position = start;
  int c = At(position);
  bool is_float = false;

  if (c == '-') c = At(++position);

  if (c == '0') {
    c = At(++position);
    if (IsDigit(c)) {
      Fail(position,
           "Invalid number, unexpected digit after 0: " + DescribeCharacterAt(position) + ".");
    }
  } else {
    position = ReadDigits(position);
    c = At(position);
  }

  if (c == '.') {
    is_float = true;
    position = ReadDigits(position + 1);
    c = At(position);
  }

  if (c == 'E' || c == 'e') {
    is_float = true;
    c = At(++position);
    if (c == '+' || c == '-') ++position;
    position = ReadDigits(position);
    c = At(position);
  }

  // A number may not be followed by `.` or a NameStart (digits were all consumed above).
  if (c == '.' || IsNameStart(c)) {
    Fail(position,
         "Invalid number, expected digit but got: " + DescribeCharacterAt(position) + ".");
  }

  Emit(token, is_float ? TokenKind::kFloat : TokenKind::kInt, start, position,
       source_.substr(start, position - start));
}

std::uint32_t Lexer::ReadDigits(std::uint32_t position) {
  if (!IsDigit(At(position))) {
    Fail(position,
         "Invalid number, expected digit but got: " + DescribeCharacterAt(position) + ".");
  }
  ++position;
  while (IsDigit(At(position))) ++position;
  return position;
}

void Lexer::ReadName(std::uint32_t start, Token* token) {
  std::uint32_t position = start + 1;
  while (IsNameContinue(At(position))) ++position;
  Emit(token, TokenKind::kName, start, position, source_.substr(start, position - start));
}

Lexer::Escape Lexer::ReadEscape(std::uint32_t position) const {
  if (At(position + 1) == 'u') {
    return At(position + 2) == '{' ? ReadVariableWidthEscape(position)
                                   : ReadFixedWidthEscape(position);
  }
  switch (At(position + 1)) {
    case '"':
      return {'"', 2};
    case '\\':
      return {'\\', 2};
    case '/':
      return {'/', 2};
    case 'b':
      return {'\b', 2};
    case 'f':
      return {'\f', 2};
    case 'n':
      return {'\n', 2};
    case 'r':
      return {'\r', 2};
    case 't':
      return {'\t', 2};
    default:
      break;
  }
  std::string_view sequence = utf8::Utf16Prefix(source_.substr(position), 2);
  Fail(position, "Invalid character escape sequence: \"" + std::string(sequence) + "\".");
}

Lexer::Escape Lexer::ReadVariableWidthEscape(std::uint32_t position) const {
  // graphql-js reads at most 12 characters (\u{00000000}), accumulating in a 32-bit signed int:
  // a non-hex character or an overflow into the sign bit ends the attempt.
  std::int32_t point = 0;
  std::uint32_t size = 3;
  while (size < 12) {
    int c = At(position + size++);
    if (c == '}') {
      if (size < 5 || !IsUnicodeScalarValue(point)) break;
      return {static_cast<char32_t>(point), size};
    }
    int digit = HexValue(c);
    point =
        digit < 0 ? -1 : static_cast<std::int32_t>(static_cast<std::uint32_t>(point) << 4) | digit;
    if (point < 0) break;
  }
  // `size` counts characters read; past a non-ASCII one, count it whole.
  std::string_view rest = source_.substr(position);
  std::string_view sequence = utf8::Utf16Prefix(rest, size);
  Fail(position, "Invalid Unicode escape sequence: \"" + std::string(sequence) + "\".");
}

Lexer::Escape Lexer::ReadFixedWidthEscape(std::uint32_t position) const {
  auto read_hex4 = [this](std::uint32_t at) -> std::int64_t {
    std::int64_t value = 0;
    for (std::uint32_t i = 0; i < 4; ++i) {
      int digit = HexValue(At(at + i));
      if (digit < 0) return -1;
      value = (value << 4) | digit;
    }
    return value;
  };
  std::int64_t code = read_hex4(position + 2);
  if (IsUnicodeScalarValue(code)) return {static_cast<char32_t>(code), 6};

  // A JSON-style surrogate pair escape is allowed when it forms a valid pair.
  if (IsLeadingSurrogate(code) && At(position + 6) == '\\' && At(position + 7) == 'u') {
    std::int64_t trailing = read_hex4(position + 8);
    if (IsTrailingSurrogate(trailing)) {
      auto combined =
          static_cast<char32_t>(0x10000 + ((code - 0xD800) << 10) + (trailing - 0xDC00));
      return {combined, 12};
    }
  }
  std::string_view sequence = utf8::Utf16Prefix(source_.substr(position), 6);
  Fail(position, "Invalid Unicode escape sequence: \"" + std::string(sequence) + "\".");
}

void Lexer::ReadString(std::uint32_t start, Token* token) {
  const char* const begin = source_.data();
  const char* const end = begin + source_.size();
  const auto size = static_cast<std::uint32_t>(source_.size());

  // First pass: find the closing quote, validate escapes, and see whether the value differs from
  // the source text (escapes or malformed UTF-8).
  std::uint32_t position = start + 1;
  bool needs_cooking = false;
  for (;;) {
    if (position >= size) Fail(position, "Unterminated string.");
    const auto c = static_cast<unsigned char>(source_[position]);
    if (c == '"') break;
    if (c == '\\') {
      needs_cooking = true;
      position += ReadEscape(position).size;
      continue;
    }
    if (c == '\n' || c == '\r') Fail(position, "Unterminated string.");
    if (c < 0x80) {
      ++position;
      continue;
    }
    utf8::Decoded decoded = utf8::Decode(begin + position, end);
    needs_cooking |= !decoded.well_formed;
    position += decoded.length;
  }
  const std::uint32_t close = position;
  std::string_view raw = source_.substr(start + 1, close - start - 1);
  if (!needs_cooking) {
    Emit(token, TokenKind::kString, start, close + 1, raw);
    return;
  }

  // Second pass: write the value. Escapes only shrink; a malformed byte grows to U+FFFD (3 bytes).
  char* out = arena_->AllocateChars(raw.size() * 3);
  char* cursor = out;
  position = start + 1;
  while (position < close) {
    const auto c = static_cast<unsigned char>(source_[position]);
    if (c == '\\') {
      Escape escape = ReadEscape(position);
      cursor += utf8::Encode(escape.code_point, cursor);
      position += escape.size;
    } else if (c < 0x80) {
      *cursor++ = static_cast<char>(c);
      ++position;
    } else {
      utf8::Decoded decoded = utf8::Decode(begin + position, end);
      if (decoded.well_formed) {
        for (int i = 0; i < decoded.length; ++i) *cursor++ = source_[position + i];
      } else {
        cursor += utf8::Encode(decoded.code_point, cursor);
      }
      position += decoded.length;
    }
  }
  arena_->ShrinkLast(cursor);
  Emit(token, TokenKind::kString, start, close + 1,
       std::string_view(out, static_cast<std::size_t>(cursor - out)));
}

void Lexer::ReadBlockString(std::uint32_t start, Token* token) {
  const auto size = static_cast<std::uint32_t>(source_.size());
  std::uint32_t position = start + 3;
  while (position < size) {
    char c = source_[position];
    if (c == '"' && At(position + 1) == '"' && At(position + 2) == '"') {
      std::string_view raw = source_.substr(start + 3, position - start - 3);
      Emit(token, TokenKind::kBlockString, start, position + 3, BlockStringValue(raw, arena_));
      return;
    }
    if (c == '\\' && At(position + 1) == '"' && At(position + 2) == '"' &&
        At(position + 3) == '"') {
      position += 4;
      continue;
    }
    ++position;
  }
  Fail(position, "Unterminated string.");
}

std::string_view TokenKindDescription(TokenKind kind) {
  switch (kind) {
    case TokenKind::kStartOfFile:
      return "<SOF>";
    case TokenKind::kEndOfFile:
      return "<EOF>";
    case TokenKind::kBang:
      return "\"!\"";
    case TokenKind::kDollar:
      return "\"$\"";
    case TokenKind::kAmp:
      return "\"&\"";
    case TokenKind::kParenL:
      return "\"(\"";
    case TokenKind::kParenR:
      return "\")\"";
    case TokenKind::kSpread:
      return "\"...\"";
    case TokenKind::kColon:
      return "\":\"";
    case TokenKind::kEquals:
      return "\"=\"";
    case TokenKind::kAt:
      return "\"@\"";
    case TokenKind::kBracketL:
      return "\"[\"";
    case TokenKind::kBracketR:
      return "\"]\"";
    case TokenKind::kBraceL:
      return "\"{\"";
    case TokenKind::kPipe:
      return "\"|\"";
    case TokenKind::kBraceR:
      return "\"}\"";
    case TokenKind::kName:
      return "Name";
    case TokenKind::kInt:
      return "Int";
    case TokenKind::kFloat:
      return "Float";
    case TokenKind::kString:
      return "String";
    case TokenKind::kBlockString:
      return "BlockString";
    case TokenKind::kComment:
      return "Comment";
  }
  return "";
}

}  // namespace netgraph::graphql
