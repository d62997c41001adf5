// Result coercion of leaf values (the spec's "Result Coercion", with graphql-js 16's serialize()
// of each scalar): Int is a 32-bit integer (true is 1, "12" is 12, 1.5 is an error), Float is a
// finite number (NaN is an error), String takes strings, booleans and finite numbers, Boolean takes
// booleans and finite numbers, ID takes strings and integers, an enum value must be one of its
// type's names, and a custom scalar (DateTime...) passes any value through. Failures carry
// graphql-js's message ("Int cannot represent non-integer value: 1.5").
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_LEAF_SERIALIZER_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_LEAF_SERIALIZER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/graphql/execution/response_buffer.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/utilities/value.h"
#include "core/status.h"

namespace netgraph::graphql {

// How a leaf type serialises, decided once per type.
enum class LeafKind : std::uint8_t { kInt, kFloat, kString, kBoolean, kId, kEnum, kCustom };
LeafKind LeafKindOf(const NamedType& leaf_type);

// Appends the JSON of `value` (not null) as a `type` result. A value the type cannot represent is
// InvalidArgument with graphql-js's message ("Int cannot represent ..."), and nothing is appended.
Status SerializeLeaf(const NamedType& type, LeafKind kind, const Value& value, ResponseBuffer* out);

// JavaScript's Number(text): surrounding white space ignored, "" is 0, decimal, 0x/0o/0b and
// Infinity forms; nullopt where JavaScript gives NaN.
std::optional<double> JsStringToNumber(std::string_view text);

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_LEAF_SERIALIZER_H_
