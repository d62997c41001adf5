#include "core/graphql/language/parser.h"

#include <cstdint>
#include <limits>
#include <string_view>
#include <utility>
#include <vector>

#include "core/graphql/language/directive_location.h"
#include "core/graphql/language/lexer.h"
#include "core/graphql/language/source_location.h"

namespace netgraph::graphql {

namespace ast {

// The one place that may construct a Document and fill it in.
class DocumentBuilder {
 public:
  static std::unique_ptr<Document> Create(std::string source) {
    return std::unique_ptr<Document>(new Document(std::move(source)));
  }
  static Arena* arena(Document* document) { return &document->arena_; }
  static void Finish(Document* document, List<const Definition*> definitions,
                     std::size_t token_count, std::size_t node_count) {
    document->definitions_ = definitions;
    document->token_count_ = token_count;
    document->node_count_ = node_count;
  }
};

}  // namespace ast

namespace {

using ast::List;
using ast::Name;
using ast::NodeKind;

// Thrown inside the parser only; Parse() turns it into an Error.
struct SyntaxFailure {
  std::string message;  // without the "Syntax Error: " prefix
  std::uint32_t offset;
};

// graphql-js's getTokenDesc: `Name "x"`, `"{"`, `<EOF>`.
std::string DescribeToken(const Token& token) {
  std::string description(TokenKindDescription(token.kind));
  if (TokenHasValue(token.kind)) {
    description += " \"";
    description += token.value;
    description += '"';
  }
  return description;
}

class Parser {
 public:
  Parser(std::string_view source, Arena* arena, const ParseOptions& options)
      : lexer_(source, arena), arena_(arena), options_(options) {}

  // Document : Definition+
  List<const ast::Definition*> ParseDocument() {
    ExpectToken(TokenKind::kStartOfFile);
    std::size_t mark = scratch_.size();
    do {
      Push<ast::Definition>(ParseDefinition());
    } while (!ExpectOptionalToken(TokenKind::kEndOfFile));
    return FinishList<ast::Definition>(mark);
  }

  std::size_t token_count() const { return token_count_; }
  std::size_t node_count() const { return node_count_; }

 private:
  // ---- Tokens.

  bool Peek(TokenKind kind) const { return token_.kind == kind; }

  // Reads the next token that is not a comment into *token.
  void ReadToken(Token* token) {
    do {
      if (!lexer_.Next(token)) throw SyntaxFailure{lexer_.error_message(), lexer_.error_offset()};
    } while (token->kind == TokenKind::kComment);
  }

  void Advance() {
    if (has_lookahead_) {
      token_ = lookahead_;
      has_lookahead_ = false;
    } else {
      ReadToken(&token_);
    }
    if (token_.kind != TokenKind::kEndOfFile) {
      ++token_count_;
      if (options_.max_tokens != 0 && token_count_ > options_.max_tokens) {
        Fail(token_.start, "Document contains more than " + std::to_string(options_.max_tokens) +
                               " tokens. Parsing aborted.");
      }
    }
  }

  // The token after the current one, without consuming anything.
  const Token& Lookahead() {
    if (!has_lookahead_) {
      if (token_.kind == TokenKind::kEndOfFile) {
        lookahead_ = token_;
      } else {
        ReadToken(&lookahead_);
      }
      has_lookahead_ = true;
    }
    return lookahead_;
  }

  [[noreturn]] void Fail(std::uint32_t offset, std::string message) {
    throw SyntaxFailure{std::move(message), offset};
  }

  [[noreturn]] void Unexpected(const Token& token) {
    Fail(token.start, "Unexpected " + DescribeToken(token) + ".");
  }
  [[noreturn]] void Unexpected() { Unexpected(token_); }

  Token ExpectToken(TokenKind kind) {
    Token token = token_;
    if (token.kind != kind) {
      Fail(token.start, "Expected " + std::string(TokenKindDescription(kind)) + ", found " +
                            DescribeToken(token) + ".");
    }
    Advance();
    return token;
  }

  bool ExpectOptionalToken(TokenKind kind) {
    if (token_.kind != kind) return false;
    Advance();
    return true;
  }

  void ExpectKeyword(std::string_view keyword) {
    if (token_.kind == TokenKind::kName && token_.value == keyword) {
      Advance();
      return;
    }
    Fail(token_.start,
         "Expected \"" + std::string(keyword) + "\", found " + DescribeToken(token_) + ".");
  }

  bool ExpectOptionalKeyword(std::string_view keyword) {
    if (token_.kind != TokenKind::kName || token_.value != keyword) return false;
    Advance();
    return true;
  }

  // graphql-js compares `token.value` whatever the token's kind; only valued kinds can match.
  bool CurrentValueIs(std::string_view value) const {
    return TokenHasValue(token_.kind) && token_.value == value;
  }

  // ---- Nodes and lists.

  template <typename T>
  T* Make(NodeKind kind, std::uint32_t offset) {
    T* node = arena_->New<T>();
    node->kind = kind;
    node->offset = offset;
    node->id = static_cast<std::uint32_t>(node_count_++);
    return node;
  }

  // Lists are gathered on one scratch stack (nested lists finish before their parent), then
  // copied into the arena: no allocation per list.
  template <typename T>
  void Push(const T* item) {
    scratch_.push_back(item);
  }

  template <typename T>
  List<const T*> FinishList(std::size_t mark) {
    std::size_t count = scratch_.size() - mark;
    if (count == 0) return {};
    auto** items =
        static_cast<const T**>(arena_->Allocate(sizeof(const T*) * count, alignof(const T*)));
    for (std::size_t i = 0; i < count; ++i) items[i] = static_cast<const T*>(scratch_[mark + i]);
    scratch_.resize(mark);
    return List<const T*>(items, static_cast<std::uint32_t>(count));
  }

  // open Item+ close
  template <typename T, typename ParseItem>
  List<const T*> Many(TokenKind open, ParseItem parse_item, TokenKind close) {
    ExpectToken(open);
    std::size_t mark = scratch_.size();
    do {
      Push<T>(parse_item());
    } while (!ExpectOptionalToken(close));
    return FinishList<T>(mark);
  }

  // (open Item+ close)?
  template <typename T, typename ParseItem>
  List<const T*> OptionalMany(TokenKind open, ParseItem parse_item, TokenKind close) {
    if (!ExpectOptionalToken(open)) return {};
    std::size_t mark = scratch_.size();
    do {
      Push<T>(parse_item());
    } while (!ExpectOptionalToken(close));
    return FinishList<T>(mark);
  }

  // open Item* close
  template <typename T, typename ParseItem>
  List<const T*> Any(TokenKind open, ParseItem parse_item, TokenKind close) {
    ExpectToken(open);
    std::size_t mark = scratch_.size();
    while (!ExpectOptionalToken(close)) Push<T>(parse_item());
    return FinishList<T>(mark);
  }

  // delimiter? Item (delimiter Item)*
  template <typename T, typename ParseItem>
  List<const T*> DelimitedMany(TokenKind delimiter, ParseItem parse_item) {
    ExpectOptionalToken(delimiter);
    std::size_t mark = scratch_.size();
    do {
      Push<T>(parse_item());
    } while (ExpectOptionalToken(delimiter));
    return FinishList<T>(mark);
  }

  // Counts one level of nesting for as long as it lives.
  class NestingGuard {
   public:
    NestingGuard(Parser* parser, std::uint32_t offset) : parser_(parser) {
      if (++parser_->depth_ > parser_->options_.max_depth) {
        parser_->Fail(offset, "Document contains more than " +
                                  std::to_string(parser_->options_.max_depth) +
                                  " nested levels. Parsing aborted.");
      }
    }
    ~NestingGuard() { --parser_->depth_; }
    NestingGuard(const NestingGuard&) = delete;
    NestingGuard& operator=(const NestingGuard&) = delete;

   private:
    Parser* parser_;
  };

  // ---- Names and definitions.

  Name ParseName() {
    Token token = ExpectToken(TokenKind::kName);
    return Name{token.value, token.start};
  }

  const ast::Definition* ParseDefinition() {
    if (Peek(TokenKind::kBraceL)) return ParseOperationDefinition();

    // Many definitions begin with a description and need a lookahead for the keyword.
    const bool has_description = PeekDescription();
    const Token keyword = has_description ? Lookahead() : token_;

    if (keyword.kind == TokenKind::kName) {
      std::string_view value = keyword.value;
      if (value == "schema") return ParseSchemaDefinition();
      if (value == "scalar") return ParseScalarTypeDefinition();
      if (value == "type") {
        return ParseImplementingTypeDefinition<ast::ObjectTypeDefinition>(
            NodeKind::kObjectTypeDefinition, "type");
      }
      if (value == "interface") {
        return ParseImplementingTypeDefinition<ast::InterfaceTypeDefinition>(
            NodeKind::kInterfaceTypeDefinition, "interface");
      }
      if (value == "union") return ParseUnionTypeDefinition();
      if (value == "enum") return ParseEnumTypeDefinition();
      if (value == "input") return ParseInputObjectTypeDefinition();
      if (value == "directive") return ParseDirectiveDefinition();

      if (has_description) {
        Fail(token_.start,
             "Unexpected description, descriptions are supported only on type definitions.");
      }
      if (value == "query" || value == "mutation" || value == "subscription") {
        return ParseOperationDefinition();
      }
      if (value == "fragment") return ParseFragmentDefinition();
      if (value == "extend") return ParseTypeSystemExtension();
    }
    Unexpected(keyword);
  }

  // ---- Operations.

  const ast::OperationDefinition* ParseOperationDefinition() {
    auto* node = Make<ast::OperationDefinition>(NodeKind::kOperationDefinition, token_.start);
    if (Peek(TokenKind::kBraceL)) {
      node->operation = OperationType::kQuery;
      node->selection_set = ParseSelectionSet();
      return node;
    }
    node->operation = ParseOperationType();
    if (Peek(TokenKind::kName)) node->name = ParseName();
    node->variable_definitions = ParseVariableDefinitions();
    node->directives = ParseDirectives(/*is_const=*/false);
    node->selection_set = ParseSelectionSet();
    return node;
  }

  OperationType ParseOperationType() {
    Token token = ExpectToken(TokenKind::kName);
    if (token.value == "query") return OperationType::kQuery;
    if (token.value == "mutation") return OperationType::kMutation;
    if (token.value == "subscription") return OperationType::kSubscription;
    Unexpected(token);
  }

  List<const ast::VariableDefinition*> ParseVariableDefinitions() {
    return OptionalMany<ast::VariableDefinition>(
        TokenKind::kParenL, [this] { return ParseVariableDefinition(); }, TokenKind::kParenR);
  }

  const ast::VariableDefinition* ParseVariableDefinition() {
    auto* node = Make<ast::VariableDefinition>(NodeKind::kVariableDefinition, token_.start);
    node->variable = ParseVariable();
    ExpectToken(TokenKind::kColon);
    node->type = ParseTypeReference();
    if (ExpectOptionalToken(TokenKind::kEquals)) node->default_value = ParseValueLiteral(true);
    node->directives = ParseDirectives(/*is_const=*/true);
    return node;
  }

  const ast::Variable* ParseVariable() {
    auto* node = Make<ast::Variable>(NodeKind::kVariable, token_.start);
    ExpectToken(TokenKind::kDollar);
    node->name = ParseName();
    return node;
  }

  const ast::SelectionSet* ParseSelectionSet() {
    NestingGuard nesting(this, token_.start);
    auto* node = Make<ast::SelectionSet>(NodeKind::kSelectionSet, token_.start);
    node->selections = Many<ast::Selection>(
        TokenKind::kBraceL, [this] { return ParseSelection(); }, TokenKind::kBraceR);
    return node;
  }

  const ast::Selection* ParseSelection() {
    return Peek(TokenKind::kSpread) ? ParseFragment() : ParseField();
  }

  const ast::Field* ParseField() {
    auto* node = Make<ast::Field>(NodeKind::kField, token_.start);
    Name name_or_alias = ParseName();
    if (ExpectOptionalToken(TokenKind::kColon)) {
      node->alias = name_or_alias;
      node->name = ParseName();
    } else {
      node->name = name_or_alias;
    }
    node->arguments = ParseArguments(/*is_const=*/false);
    node->directives = ParseDirectives(/*is_const=*/false);
    if (Peek(TokenKind::kBraceL)) node->selection_set = ParseSelectionSet();
    return node;
  }

  List<const ast::Argument*> ParseArguments(bool is_const) {
    return OptionalMany<ast::Argument>(
        TokenKind::kParenL, [this, is_const] { return ParseArgument(is_const); },
        TokenKind::kParenR);
  }

  const ast::Argument* ParseArgument(bool is_const) {
    auto* node = Make<ast::Argument>(NodeKind::kArgument, token_.start);
    node->name = ParseName();
    ExpectToken(TokenKind::kColon);
    node->value = ParseValueLiteral(is_const);
    return node;
  }

  // ---- Fragments.

  const ast::Selection* ParseFragment() {
    const std::uint32_t start = token_.start;
    ExpectToken(TokenKind::kSpread);
    const bool has_type_condition = ExpectOptionalKeyword("on");
    if (!has_type_condition && Peek(TokenKind::kName)) {
      auto* spread = Make<ast::FragmentSpread>(NodeKind::kFragmentSpread, start);
      spread->name = ParseFragmentName();
      spread->directives = ParseDirectives(/*is_const=*/false);
      return spread;
    }
    auto* inline_fragment = Make<ast::InlineFragment>(NodeKind::kInlineFragment, start);
    if (has_type_condition) inline_fragment->type_condition = ParseNamedType();
    inline_fragment->directives = ParseDirectives(/*is_const=*/false);
    inline_fragment->selection_set = ParseSelectionSet();
    return inline_fragment;
  }

  const ast::FragmentDefinition* ParseFragmentDefinition() {
    auto* node = Make<ast::FragmentDefinition>(NodeKind::kFragmentDefinition, token_.start);
    ExpectKeyword("fragment");
    node->name = ParseFragmentName();
    ExpectKeyword("on");
    node->type_condition = ParseNamedType();
    node->directives = ParseDirectives(/*is_const=*/false);
    node->selection_set = ParseSelectionSet();
    return node;
  }

  // FragmentName : Name but not `on`
  Name ParseFragmentName() {
    if (CurrentValueIs("on")) Unexpected();
    return ParseName();
  }

  // ---- Values.

  const ast::Value* ParseValueLiteral(bool is_const) {
    const Token token = token_;
    switch (token.kind) {
      case TokenKind::kBracketL: {
        NestingGuard nesting(this, token.start);
        auto* list = Make<ast::ListValue>(NodeKind::kListValue, token.start);
        list->values = Any<ast::Value>(
            TokenKind::kBracketL, [this, is_const] { return ParseValueLiteral(is_const); },
            TokenKind::kBracketR);
        return list;
      }
      case TokenKind::kBraceL: {
        NestingGuard nesting(this, token.start);
        auto* object = Make<ast::ObjectValue>(NodeKind::kObjectValue, token.start);
        object->fields = Any<ast::ObjectField>(
            TokenKind::kBraceL, [this, is_const] { return ParseObjectField(is_const); },
            TokenKind::kBraceR);
        return object;
      }
      case TokenKind::kInt: {
        Advance();
        auto* node = Make<ast::IntValue>(NodeKind::kIntValue, token.start);
        node->value = token.value;
        return node;
      }
      case TokenKind::kFloat: {
        Advance();
        auto* node = Make<ast::FloatValue>(NodeKind::kFloatValue, token.start);
        node->value = token.value;
        return node;
      }
      case TokenKind::kString:
      case TokenKind::kBlockString:
        return ParseStringLiteral();
      case TokenKind::kName: {
        Advance();
        if (token.value == "true" || token.value == "false") {
          auto* node = Make<ast::BooleanValue>(NodeKind::kBooleanValue, token.start);
          node->value = token.value == "true";
          return node;
        }
        if (token.value == "null") return Make<ast::NullValue>(NodeKind::kNullValue, token.start);
        auto* node = Make<ast::EnumValue>(NodeKind::kEnumValue, token.start);
        node->value = token.value;
        return node;
      }
      case TokenKind::kDollar:
        if (is_const) {
          ExpectToken(TokenKind::kDollar);
          if (token_.kind == TokenKind::kName) {
            Fail(token.start,
                 "Unexpected variable \"$" + std::string(token_.value) + "\" in constant value.");
          }
          Unexpected(token);
        }
        return ParseVariable();
      default:
        Unexpected();
    }
  }

  const ast::StringValue* ParseStringLiteral() {
    const Token token = token_;
    Advance();
    auto* node = Make<ast::StringValue>(NodeKind::kStringValue, token.start);
    node->value = token.value;
    node->block = token.kind == TokenKind::kBlockString;
    return node;
  }

  const ast::ObjectField* ParseObjectField(bool is_const) {
    auto* node = Make<ast::ObjectField>(NodeKind::kObjectField, token_.start);
    node->name = ParseName();
    ExpectToken(TokenKind::kColon);
    node->value = ParseValueLiteral(is_const);
    return node;
  }

  // ---- Directives.

  List<const ast::Directive*> ParseDirectives(bool is_const) {
    std::size_t mark = scratch_.size();
    while (Peek(TokenKind::kAt)) Push<ast::Directive>(ParseDirective(is_const));
    return FinishList<ast::Directive>(mark);
  }

  const ast::Directive* ParseDirective(bool is_const) {
    auto* node = Make<ast::Directive>(NodeKind::kDirective, token_.start);
    ExpectToken(TokenKind::kAt);
    node->name = ParseName();
    node->arguments = ParseArguments(is_const);
    return node;
  }

  // ---- Type references.

  const ast::Type* ParseTypeReference() {
    const std::uint32_t start = token_.start;
    const ast::Type* type;
    if (ExpectOptionalToken(TokenKind::kBracketL)) {
      NestingGuard nesting(this, start);
      if (++list_type_depth_ > ParseOptions::kMaxListTypeDepth) {
        Fail(start, "Type contains more than " + std::to_string(ParseOptions::kMaxListTypeDepth) +
                        " nested lists. Parsing aborted.");
      }
      auto* list = Make<ast::ListType>(NodeKind::kListType, start);
      list->type = ParseTypeReference();
      --list_type_depth_;
      ExpectToken(TokenKind::kBracketR);
      type = list;
    } else {
      type = ParseNamedType();
    }
    if (ExpectOptionalToken(TokenKind::kBang)) {
      auto* non_null = Make<ast::NonNullType>(NodeKind::kNonNullType, start);
      non_null->type = type;
      return non_null;
    }
    return type;
  }

  const ast::NamedType* ParseNamedType() {
    auto* node = Make<ast::NamedType>(NodeKind::kNamedType, token_.start);
    node->name = ParseName();
    return node;
  }

  // ---- Type system definitions.

  bool PeekDescription() const { return Peek(TokenKind::kString) || Peek(TokenKind::kBlockString); }

  const ast::StringValue* ParseDescription() {
    return PeekDescription() ? ParseStringLiteral() : nullptr;
  }

  const ast::SchemaDefinition* ParseSchemaDefinition() {
    auto* node = Make<ast::SchemaDefinition>(NodeKind::kSchemaDefinition, token_.start);
    node->description = ParseDescription();
    ExpectKeyword("schema");
    node->directives = ParseDirectives(/*is_const=*/true);
    node->operation_types = Many<ast::OperationTypeDefinition>(
        TokenKind::kBraceL, [this] { return ParseOperationTypeDefinition(); }, TokenKind::kBraceR);
    return node;
  }

  const ast::OperationTypeDefinition* ParseOperationTypeDefinition() {
    auto* node =
        Make<ast::OperationTypeDefinition>(NodeKind::kOperationTypeDefinition, token_.start);
    node->operation = ParseOperationType();
    ExpectToken(TokenKind::kColon);
    node->type = ParseNamedType();
    return node;
  }

  const ast::ScalarTypeDefinition* ParseScalarTypeDefinition() {
    auto* node = Make<ast::ScalarTypeDefinition>(NodeKind::kScalarTypeDefinition, token_.start);
    node->description = ParseDescription();
    ExpectKeyword("scalar");
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    return node;
  }

  // ObjectTypeDefinition and InterfaceTypeDefinition.
  template <typename T>
  const T* ParseImplementingTypeDefinition(NodeKind kind, std::string_view keyword) {
    auto* node = Make<T>(kind, token_.start);
    node->description = ParseDescription();
    ExpectKeyword(keyword);
    node->name = ParseName();
    node->interfaces = ParseImplementsInterfaces();
    node->directives = ParseDirectives(/*is_const=*/true);
    node->fields = ParseFieldsDefinition();
    return node;
  }

  List<const ast::NamedType*> ParseImplementsInterfaces() {
    if (!ExpectOptionalKeyword("implements")) return {};
    return DelimitedMany<ast::NamedType>(TokenKind::kAmp, [this] { return ParseNamedType(); });
  }

  List<const ast::FieldDefinition*> ParseFieldsDefinition() {
    return OptionalMany<ast::FieldDefinition>(
        TokenKind::kBraceL, [this] { return ParseFieldDefinition(); }, TokenKind::kBraceR);
  }

  const ast::FieldDefinition* ParseFieldDefinition() {
    auto* node = Make<ast::FieldDefinition>(NodeKind::kFieldDefinition, token_.start);
    node->description = ParseDescription();
    node->name = ParseName();
    node->arguments = ParseArgumentDefinitions();
    ExpectToken(TokenKind::kColon);
    node->type = ParseTypeReference();
    node->directives = ParseDirectives(/*is_const=*/true);
    return node;
  }

  List<const ast::InputValueDefinition*> ParseArgumentDefinitions() {
    return OptionalMany<ast::InputValueDefinition>(
        TokenKind::kParenL, [this] { return ParseInputValueDefinition(); }, TokenKind::kParenR);
  }

  const ast::InputValueDefinition* ParseInputValueDefinition() {
    auto* node = Make<ast::InputValueDefinition>(NodeKind::kInputValueDefinition, token_.start);
    node->description = ParseDescription();
    node->name = ParseName();
    ExpectToken(TokenKind::kColon);
    node->type = ParseTypeReference();
    if (ExpectOptionalToken(TokenKind::kEquals)) node->default_value = ParseValueLiteral(true);
    node->directives = ParseDirectives(/*is_const=*/true);
    return node;
  }

  const ast::UnionTypeDefinition* ParseUnionTypeDefinition() {
    auto* node = Make<ast::UnionTypeDefinition>(NodeKind::kUnionTypeDefinition, token_.start);
    node->description = ParseDescription();
    ExpectKeyword("union");
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    node->types = ParseUnionMemberTypes();
    return node;
  }

  List<const ast::NamedType*> ParseUnionMemberTypes() {
    if (!ExpectOptionalToken(TokenKind::kEquals)) return {};
    return DelimitedMany<ast::NamedType>(TokenKind::kPipe, [this] { return ParseNamedType(); });
  }

  const ast::EnumTypeDefinition* ParseEnumTypeDefinition() {
    auto* node = Make<ast::EnumTypeDefinition>(NodeKind::kEnumTypeDefinition, token_.start);
    node->description = ParseDescription();
    ExpectKeyword("enum");
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    node->values = ParseEnumValuesDefinition();
    return node;
  }

  List<const ast::EnumValueDefinition*> ParseEnumValuesDefinition() {
    return OptionalMany<ast::EnumValueDefinition>(
        TokenKind::kBraceL, [this] { return ParseEnumValueDefinition(); }, TokenKind::kBraceR);
  }

  const ast::EnumValueDefinition* ParseEnumValueDefinition() {
    auto* node = Make<ast::EnumValueDefinition>(NodeKind::kEnumValueDefinition, token_.start);
    node->description = ParseDescription();
    if (CurrentValueIs("true") || CurrentValueIs("false") || CurrentValueIs("null")) {
      Fail(token_.start,
           DescribeToken(token_) + " is reserved and cannot be used for an enum value.");
    }
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    return node;
  }

  const ast::InputObjectTypeDefinition* ParseInputObjectTypeDefinition() {
    auto* node =
        Make<ast::InputObjectTypeDefinition>(NodeKind::kInputObjectTypeDefinition, token_.start);
    node->description = ParseDescription();
    ExpectKeyword("input");
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    node->fields = ParseInputFieldsDefinition();
    return node;
  }

  List<const ast::InputValueDefinition*> ParseInputFieldsDefinition() {
    return OptionalMany<ast::InputValueDefinition>(
        TokenKind::kBraceL, [this] { return ParseInputValueDefinition(); }, TokenKind::kBraceR);
  }

  const ast::DirectiveDefinition* ParseDirectiveDefinition() {
    auto* node = Make<ast::DirectiveDefinition>(NodeKind::kDirectiveDefinition, token_.start);
    node->description = ParseDescription();
    ExpectKeyword("directive");
    ExpectToken(TokenKind::kAt);
    node->name = ParseName();
    node->arguments = ParseArgumentDefinitions();
    node->repeatable = ExpectOptionalKeyword("repeatable");
    ExpectKeyword("on");
    node->locations = ParseDirectiveLocations();
    return node;
  }

  List<Name> ParseDirectiveLocations() {
    ExpectOptionalToken(TokenKind::kPipe);
    std::size_t mark = names_.size();
    do {
      const Token start = token_;
      Name name = ParseName();
      if (!DirectiveLocationFromName(name.value)) Unexpected(start);
      names_.push_back(name);
    } while (ExpectOptionalToken(TokenKind::kPipe));
    std::size_t count = names_.size() - mark;
    const Name* items = arena_->CopyArray(names_.data() + mark, count);
    names_.resize(mark);
    return List<Name>(items, static_cast<std::uint32_t>(count));
  }

  // ---- Type system extensions.

  const ast::Definition* ParseTypeSystemExtension() {
    const Token keyword = Lookahead();
    if (keyword.kind == TokenKind::kName) {
      std::string_view value = keyword.value;
      if (value == "schema") return ParseSchemaExtension();
      if (value == "scalar") return ParseScalarTypeExtension();
      if (value == "type") {
        return ParseImplementingTypeExtension<ast::ObjectTypeDefinition>(
            NodeKind::kObjectTypeExtension, "type");
      }
      if (value == "interface") {
        return ParseImplementingTypeExtension<ast::InterfaceTypeDefinition>(
            NodeKind::kInterfaceTypeExtension, "interface");
      }
      if (value == "union") return ParseUnionTypeExtension();
      if (value == "enum") return ParseEnumTypeExtension();
      if (value == "input") return ParseInputObjectTypeExtension();
    }
    Unexpected(keyword);
  }

  const ast::SchemaDefinition* ParseSchemaExtension() {
    auto* node = Make<ast::SchemaDefinition>(NodeKind::kSchemaExtension, token_.start);
    ExpectKeyword("extend");
    ExpectKeyword("schema");
    node->directives = ParseDirectives(/*is_const=*/true);
    node->operation_types = OptionalMany<ast::OperationTypeDefinition>(
        TokenKind::kBraceL, [this] { return ParseOperationTypeDefinition(); }, TokenKind::kBraceR);
    if (node->directives.empty() && node->operation_types.empty()) Unexpected();
    return node;
  }

  const ast::ScalarTypeDefinition* ParseScalarTypeExtension() {
    auto* node = Make<ast::ScalarTypeDefinition>(NodeKind::kScalarTypeExtension, token_.start);
    ExpectKeyword("extend");
    ExpectKeyword("scalar");
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    if (node->directives.empty()) Unexpected();
    return node;
  }

  template <typename T>
  const T* ParseImplementingTypeExtension(NodeKind kind, std::string_view keyword) {
    auto* node = Make<T>(kind, token_.start);
    ExpectKeyword("extend");
    ExpectKeyword(keyword);
    node->name = ParseName();
    node->interfaces = ParseImplementsInterfaces();
    node->directives = ParseDirectives(/*is_const=*/true);
    node->fields = ParseFieldsDefinition();
    if (node->interfaces.empty() && node->directives.empty() && node->fields.empty()) {
      Unexpected();
    }
    return node;
  }

  const ast::UnionTypeDefinition* ParseUnionTypeExtension() {
    auto* node = Make<ast::UnionTypeDefinition>(NodeKind::kUnionTypeExtension, token_.start);
    ExpectKeyword("extend");
    ExpectKeyword("union");
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    node->types = ParseUnionMemberTypes();
    if (node->directives.empty() && node->types.empty()) Unexpected();
    return node;
  }

  const ast::EnumTypeDefinition* ParseEnumTypeExtension() {
    auto* node = Make<ast::EnumTypeDefinition>(NodeKind::kEnumTypeExtension, token_.start);
    ExpectKeyword("extend");
    ExpectKeyword("enum");
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    node->values = ParseEnumValuesDefinition();
    if (node->directives.empty() && node->values.empty()) Unexpected();
    return node;
  }

  const ast::InputObjectTypeDefinition* ParseInputObjectTypeExtension() {
    auto* node =
        Make<ast::InputObjectTypeDefinition>(NodeKind::kInputObjectTypeExtension, token_.start);
    ExpectKeyword("extend");
    ExpectKeyword("input");
    node->name = ParseName();
    node->directives = ParseDirectives(/*is_const=*/true);
    node->fields = ParseInputFieldsDefinition();
    if (node->directives.empty() && node->fields.empty()) Unexpected();
    return node;
  }

  Lexer lexer_;
  Arena* arena_;
  const ParseOptions& options_;
  Token token_;  // the current token; starts as <SOF>
  Token lookahead_;
  bool has_lookahead_ = false;
  std::size_t token_count_ = 0;
  std::size_t node_count_ = 0;
  std::size_t depth_ = 0;
  std::size_t list_type_depth_ = 0;
  std::vector<const void*> scratch_;
  std::vector<Name> names_;
};

}  // namespace

std::unique_ptr<const ast::Document> Parse(std::string source, const ParseOptions& options,
                                           Error* error) {
  if (source.size() >= std::numeric_limits<std::uint32_t>::max()) {
    *error = Error{"Syntax Error: Document is too large. Parsing aborted.", {}, {}, {}};
    return nullptr;
  }
  std::unique_ptr<ast::Document> document = ast::DocumentBuilder::Create(std::move(source));
  Parser parser(document->source(), ast::DocumentBuilder::arena(document.get()), options);
  try {
    List<const ast::Definition*> definitions = parser.ParseDocument();
    ast::DocumentBuilder::Finish(document.get(), definitions, parser.token_count(),
                                 parser.node_count());
  } catch (const SyntaxFailure& failure) {
    *error = Error{"Syntax Error: " + failure.message,
                   {LocateOffset(document->source(), failure.offset)},
                   {},
                   {}};
    return nullptr;
  }
  return document;
}

}  // namespace netgraph::graphql
