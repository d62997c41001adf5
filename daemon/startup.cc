#include "daemon/startup.h"

#include <utility>

#include "core/log.h"

namespace netgraph::daemon {

Result<LoadedService> LoadService(config::Environment& env,
                                  const std::function<Status(api::ServiceConfig&)>& adjust) {
  Result<api::ServiceConfig> config = api::ServiceConfig::FromEnvironment(env);
  for (const std::string& warning : env.warnings()) log::Warn(warning);
  if (Status s = env.status(); !s.ok()) return s;
  NETGRAPH_RETURN_IF_ERROR(config);
  if (adjust) {
    if (Status s = adjust(config.value()); !s.ok()) return s;
  }
  Result<std::unique_ptr<api::Service>> service = api::Service::Create(*config);
  NETGRAPH_RETURN_IF_ERROR(service);
  return LoadedService{std::move(config.value()), std::move(service.value())};
}

}  // namespace netgraph::daemon
