// Binds every field of the service schema that needs more than the default resolver. Resolvers
// translate between GraphQL values and domain calls; the rules live in core/domain.
#ifndef NETGRAPH_CORE_API_INTERNAL_RESOLVERS_H_
#define NETGRAPH_CORE_API_INTERNAL_RESOLVERS_H_

#include "core/graphql/engine.h"
#include "core/status.h"

namespace netgraph::api {

Status BindResolvers(graphql::Engine& engine);

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_INTERNAL_RESOLVERS_H_
