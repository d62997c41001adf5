// Typed conversions between GraphQL input literals (AST values) and Values, as graphql-js does
// them: its scalars' parseLiteral, valueFromAST, getArgumentValues, and print(astFromValue()).
// Schema building uses them for default values and directive arguments; validation and
// execution use them for argument literals and introspection's `defaultValue`.
//
// Coerced values: Int is Value::Int, Float is Value::Float, String and ID are Value::String, an
// enum value is Value::String holding its name, an input object is a Value::Object whose fields
// follow the type's field order, a list is a Value::List. A custom scalar (DateTime, ...) takes
// its literal as is (graphql-js's valueFromASTUntyped): strings and enum names as strings,
// numbers as Int or Float, lists and objects structurally.
//
// `variables`, where taken, is an Object of coerced variable values (absent variables missing),
// or nullptr when there are none.
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_INPUT_LITERAL_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_INPUT_LITERAL_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/graphql/language/ast.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/type/type_ref.h"
#include "core/graphql/utilities/value.h"

namespace netgraph::graphql {

// A scalar's or enum's parseLiteral: the value, or graphql-js's message for a literal of the
// wrong kind ("Int cannot represent non-integer value: 1.5", "Value \"X\" does not exist in
// \"Color\" enum. Did you mean the enum value \"RED\"?").
struct LeafLiteral {
  std::optional<Value> value;
  std::string error;  // set when !value
};
LeafLiteral ParseLeafLiteral(const NamedType& leaf_type, const ast::Value& literal,
                             const Value* variables);

// graphql-js's valueFromAST: the literal coerced to `type`, or nullopt when it does not coerce
// (wrong kind, null for Non-Null, unknown input field missing, a missing variable where a value
// is required, a @oneOf object without exactly one non-null field).
std::optional<Value> ValueFromLiteral(const ast::Value& literal, TypeRef type,
                                      const Value* variables);

// graphql-js's getArgumentValues: the arguments of a field or directive node coerced against
// their definitions (defaults applied, absent optional arguments left out, in definition order).
// On failure returns nullopt and fills *error with graphql-js's message and the offset of the
// node it names (`node_offset` is the field or directive node's own offset).
struct ArgumentError {
  std::string message;
  std::uint32_t offset = 0;
};
std::optional<Value> CoerceArgumentValues(const std::vector<InputValue>& definitions,
                                          const ast::List<const ast::Argument*>& arguments,
                                          std::uint32_t node_offset, const Value* variables,
                                          ArgumentError* error);

// graphql-js's print(astFromValue(value, type)): a coerced value written as a literal of `type`
// ("100", "\"abc\"", "RED", "[1, 2]", "{a: 1}"), as introspection's __InputValue.defaultValue and
// printSchema show default values. nullopt where astFromValue gives nothing (null for a Non-Null
// type, a value the type cannot serialise).
std::optional<std::string> PrintValueAsLiteral(const Value& value, TypeRef type);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_INPUT_LITERAL_H_
