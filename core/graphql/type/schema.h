// The GraphQL type system as validation and execution use it: named types (scalars, objects,
// interfaces, unions, enums, input objects), their fields, arguments and values, directives, the
// root operation types, and the questions the spec asks of them (is this an input type, is A a
// subtype of B, can these two types overlap...). It mirrors graphql-js's GraphQLSchema.
//
// A Schema is built from SDL by BuildSchema (build_schema.h), then immutable: share it freely
// between threads. Every pointer and string_view it hands out lives as long as the Schema.
//
// Lookups are hash lookups: Schema::FindType by name, NamedType::FindField / FindInputField /
// FindEnumValue / Field::FindArgument by name. Schema::FieldDef answers what graphql-js's
// getFieldDef answers, meta fields included: `__typename` on every object, interface and union,
// `__schema` and `__type(name:)` on the query type. Meta fields are ordinary Field objects owned
// by the schema (never listed in a type's `fields`).
//
// The introspection types (__Schema, __Type, __TypeKind, __Field, __InputValue, __EnumValue,
// __Directive, __DirectiveLocation, September 2025 edition) are ordinary named types of every
// schema (is_introspection()), listed in types() after the schema's own types, as in graphql-js.
// Like graphql-js, types() holds only the types the schema references: a built-in scalar that no
// field, argument or directive uses (say Float) is absent, and FindType does not find it.
#ifndef NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_H_
#define NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/graphql/language/ast.h"
#include "core/graphql/language/directive_location.h"
#include "core/graphql/language/operation_type.h"
#include "core/graphql/type/type_ref.h"
#include "core/graphql/utilities/name_map.h"
#include "core/graphql/utilities/value.h"

namespace netgraph::graphql {

enum class TypeKind : std::uint8_t { kScalar, kObject, kInterface, kUnion, kEnum, kInputObject };

// The __TypeKind name of a kind: "SCALAR", "OBJECT", ... "INPUT_OBJECT".
std::string_view TypeKindName(TypeKind kind);

// The deprecation reason @deprecated gives without a `reason` argument.
inline constexpr std::string_view kDefaultDeprecationReason = "No longer supported";

// An argument of a field or directive, or a field of an input object.
struct InputValue {
  std::string_view name;
  std::optional<std::string_view> description;
  TypeRef type;
  // The default value coerced to `type` (graphql-js's defaultValue); nullopt when there is none or
  // the literal does not coerce (graphql-js then has none either).
  std::optional<Value> default_value;
  const ast::Value* default_literal = nullptr;         // the default as written, null without one
  std::optional<std::string_view> deprecation_reason;  // set when @deprecated
  const ast::InputValueDefinition* ast = nullptr;      // null for built-ins

  // Non-Null without a default value: must be given.
  bool is_required() const { return type.is_non_null() && !default_value.has_value(); }
  bool is_deprecated() const { return deprecation_reason.has_value(); }
};

struct Field {
  std::string_view name;
  std::optional<std::string_view> description;
  TypeRef type;
  std::vector<InputValue> arguments;
  std::optional<std::string_view> deprecation_reason;
  const ast::FieldDefinition* ast = nullptr;  // null for built-ins and meta fields

  const InputValue* FindArgument(std::string_view argument_name) const;
  bool is_deprecated() const { return deprecation_reason.has_value(); }
};

struct EnumValue {
  std::string_view name;
  std::optional<std::string_view> description;
  std::optional<std::string_view> deprecation_reason;
  const ast::EnumValueDefinition* ast = nullptr;

  bool is_deprecated() const { return deprecation_reason.has_value(); }
};

struct Directive {
  std::string_view name;  // without the `@`
  std::optional<std::string_view> description;
  std::vector<DirectiveLocation> locations;
  std::vector<InputValue> arguments;
  bool repeatable = false;
  bool builtin =
      false;  // @include, @skip, @deprecated, @specifiedBy, @oneOf as the spec defines them
  const ast::DirectiveDefinition* ast = nullptr;

  const InputValue* FindArgument(std::string_view argument_name) const;
  bool HasLocation(DirectiveLocation location) const;
};

// @include, @skip, @deprecated, @specifiedBy or @oneOf (graphql-js's isSpecifiedDirective).
bool IsSpecifiedDirectiveName(std::string_view name);

// A named type. Only the members of its kind are filled in.
class NamedType {
 public:
  TypeKind kind = TypeKind::kScalar;
  std::string_view name;
  std::optional<std::string_view> description;

  // kObject and kInterface: fields in definition order (extensions' after), and the interfaces
  // it declares it implements (as written; schema validation checks they are interfaces).
  std::vector<Field> fields;
  std::vector<const NamedType*> interfaces;
  // kUnion: member types in declaration order (as written; validation checks they are objects).
  std::vector<const NamedType*> members;
  // kEnum.
  std::vector<EnumValue> enum_values;
  // kInputObject.
  std::vector<InputValue> input_fields;
  bool one_of = false;  // @oneOf
  // kScalar.
  std::optional<std::string_view> specified_by_url;  // @specifiedBy(url:)

  // The definition and extensions it came from; null and empty for built-in types.
  const ast::TypeDefinition* ast = nullptr;
  std::vector<const ast::TypeDefinition*> extension_asts;

  const Field* FindField(std::string_view field_name) const;  // no meta fields: see FieldDef
  const InputValue* FindInputField(std::string_view field_name) const;
  const EnumValue* FindEnumValue(std::string_view value_name) const;

  // String, Int, Float, Boolean or ID.
  bool is_specified_scalar() const { return builtin_ && kind == TypeKind::kScalar; }
  // __Schema, __Type... (built in, and named with the reserved "__" prefix).
  bool is_introspection() const { return builtin_ && kind != TypeKind::kScalar; }
  // Position in Schema::types().
  std::uint32_t index() const { return index_; }

 private:
  friend class Schema;
  friend class SchemaBuilder;
  bool builtin_ = false;
  std::uint32_t index_ = 0;
  NameMap<std::uint32_t> member_index_;  // fields, input fields or enum values, by name
  std::vector<std::uint64_t> subtypes_;  // abstract types: bit per type index of its subtypes
};

class Schema {
 public:
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;
  ~Schema();

  // A schema with no types and no directives: what an SDL document is validated against before
  // its schema exists (ValidateSdl in core/graphql/validation/validate.h).
  static const Schema& Empty();

  // The types of the schema in graphql-js's type map order (which introspection's __schema.types
  // and PrintSchema follow), built-in and introspection types included.
  const std::vector<const NamedType*>& types() const { return types_; }
  const NamedType* FindType(std::string_view name) const;

  const NamedType* query_type() const { return query_type_; }
  const NamedType* mutation_type() const { return mutation_type_; }
  const NamedType* subscription_type() const { return subscription_type_; }
  const NamedType* RootType(OperationType operation) const;
  std::optional<std::string_view> description() const { return description_; }
  // The `schema { }` definition and `extend schema` extensions of the SDL (null and empty when
  // the roots come from the default names).
  const ast::SchemaDefinition* ast() const { return ast_; }
  const std::vector<const ast::SchemaDefinition*>& extension_asts() const {
    return extension_asts_;
  }

  // The schema's directives: those the SDL defines, then the built-in ones it does not redefine.
  const std::vector<const Directive*>& directives() const { return directives_; }
  const Directive* FindDirective(std::string_view name) const;

  // The object types that an abstract type may be at runtime: a union's members, or the objects
  // implementing an interface (in types() order). Empty for other kinds.
  const std::vector<const NamedType*>& PossibleTypes(const NamedType& abstract_type) const;
  // The interfaces that declare they implement `interface_type`.
  const std::vector<const NamedType*>& InterfaceImplementations(
      const NamedType& interface_type) const;
  // Whether `maybe_subtype` is a member of the union, or implements the interface,
  // `abstract_type` (graphql-js's schema.isSubType). Constant time.
  bool IsSubType(const NamedType& abstract_type, const NamedType& maybe_subtype) const;

  // The field `field_name` of `parent_type` as graphql-js's getFieldDef finds it: the meta fields
  // __schema and __type on the query type, __typename on any composite type, else the type's own
  // field. nullptr when there is none.
  const Field* FieldDef(const NamedType& parent_type, std::string_view field_name) const;
  const Field& schema_meta_field() const { return *schema_meta_field_; }      // __schema
  const Field& type_meta_field() const { return *type_meta_field_; }          // __type
  const Field& typename_meta_field() const { return *typename_meta_field_; }  // __typename

 private:
  friend class SchemaBuilder;
  Schema();

  // Owned storage: the parsed SDL and built-in documents that names point into, and the types
  // and directives (including built-ins the schema does not reference).
  std::vector<std::unique_ptr<const ast::Document>> documents_;
  std::vector<std::unique_ptr<NamedType>> owned_types_;
  std::vector<std::unique_ptr<Directive>> owned_directives_;
  std::vector<Field> meta_fields_;

  std::vector<const NamedType*> types_;
  NameMap<const NamedType*> type_index_;
  std::vector<const Directive*> directives_;
  const NamedType* query_type_ = nullptr;
  const NamedType* mutation_type_ = nullptr;
  const NamedType* subscription_type_ = nullptr;
  std::optional<std::string_view> description_;
  const ast::SchemaDefinition* ast_ = nullptr;
  std::vector<const ast::SchemaDefinition*> extension_asts_;
  const Field* schema_meta_field_ = nullptr;
  const Field* type_meta_field_ = nullptr;
  const Field* typename_meta_field_ = nullptr;
  // Per type index: possible object types (abstract types) and implementing interfaces.
  std::vector<std::vector<const NamedType*>> possible_types_;
  std::vector<std::vector<const NamedType*>> interface_implementations_;
};

// ---- Questions about types (graphql-js's type predicates and comparators).

inline bool IsLeafType(const NamedType& type) {
  return type.kind == TypeKind::kScalar || type.kind == TypeKind::kEnum;
}
inline bool IsCompositeType(const NamedType& type) {
  return type.kind == TypeKind::kObject || type.kind == TypeKind::kInterface ||
         type.kind == TypeKind::kUnion;
}
inline bool IsAbstractType(const NamedType& type) {
  return type.kind == TypeKind::kInterface || type.kind == TypeKind::kUnion;
}
// Scalars, enums and input objects, however wrapped.
bool IsInputType(TypeRef type);
// Scalars, objects, interfaces, unions and enums, however wrapped.
bool IsOutputType(TypeRef type);

// Same named type under the same wrappers.
inline bool IsEqualType(TypeRef a, TypeRef b) { return a == b; }
// Whether a value of `maybe_subtype` is always a valid `super_type` (covariance: Non-Null fits
// nullable, an object fits an interface it implements or a union that has it).
bool IsTypeSubTypeOf(const Schema& schema, TypeRef maybe_subtype, TypeRef super_type);
// Whether some object type could be both `a` and `b` (graphql-js's doTypesOverlap).
bool DoTypesOverlap(const Schema& schema, const NamedType& a, const NamedType& b);

// The schema type an AST type reference denotes (graphql-js's typeFromAST); invalid when its
// named type is not in the schema.
TypeRef TypeFromAst(const Schema& schema, const ast::Type& type);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_TYPE_SCHEMA_H_
