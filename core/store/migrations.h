// Versioned schema migrations. Each file core/store/migrations/NNNN_description.sql is one version,
// compiled into the binary; Migrate applies the missing ones in version order, each in its own
// transaction, and records them in schema_migrations. Concurrent runs serialise on an advisory
// lock, so starting several processes that all migrate is safe.
#ifndef NETGRAPH_CORE_STORE_MIGRATIONS_H_
#define NETGRAPH_CORE_STORE_MIGRATIONS_H_

#include <string>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

struct Migration {
  int version;
  std::string name;  // the file name
};

// Every migration this binary knows, in version order.
std::vector<Migration> KnownMigrations();

// Applies the missing migrations and returns the ones it applied.
Result<std::vector<Migration>> Migrate(Connection& connection);

// The highest applied version, 0 when none.
Result<int> SchemaVersion(Connection& connection);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_MIGRATIONS_H_
