// What /health reports (both daemons serve it): whether the service can serve, from its
// PostgreSQL connection and its Redis client (Service::CheckHealth, core/api/service.h).
#ifndef NETGRAPH_CORE_API_HEALTH_H_
#define NETGRAPH_CORE_API_HEALTH_H_

#include <string>

namespace netgraph::api {

// The service can serve while PostgreSQL answers; Redis only delays updates.
struct Health {
  bool database_connected = false;
  std::string database_version;
  std::string database_error;
  bool redis_connected = false;
  std::string redis_error;

  bool serving() const { return database_connected; }
  // The public body: connection states and the database version, no error details.
  std::string ToJson() const;
};

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_HEALTH_H_
