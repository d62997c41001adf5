#include "core/graphql/execution/bindings.h"

namespace netgraph::graphql {

Bindings::Bindings(std::unique_ptr<const Schema> built_schema) : schema(std::move(built_schema)) {
  leaf_kinds.resize(schema->types().size(), LeafKind::kCustom);
  for (const NamedType* type : schema->types()) {
    if (IsLeafType(*type)) leaf_kinds[type->index()] = LeafKindOf(*type);
  }
}

const Resolver* Bindings::FindResolver(const Field& field) const {
  auto found = resolvers.find(&field);
  return found == resolvers.end() ? nullptr : &found->second;
}

const Resolver* Bindings::FindSubscribe(const Field& field) const {
  auto found = subscribers.find(&field);
  return found == subscribers.end() ? nullptr : &found->second;
}

const TypeResolver* Bindings::FindTypeResolver(const NamedType& abstract_type) const {
  auto found = type_resolvers.find(&abstract_type);
  return found == type_resolvers.end() ? nullptr : &found->second;
}

}  // namespace netgraph::graphql
