// netgraphctl migrate: applies the schema migrations compiled into this binary to the database,
// connected as NETGRAPH_MIGRATE_DATABASE_URL says (default: DATABASE_URL), which should log in as
// the role that owns the schema (docs/operations.md, "Database roles"). With --wait it keeps trying
// while PostgreSQL cannot be reached: netgraph-migrate.service runs it so at boot, and the services
// start once it is done.
#include <chrono>
#include <iostream>
#include <thread>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/store/connection.h"
#include "core/store/migrations.h"

namespace netgraph::cli {
namespace {

// Whether PostgreSQL could not be reached, or was starting or stopping: worth waiting for. A server
// that answered and refused (no such role or database, a failed login) is not. The one place that
// reads an error's text to decide: libpq gives out a connection refused at startup as text alone
// (PQerrorMessage; the server's SQLSTATE, 57P03 for "starting up", 28000 for an unknown role, is
// not exposed for a connection that failed), so this and Explained read libpq's words. A server
// whose lc_messages words them otherwise makes a refusal look unreachable: it is waited on until
// --wait's time runs out, and the hint below is not added.
bool Unreachable(const Status& status) {
  if (status.code() != StatusCode::kUnavailable) return false;
  const std::string& message = status.message();
  return message.find("FATAL") == std::string::npos ||
         message.find("the database system is") != std::string::npos;
}

// The error, with what to do when the role the migrations log in as does not exist.
std::string Explained(const Status& status) {
  std::string message = status.message();
  if (message.find("role \"") != std::string::npos &&
      message.find("does not exist") != std::string::npos) {
    message +=
        " (create the role that owns the schema, or point NETGRAPH_MIGRATE_DATABASE_URL at "
        "it: docs/operations.md, \"Database roles\")";
  }
  return message;
}

int Migrate(Arguments& arguments) {
  const bool status_only = arguments.Flag("status");
  const bool wait = arguments.Flag("wait");
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
  store::Connection database(env.String("NETGRAPH_MIGRATE_DATABASE_URL", env.DatabaseUrl()),
                             migration_limits);
  if (Status s = env.status(); !s.ok()) {
    std::cerr << "netgraphctl migrate: " << s.message() << "\n";
    return kExitFailed;
  }
  if (wait) {
    // Any statement connects; only an unreachable server is waited for.
    const auto started = std::chrono::steady_clock::now();
    auto said = started - std::chrono::minutes(1);
    for (Result<int> probe = store::SchemaVersion(database);
         !probe.ok() && Unreachable(probe.status()); probe = store::SchemaVersion(database)) {
      const auto now = std::chrono::steady_clock::now();
      if (now - said >= std::chrono::minutes(1)) {
        std::cerr << "netgraphctl migrate: waiting for PostgreSQL ("
                  << std::chrono::duration_cast<std::chrono::seconds>(now - started).count()
                  << " s so far): " << probe.status().message() << "\n";
        said = now;
      }
      std::this_thread::sleep_for(std::chrono::seconds(2));
    }
  }
  if (status_only) {
    Result<int> version = store::SchemaVersion(database);
    if (!version.ok()) {
      std::cerr << "netgraphctl migrate: " << Explained(version.status()) << "\n";
      return kExitFailed;
    }
    std::cout << "schema version " << *version << " of " << store::RequiredSchemaVersion() << "\n";
    return kExitOk;
  }
  Result<std::vector<store::Migration>> applied = store::Migrate(database);
  if (!applied.ok()) {
    std::cerr << "netgraphctl migrate: " << Explained(applied.status()) << "\n";
    return kExitFailed;
  }
  for (const store::Migration& m : *applied) std::cout << "applied " << m.name << "\n";
  if (applied->empty()) std::cout << "schema is up to date\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> MigrateCommands() {
  return {{"migrate",
           "[--status] [--wait]",
           "apply the database schema migrations (or show the version)",
           Migrate,
           {{"--status", "print the schema's version and the newest this netgraphctl knows"},
            {"--wait",
             "while PostgreSQL cannot be reached, keep trying (every 2 s, saying so once "
             "a minute) instead of failing: netgraph-migrate.service waits so at boot"}},
           RunAs::kMigrator}};
}

}  // namespace netgraph::cli
