// The built-in part of every schema, as SDL: the specified scalars (String, Int, Float, Boolean,
// ID), the specified directives (@include, @skip, @deprecated, @specifiedBy, @oneOf), the
// introspection types of the September 2025 edition, and a holder type for the meta fields.
// Descriptions are graphql-js 16's, word for word, so that introspection answers match it.
#ifndef NETGRAPH_CORE_GRAPHQL_TYPE_BUILTINS_H_
#define NETGRAPH_CORE_GRAPHQL_TYPE_BUILTINS_H_

#include <string_view>

namespace netgraph::graphql {

std::string_view BuiltinsSdl();

// The type in BuiltinsSdl() whose fields are the meta fields.
inline constexpr std::string_view kMetaFieldsTypeName = "__MetaFields";

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_TYPE_BUILTINS_H_
