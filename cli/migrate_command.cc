// netgraphctl migrate: applies the schema migrations compiled into this binary to DATABASE_URL.
#include <iostream>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/store/connection.h"
#include "core/store/migrations.h"

namespace netgraph::cli {
namespace {

int Migrate(Arguments& arguments) {
  const bool status_only = arguments.Flag("status");
  if (Status s = arguments.Finish(); !s.ok()) {
    std::cerr << "netgraphctl migrate: " << s.message() << "\n";
    return kExitUsage;
  }
  config::Environment env;
  // A migration may rewrite a big table, and it waits for another migrator's lock: the limits meant
  // for requests (core/store/connection.h) would cut it short.
  store::ConnectionOptions migration_limits;
  migration_limits.statement_timeout_ms = 0;
  migration_limits.lock_timeout_ms = 0;
  store::Connection database(env.DatabaseUrl(), migration_limits);
  if (status_only) {
    Result<int> version = store::SchemaVersion(database);
    if (!version.ok()) {
      std::cerr << "netgraphctl migrate: " << version.status().message() << "\n";
      return kExitFailed;
    }
    int latest = store::KnownMigrations().empty() ? 0 : store::KnownMigrations().back().version;
    std::cout << "schema version " << *version << " of " << latest << "\n";
    return kExitOk;
  }
  Result<std::vector<store::Migration>> applied = store::Migrate(database);
  if (!applied.ok()) {
    std::cerr << "netgraphctl migrate: " << applied.status().message() << "\n";
    return kExitFailed;
  }
  for (const store::Migration& m : *applied) std::cout << "applied " << m.name << "\n";
  if (applied->empty()) std::cout << "schema is up to date\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> MigrateCommands() {
  return {{"migrate", "[--status]", "apply the database schema migrations (or show the version)",
           Migrate}};
}

}  // namespace netgraph::cli
