#include "core/api/resolvers.h"

#include "core/api/service.h"

namespace netgraph::api {
namespace {

using graphql::ResolveInfo;
using graphql::ResolverResult;
using graphql::Value;

Service& ServiceOf(const ResolveInfo& info) {
  return static_cast<RequestScope*>(info.context)->service();
}

ResolverResult GraphdbStatus(const ResolveInfo& info) {
  Result<std::string> version = ServiceOf(info).database().ServerVersion();
  return Value::MakeObject({
      {"connected", Value::Boolean(version.ok())},
      {"version", version.ok() ? Value::String(*version) : Value()},
  });
}

}  // namespace

Status BindResolvers(graphql::Engine& engine) {
  return engine.BindResolver("Query.graphdbStatus", GraphdbStatus);
}

}  // namespace netgraph::api
