// The GraphQL abstract syntax tree: executable documents (operations, fragments) and the type
// system language (schema, types, directives, and every `extend` form), September 2025 edition.
//
// Ownership: a Document owns its source text and an arena that holds every node. Nodes are plain
// structs that point to each other and hold std::string_view into the source text (names,
// numbers, strings without escapes) or into the arena (unescaped strings, block string values).
// Everything stays valid, and immutable, for as long as the Document lives; nothing is freed
// before it. A parsed Document is a handful of large allocations.
//
// Walking: every node starts with `kind` (what it is) and `offset` (the byte offset of its first
// token, which for a definition with a description is the description, as in graphql-js). Switch
// on `kind` and static_cast, or use `node.As<T>()`, which returns nullptr when the node is not a
// T. Child lists are ast::List<const T*> (a pointer and a count): iterate them with range-for.
// Optional children are null pointers; an absent Name has an empty value. For a generic
// depth-first walk in graphql-js's order, see visitor.h.
//
// Locations: Document::Locate(offset) gives the graphql-js line and column of any node or name
// (source_location.h has LineIndex for many lookups).
//
// Ids: each node has a dense `id` in [0, Document::node_count()), so passes over a document can
// keep per-node data in a vector instead of a hash map.
#ifndef NETGRAPH_CORE_GRAPHQL_LANGUAGE_AST_H_
#define NETGRAPH_CORE_GRAPHQL_LANGUAGE_AST_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/graphql/language/arena.h"
#include "core/graphql/language/operation_type.h"
#include "core/graphql/language/source_location.h"

namespace netgraph::graphql::ast {

enum class NodeKind : std::uint8_t {
  // Executable definitions and what they contain.
  kOperationDefinition,
  kVariableDefinition,
  kSelectionSet,
  kField,
  kArgument,
  kFragmentSpread,
  kInlineFragment,
  kFragmentDefinition,
  // Values.
  kVariable,
  kIntValue,
  kFloatValue,
  kStringValue,
  kBooleanValue,
  kNullValue,
  kEnumValue,
  kListValue,
  kObjectValue,
  kObjectField,
  // Directives and type references.
  kDirective,
  kNamedType,
  kListType,
  kNonNullType,
  // Type system definitions.
  kSchemaDefinition,
  kOperationTypeDefinition,
  kScalarTypeDefinition,
  kObjectTypeDefinition,
  kFieldDefinition,
  kInputValueDefinition,
  kInterfaceTypeDefinition,
  kUnionTypeDefinition,
  kEnumTypeDefinition,
  kEnumValueDefinition,
  kInputObjectTypeDefinition,
  kDirectiveDefinition,
  // Type system extensions.
  kSchemaExtension,
  kScalarTypeExtension,
  kObjectTypeExtension,
  kInterfaceTypeExtension,
  kUnionTypeExtension,
  kEnumTypeExtension,
  kInputObjectTypeExtension,
};

// graphql-js's Kind string for a node kind ("Field", "ObjectTypeExtension", ...).
std::string_view NodeKindName(NodeKind kind);

// The keyword of an operation type: "query", "mutation" or "subscription".
std::string_view OperationTypeName(OperationType operation);

// An immutable array in the document's arena.
template <typename T>
class List {
 public:
  List() = default;
  List(const T* data, std::uint32_t size) : data_(data), size_(size) {}
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }

 private:
  const T* data_ = nullptr;
  std::uint32_t size_ = 0;
};

// A name with its position. Not a node of its own (graphql-js's NameNode): errors that point at
// a name use `offset`.
struct Name {
  std::string_view value;
  std::uint32_t offset = 0;
  bool empty() const { return value.empty(); }
};

struct Node {
  NodeKind kind;
  std::uint32_t offset;  // byte offset of the node's first token in the source
  std::uint32_t id;      // dense, unique within the document

  // This node as a T when it is one (T::Matches(kind)), else nullptr.
  template <typename T>
  const T* As() const {
    return T::Matches(kind) ? static_cast<const T*>(this) : nullptr;
  }
};

struct Directive;
struct SelectionSet;
struct Value;
struct Type;
struct NamedType;
struct StringValue;

// ---------------------------------------------------------------------------------------------
// Executable definitions.

// Every top-level definition of a document.
struct Definition : Node {
  static bool Matches(NodeKind) { return true; }
  // Operations and fragments.
  bool is_executable() const {
    return kind == NodeKind::kOperationDefinition || kind == NodeKind::kFragmentDefinition;
  }
};

struct VariableDefinition;

struct OperationDefinition : Definition {
  static bool Matches(NodeKind k) { return k == NodeKind::kOperationDefinition; }
  OperationType operation;  // kQuery for the `{ ... }` shorthand
  Name name;                // empty for an anonymous operation
  List<const VariableDefinition*> variable_definitions;
  List<const Directive*> directives;
  const SelectionSet* selection_set;
};

struct Variable;

struct VariableDefinition : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kVariableDefinition; }
  const Variable* variable;
  const Type* type;
  const Value* default_value;  // null when absent; a constant value
  List<const Directive*> directives;
};

struct Selection;

struct SelectionSet : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kSelectionSet; }
  List<const Selection*> selections;  // never empty
};

// A Field, FragmentSpread or InlineFragment.
struct Selection : Node {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kField || k == NodeKind::kFragmentSpread ||
           k == NodeKind::kInlineFragment;
  }
  List<const Directive*> directives;
};

struct Argument;

struct Field : Selection {
  static bool Matches(NodeKind k) { return k == NodeKind::kField; }
  Name alias;  // empty without an alias
  Name name;
  List<const Argument*> arguments;
  const SelectionSet* selection_set;  // null for a leaf selection
  // The key of this field in the response: the alias, else the name.
  std::string_view response_key() const { return alias.empty() ? name.value : alias.value; }
};

// `name: value` in a field's or a directive's arguments.
struct Argument : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kArgument; }
  Name name;
  const Value* value;
};

struct FragmentSpread : Selection {
  static bool Matches(NodeKind k) { return k == NodeKind::kFragmentSpread; }
  Name name;
};

struct InlineFragment : Selection {
  static bool Matches(NodeKind k) { return k == NodeKind::kInlineFragment; }
  const NamedType* type_condition;  // null without `on Type`
  const SelectionSet* selection_set;
};

struct FragmentDefinition : Definition {
  static bool Matches(NodeKind k) { return k == NodeKind::kFragmentDefinition; }
  Name name;
  const NamedType* type_condition;
  List<const Directive*> directives;
  const SelectionSet* selection_set;
};

// ---------------------------------------------------------------------------------------------
// Values (literals). A constant value (default values, directives in type system definitions)
// never contains a Variable.

struct Value : Node {
  static bool Matches(NodeKind k) {
    return k >= NodeKind::kVariable && k <= NodeKind::kObjectValue;
  }
};

struct Variable : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kVariable; }
  Name name;  // without the `$`; offset is the name's
};

struct IntValue : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kIntValue; }
  std::string_view value;  // the literal as written: "-12"
};

struct FloatValue : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kFloatValue; }
  std::string_view value;  // the literal as written: "1.5e3"
};

struct StringValue : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kStringValue; }
  std::string_view value;  // the value: escapes resolved, block strings dedented
  bool block;              // written as a """block string"""
};

struct BooleanValue : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kBooleanValue; }
  bool value;
};

struct NullValue : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kNullValue; }
};

struct EnumValue : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kEnumValue; }
  std::string_view value;
};

struct ListValue : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kListValue; }
  List<const Value*> values;
};

struct ObjectField;

struct ObjectValue : Value {
  static bool Matches(NodeKind k) { return k == NodeKind::kObjectValue; }
  List<const ObjectField*> fields;
};

struct ObjectField : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kObjectField; }
  Name name;
  const Value* value;
};

// ---------------------------------------------------------------------------------------------
// Directives and type references.

struct Directive : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kDirective; }
  Name name;  // without the `@`
  List<const Argument*> arguments;
};

struct Type : Node {
  static bool Matches(NodeKind k) {
    return k >= NodeKind::kNamedType && k <= NodeKind::kNonNullType;
  }
};

struct NamedType : Type {
  static bool Matches(NodeKind k) { return k == NodeKind::kNamedType; }
  Name name;
};

struct ListType : Type {
  static bool Matches(NodeKind k) { return k == NodeKind::kListType; }
  const Type* type;
};

struct NonNullType : Type {
  static bool Matches(NodeKind k) { return k == NodeKind::kNonNullType; }
  const Type* type;  // a NamedType or a ListType
};

// ---------------------------------------------------------------------------------------------
// Type system definitions and extensions. An extension uses the same struct as its definition
// (with its own kind, and no description).

struct OperationTypeDefinition;

// `schema { ... }` (kSchemaDefinition) and `extend schema ...` (kSchemaExtension).
struct SchemaDefinition : Definition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kSchemaDefinition || k == NodeKind::kSchemaExtension;
  }
  const StringValue* description;  // null when absent, always for an extension
  List<const Directive*> directives;
  List<const OperationTypeDefinition*> operation_types;
};

// `query: Query` inside `schema { }`.
struct OperationTypeDefinition : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kOperationTypeDefinition; }
  OperationType operation;
  const NamedType* type;
};

// Any of the six type definitions or six type extensions.
struct TypeDefinition : Definition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kScalarTypeDefinition || k == NodeKind::kObjectTypeDefinition ||
           k == NodeKind::kInterfaceTypeDefinition || k == NodeKind::kUnionTypeDefinition ||
           k == NodeKind::kEnumTypeDefinition || k == NodeKind::kInputObjectTypeDefinition ||
           (k >= NodeKind::kScalarTypeExtension && k <= NodeKind::kInputObjectTypeExtension);
  }
  bool is_extension() const { return kind >= NodeKind::kScalarTypeExtension; }
  const StringValue* description;  // null when absent, always for an extension
  Name name;
  List<const Directive*> directives;
};

struct ScalarTypeDefinition : TypeDefinition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kScalarTypeDefinition || k == NodeKind::kScalarTypeExtension;
  }
};

struct FieldDefinition;

// What objects and interfaces share: `implements` and fields.
struct ImplementingTypeDefinition : TypeDefinition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kObjectTypeDefinition || k == NodeKind::kObjectTypeExtension ||
           k == NodeKind::kInterfaceTypeDefinition || k == NodeKind::kInterfaceTypeExtension;
  }
  List<const NamedType*> interfaces;
  List<const FieldDefinition*> fields;
};

struct ObjectTypeDefinition : ImplementingTypeDefinition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kObjectTypeDefinition || k == NodeKind::kObjectTypeExtension;
  }
};

struct InterfaceTypeDefinition : ImplementingTypeDefinition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kInterfaceTypeDefinition || k == NodeKind::kInterfaceTypeExtension;
  }
};

struct InputValueDefinition;

struct FieldDefinition : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kFieldDefinition; }
  const StringValue* description;
  Name name;
  List<const InputValueDefinition*> arguments;
  const Type* type;
  List<const Directive*> directives;
};

// An argument definition, or a field of an input object.
struct InputValueDefinition : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kInputValueDefinition; }
  const StringValue* description;
  Name name;
  const Type* type;
  const Value* default_value;  // null when absent; a constant value
  List<const Directive*> directives;
};

struct UnionTypeDefinition : TypeDefinition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kUnionTypeDefinition || k == NodeKind::kUnionTypeExtension;
  }
  List<const NamedType*> types;
};

struct EnumValueDefinition;

struct EnumTypeDefinition : TypeDefinition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kEnumTypeDefinition || k == NodeKind::kEnumTypeExtension;
  }
  List<const EnumValueDefinition*> values;
};

struct EnumValueDefinition : Node {
  static bool Matches(NodeKind k) { return k == NodeKind::kEnumValueDefinition; }
  const StringValue* description;
  Name name;
  List<const Directive*> directives;
};

struct InputObjectTypeDefinition : TypeDefinition {
  static bool Matches(NodeKind k) {
    return k == NodeKind::kInputObjectTypeDefinition || k == NodeKind::kInputObjectTypeExtension;
  }
  List<const InputValueDefinition*> fields;
};

struct DirectiveDefinition : Definition {
  static bool Matches(NodeKind k) { return k == NodeKind::kDirectiveDefinition; }
  const StringValue* description;
  Name name;  // without the `@`
  List<const InputValueDefinition*> arguments;
  bool repeatable;
  List<Name> locations;  // each a valid DirectiveLocation name ("FIELD", ...)
};

// The directives applied to `node`, or nullptr for a kind of node that takes none.
const List<const Directive*>* DirectivesOf(const Node& node);

// ---------------------------------------------------------------------------------------------

// A parsed document (see the ownership note at the top). Created by Parse (parser.h).
class Document {
 public:
  Document(const Document&) = delete;
  Document& operator=(const Document&) = delete;

  std::string_view source() const { return source_; }
  const List<const Definition*>& definitions() const { return definitions_; }
  // Lexical tokens read, as graphql-js counts them for maxTokens (comments and <EOF> excluded).
  std::size_t token_count() const { return token_count_; }
  // Ids run from 0 to node_count() - 1.
  std::size_t node_count() const { return node_count_; }
  // The memory the document holds: its source text and the arena blocks of its nodes.
  std::size_t held_bytes() const { return source_.capacity() + arena_.bytes_reserved(); }
  // The graphql-js line and column of a byte offset of this document (a linear scan).
  SourceLocation Locate(std::uint32_t offset) const;

 private:
  friend class DocumentBuilder;
  explicit Document(std::string source);

  std::string source_;
  Arena arena_;
  List<const Definition*> definitions_;
  std::size_t token_count_ = 0;
  std::size_t node_count_ = 0;
};

}  // namespace netgraph::graphql::ast

#endif  // NETGRAPH_CORE_GRAPHQL_LANGUAGE_AST_H_
