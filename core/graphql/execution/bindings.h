// What the executor needs to know of an engine besides the schema: the resolvers bound to fields
// (the application's and introspection's), the subscribe resolvers of subscription fields, the
// type resolvers of abstract types, and how each leaf type serialises. Filled while the engine is
// set up, read-only while requests run.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_BINDINGS_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_BINDINGS_H_

#include <memory>
#include <unordered_map>
#include <vector>

#include "core/graphql/engine.h"
#include "core/graphql/execution/leaf_serializer.h"
#include "core/graphql/type/schema.h"

namespace netgraph::graphql {

struct Bindings {
  explicit Bindings(std::unique_ptr<const Schema> built_schema);

  const Resolver* FindResolver(const Field& field) const;
  const Resolver* FindSubscribe(const Field& field) const;
  const TypeResolver* FindTypeResolver(const NamedType& abstract_type) const;
  LeafKind leaf_kind(const NamedType& leaf_type) const { return leaf_kinds[leaf_type.index()]; }

  std::unique_ptr<const Schema> schema;
  // Keyed by the schema's own Field and NamedType objects.
  std::unordered_map<const Field*, Resolver> resolvers;
  std::unordered_map<const Field*, Resolver> subscribers;
  std::unordered_map<const NamedType*, TypeResolver> type_resolvers;
  std::vector<LeafKind> leaf_kinds;  // by type index; meaningful for leaf types
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_BINDINGS_H_
