// Reads the service's configuration from environment variables (NETGRAPH_*, DATABASE_URL,
// REDIS_URL). Each concern declares its own settings struct and loads it through an Environment; a
// bad value is recorded, not thrown, so a process can report every configuration mistake at once
// and exit.
#ifndef NETGRAPH_CORE_CONFIG_ENVIRONMENT_H_
#define NETGRAPH_CORE_CONFIG_ENVIRONMENT_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"

namespace netgraph::config {

// Where PostgreSQL is when DATABASE_URL is unset: database netgraph over the local unix socket, as
// the process's user.
inline constexpr char kDefaultDatabaseUrl[] = "postgresql:///netgraph";

class Environment {
 public:
  using Lookup = std::function<std::optional<std::string>(const std::string& name)>;

  // Reads the process environment.
  Environment();
  // Reads from `lookup` (tests).
  explicit Environment(Lookup lookup);

  // The variable's value, or `fallback` when it is unset or empty.
  std::string String(const std::string& name, const std::string& fallback = {});
  // An integer in [min, max]; a malformed or out-of-range value is recorded and `fallback`
  // returned.
  std::int64_t Int(const std::string& name, std::int64_t fallback, std::int64_t min,
                   std::int64_t max);
  // Int for a variable that was renamed (a unit added to its name): `name`, or while it is unset
  // `old_name` times `old_scale` (1000 for seconds read as milliseconds) with a warning, so a
  // configuration written for the previous release keeps working for one more.
  std::int64_t RenamedInt(const std::string& name, const std::string& old_name,
                          std::int64_t old_scale, std::int64_t fallback, std::int64_t min,
                          std::int64_t max);
  // true/false, 1/0, yes/no, on/off.
  bool Bool(const std::string& name, bool fallback);
  // A comma-separated list ("a, b,c" -> {"a", "b", "c"}), `fallback` when unset or empty. Items are
  // trimmed, empty ones dropped, and a trailing "/" is dropped: the lists are of origins and
  // addresses, which never end in one, while an origin copied from a browser's address bar does.
  std::vector<std::string> List(const std::string& name, const std::string& fallback = {});

  // DATABASE_URL, or kDefaultDatabaseUrl.
  std::string DatabaseUrl() { return String("DATABASE_URL", kDefaultDatabaseUrl); }

  // Ok, or one error naming every bad variable.
  Status status() const;
  // Settings that work but should change (old names), one line each, for the log.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  Lookup lookup_;
  std::vector<std::string> problems_;
  std::vector<std::string> warnings_;
};

}  // namespace netgraph::config

#endif  // NETGRAPH_CORE_CONFIG_ENVIRONMENT_H_
