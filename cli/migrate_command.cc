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

// Whether a failure to reach the schema is worth waiting for: PostgreSQL did not answer, or
// answered that it is starting or stopping. A server that answers as a running one and still
// refused (no such role or database, a failed login) is not.
bool WorthWaiting(const Status& status, const std::string& url) {
  if (status.code() != StatusCode::kUnavailable) return false;
  const store::ServerAnswer answer = store::AskServer(url);
  return answer == store::ServerAnswer::kNotNow || answer == store::ServerAnswer::kUnreachable;
}

// The error, with what to do when a running server refused the role the migrations log in as.
std::string Explained(const Status& status, const std::string& url) {
  std::string message = status.message();
  if (status.code() == StatusCode::kUnavailable &&
      store::AskServer(url) == store::ServerAnswer::kAccepting) {
    message +=
        " (PostgreSQL runs and refused this login: create the role that owns the schema, or point "
        "NETGRAPH_MIGRATE_DATABASE_URL at it: docs/operations.md, \"Database roles\")";
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
  const std::string url = env.String("NETGRAPH_MIGRATE_DATABASE_URL", env.DatabaseUrl());
  store::Connection database(url, migration_limits);
  if (Status s = env.status(); !s.ok()) {
    std::cerr << "netgraphctl migrate: " << s.message() << "\n";
    return kExitFailed;
  }
  if (wait) {
    // Any statement connects; only an unreachable server is waited for.
    const auto started = std::chrono::steady_clock::now();
    auto said = started - std::chrono::minutes(1);
    for (Result<int> probe = store::SchemaVersion(database);
         !probe.ok() && WorthWaiting(probe.status(), url); probe = store::SchemaVersion(database)) {
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
      std::cerr << "netgraphctl migrate: " << Explained(version.status(), url) << "\n";
      return kExitFailed;
    }
    std::cout << "schema version " << *version << " of " << store::RequiredSchemaVersion() << "\n";
    return kExitOk;
  }
  Result<std::vector<store::Migration>> applied = store::Migrate(database);
  if (!applied.ok()) {
    std::cerr << "netgraphctl migrate: " << Explained(applied.status(), url) << "\n";
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
