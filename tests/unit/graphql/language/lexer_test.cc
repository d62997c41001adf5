#include "core/graphql/language/lexer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/graphql/language/source_location.h"

namespace netgraph::graphql {
namespace {

using ::testing::ElementsAre;

struct Lexed {
  std::vector<Token> tokens;  // up to <EOF> or the error
  std::string error;          // empty without one
  SourceLocation error_location;
};

// Every token of `source`, comments included.
Lexed LexAll(std::string_view source, Arena* arena) {
  Lexed lexed;
  Lexer lexer(source, arena);
  Token token;
  for (;;) {
    if (!lexer.Next(&token)) {
      lexed.error = lexer.error_message();
      lexed.error_location = LocateOffset(source, lexer.error_offset());
      return lexed;
    }
    lexed.tokens.push_back(token);
    if (token.kind == TokenKind::kEndOfFile) return lexed;
  }
}

// The first token's value, which must lex without error.
std::string FirstValue(std::string_view source) {
  Arena arena;
  Lexed lexed = LexAll(source, &arena);
  EXPECT_EQ(lexed.error, "") << source;
  return lexed.tokens.empty() ? std::string() : std::string(lexed.tokens[0].value);
}

// The error of the first token that fails, as "message @line:column".
std::string ErrorOf(std::string_view source) {
  Arena arena;
  Lexed lexed = LexAll(source, &arena);
  if (lexed.error.empty()) return "no error";
  return lexed.error + " @" + std::to_string(lexed.error_location.line) + ":" +
         std::to_string(lexed.error_location.column);
}

std::vector<TokenKind> KindsOf(std::string_view source) {
  Arena arena;
  std::vector<TokenKind> kinds;
  for (const Token& token : LexAll(source, &arena).tokens) kinds.push_back(token.kind);
  return kinds;
}

TEST(LexerTest, ReadsEveryPunctuator) {
  EXPECT_THAT(
      KindsOf("! $ & ( ) ... : = @ [ ] { | }"),
      ElementsAre(TokenKind::kBang, TokenKind::kDollar, TokenKind::kAmp, TokenKind::kParenL,
                  TokenKind::kParenR, TokenKind::kSpread, TokenKind::kColon, TokenKind::kEquals,
                  TokenKind::kAt, TokenKind::kBracketL, TokenKind::kBracketR, TokenKind::kBraceL,
                  TokenKind::kPipe, TokenKind::kBraceR, TokenKind::kEndOfFile));
}

TEST(LexerTest, ReadsNamesNumbersStringsAndComments) {
  Arena arena;
  Lexed lexed = LexAll("_name9 -12 0 3.5e+2 \"s\" \"\"\"b\"\"\" # note", &arena);
  ASSERT_EQ(lexed.error, "");
  ASSERT_EQ(lexed.tokens.size(), 8u);
  EXPECT_EQ(lexed.tokens[0].kind, TokenKind::kName);
  EXPECT_EQ(lexed.tokens[0].value, "_name9");
  EXPECT_EQ(lexed.tokens[1].kind, TokenKind::kInt);
  EXPECT_EQ(lexed.tokens[1].value, "-12");
  EXPECT_EQ(lexed.tokens[2].kind, TokenKind::kInt);
  EXPECT_EQ(lexed.tokens[3].kind, TokenKind::kFloat);
  EXPECT_EQ(lexed.tokens[3].value, "3.5e+2");
  EXPECT_EQ(lexed.tokens[4].kind, TokenKind::kString);
  EXPECT_EQ(lexed.tokens[5].kind, TokenKind::kBlockString);
  EXPECT_EQ(lexed.tokens[6].kind, TokenKind::kComment);
  EXPECT_EQ(lexed.tokens[6].value, " note");
  EXPECT_EQ(lexed.tokens[7].kind, TokenKind::kEndOfFile);
}

TEST(LexerTest, TokensRecordByteOffsets) {
  Arena arena;
  Lexed lexed = LexAll("  {\n\"é\" name", &arena);
  ASSERT_EQ(lexed.tokens.size(), 4u);
  EXPECT_EQ(lexed.tokens[0].start, 2u);
  EXPECT_EQ(lexed.tokens[0].end, 3u);
  EXPECT_EQ(lexed.tokens[1].start, 4u);
  EXPECT_EQ(lexed.tokens[1].end, 8u);  // the quotes and two bytes of é
  EXPECT_EQ(lexed.tokens[2].start, 9u);
  EXPECT_EQ(lexed.tokens[3].start, 13u);
}

TEST(LexerTest, SkipsIgnoredTokens) {
  // Commas, tabs, spaces, every line terminator, and the byte order mark anywhere.
  EXPECT_THAT(
      KindsOf("\xEF\xBB\xBF,a,\t\r\nb\rc\n,\xEF\xBB\xBF"),
      ElementsAre(TokenKind::kName, TokenKind::kName, TokenKind::kName, TokenKind::kEndOfFile));
}

TEST(LexerTest, UnescapesStrings) {
  EXPECT_EQ(FirstValue(R"("simple")"), "simple");
  EXPECT_EQ(FirstValue(R"("quote \" slash \\ \/ \b\f\n\r\t")"), "quote \" slash \\ / \b\f\n\r\t");
  EXPECT_EQ(FirstValue(R"("\u0041\u00e9")"), "A\xC3\xA9");
  EXPECT_EQ(FirstValue(R"("\u{1F600} \u{41}")"), "\xF0\x9F\x98\x80 A");
  EXPECT_EQ(FirstValue(R"("\uD83D\uDE00")"), "\xF0\x9F\x98\x80");  // a surrogate pair
  EXPECT_EQ(FirstValue(R"("\u{00000041}")"), "A");
  EXPECT_EQ(FirstValue("\"unicode \xF0\x9F\x98\x80 as is\""), "unicode \xF0\x9F\x98\x80 as is");
  EXPECT_EQ(FirstValue("\"control \x01 allowed\""), "control \x01 allowed");
  EXPECT_EQ(FirstValue(R"("")"), "");
}

TEST(LexerTest, ReplacesMalformedUtf8) {
  EXPECT_EQ(FirstValue("\"a\xFF"
                       "b\""),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(ErrorOf("\xC3"), "Unexpected character: U+FFFD. @1:1");
}

TEST(LexerTest, DedentsBlockStrings) {
  EXPECT_EQ(FirstValue("\"\"\"\n    Hello,\n      World!\n\n    Yours,\n      GraphQL.\n  \"\"\""),
            "Hello,\n  World!\n\nYours,\n  GraphQL.");
  EXPECT_EQ(FirstValue("\"\"\"  first line kept\n    x\n  \"\"\""), "  first line kept\nx");
  EXPECT_EQ(FirstValue("\"\"\"\r\n  a\r  b\r\n\"\"\""), "a\nb");
  EXPECT_EQ(FirstValue("\"\"\"escaped \\\"\"\" quotes\"\"\""), "escaped \"\"\" quotes");
  EXPECT_EQ(FirstValue("\"\"\"no \\n escapes\"\"\""), "no \\n escapes");
  EXPECT_EQ(FirstValue("\"\"\"\n\n   \n\"\"\""), "");
  EXPECT_EQ(FirstValue("\"\"\"\"\"\""), "");
}

TEST(LexerTest, NumbersMayNotBeFollowedByNameStartOrDot) {
  EXPECT_EQ(ErrorOf("{ 8f31403dfe404bccbb0e835f2629c6a7 }"),
            "Invalid number, expected digit but got: \"f\". @1:4");
  EXPECT_EQ(ErrorOf("1.2.3"), "Invalid number, expected digit but got: \".\". @1:4");
  EXPECT_EQ(ErrorOf("12_"), "Invalid number, expected digit but got: \"_\". @1:3");
  EXPECT_EQ(ErrorOf("1e5x"), "Invalid number, expected digit but got: \"x\". @1:4");
}

TEST(LexerTest, ReportsMalformedNumbers) {
  EXPECT_EQ(ErrorOf("00"), "Invalid number, unexpected digit after 0: \"0\". @1:2");
  EXPECT_EQ(ErrorOf("-"), "Invalid number, expected digit but got: <EOF>. @1:2");
  EXPECT_EQ(ErrorOf("1."), "Invalid number, expected digit but got: <EOF>. @1:3");
  EXPECT_EQ(ErrorOf("1.e1"), "Invalid number, expected digit but got: \"e\". @1:3");
  EXPECT_EQ(ErrorOf("1e"), "Invalid number, expected digit but got: <EOF>. @1:3");
  EXPECT_EQ(ErrorOf("-\""), "Invalid number, expected digit but got: '\"'. @1:2");
  EXPECT_EQ(ErrorOf(".5"), "Unexpected character: \".\". @1:1");
}

TEST(LexerTest, ReportsBadCharacters) {
  EXPECT_EQ(ErrorOf("?"), "Unexpected character: \"?\". @1:1");
  EXPECT_EQ(ErrorOf("'a'"),
            "Unexpected single quote character ('), did you mean to use a double quote (\")? @1:1");
  EXPECT_EQ(ErrorOf("a \xC3\xA9"), "Unexpected character: U+00E9. @1:3");
  EXPECT_EQ(ErrorOf("\xF0\x9F\x98\x80"), "Unexpected character: U+1F600. @1:1");
  EXPECT_EQ(ErrorOf(std::string_view("\0", 1)), "Unexpected character: U+0000. @1:1");
  EXPECT_EQ(ErrorOf(".."), "Unexpected character: \".\". @1:1");
}

TEST(LexerTest, ReportsBadStrings) {
  EXPECT_EQ(ErrorOf("\"abc"), "Unterminated string. @1:5");
  EXPECT_EQ(ErrorOf("\"ab\nc\""), "Unterminated string. @1:4");
  EXPECT_EQ(ErrorOf("\"\"\"abc"), "Unterminated string. @1:7");
  EXPECT_EQ(ErrorOf(R"("\q")"), "Invalid character escape sequence: \"\\q\". @1:2");
  EXPECT_EQ(ErrorOf("\"\\"), "Invalid character escape sequence: \"\\\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\u12")"), "Invalid Unicode escape sequence: \"\\u12\"\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\u{}")"), "Invalid Unicode escape sequence: \"\\u{}\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\u{110000}")"), "Invalid Unicode escape sequence: \"\\u{110000}\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\u{D800}")"), "Invalid Unicode escape sequence: \"\\u{D800}\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\u{0000000041}")"),
            "Invalid Unicode escape sequence: \"\\u{000000004\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\u{FFFFFFFFF}")"),
            "Invalid Unicode escape sequence: \"\\u{FFFFFFFF\". @1:2");
}

TEST(LexerTest, RejectsUnpairedSurrogateEscapes) {
  EXPECT_EQ(ErrorOf(R"("\uD83D")"), "Invalid Unicode escape sequence: \"\\uD83D\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\uDE00")"), "Invalid Unicode escape sequence: \"\\uDE00\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\uD83D\u0041")"), "Invalid Unicode escape sequence: \"\\uD83D\". @1:2");
  EXPECT_EQ(ErrorOf(R"("\uD83Dx")"), "Invalid Unicode escape sequence: \"\\uD83D\". @1:2");
}

TEST(LexerTest, ColumnsCountUtf16CodeUnits) {
  // graphql-js counts JavaScript string indices: é is one unit, 😀 two.
  EXPECT_EQ(ErrorOf("\"\xC3\xA9\" ?"), "Unexpected character: \"?\". @1:5");
  EXPECT_EQ(ErrorOf("\"\xF0\x9F\x98\x80\" ?"), "Unexpected character: \"?\". @1:6");
  EXPECT_EQ(ErrorOf("a\r\nb\rc\n  ?"), "Unexpected character: \"?\". @4:3");
  EXPECT_EQ(ErrorOf("\"\"\"\n\n\"\"\" ?"), "Unexpected character: \"?\". @3:5");
}

TEST(LexerTest, RepeatsEndOfFile) {
  Arena arena;
  Lexer lexer("a", &arena);
  Token token;
  ASSERT_TRUE(lexer.Next(&token));
  ASSERT_TRUE(lexer.Next(&token));
  EXPECT_EQ(token.kind, TokenKind::kEndOfFile);
  ASSERT_TRUE(lexer.Next(&token));
  EXPECT_EQ(token.kind, TokenKind::kEndOfFile);
}

TEST(LexerTest, DescribesTokenKindsAsGraphqlJs) {
  EXPECT_EQ(TokenKindDescription(TokenKind::kEndOfFile), "<EOF>");
  EXPECT_EQ(TokenKindDescription(TokenKind::kSpread), "\"...\"");
  EXPECT_EQ(TokenKindDescription(TokenKind::kBlockString), "BlockString");
}

}  // namespace
}  // namespace netgraph::graphql
