#include "core/api/health.h"

#include <nlohmann/json.hpp>

#include "core/version.h"

namespace netgraph::api {

std::string Health::ToJson() const {
  // The errors stay in the logs: /health is public and they name hosts and paths.
  nlohmann::json database = {{"connected", database_connected}};
  if (database_connected) database["version"] = database_version;
  nlohmann::json redis = {{"connected", redis_connected}};
  nlohmann::json body = {
      {"status", serving() ? (redis_connected ? "ok" : "degraded") : "unavailable"},
      {"postgres", database},
      {"redis", redis},
      {"version", Version()}};
  return body.dump();
}

}  // namespace netgraph::api
