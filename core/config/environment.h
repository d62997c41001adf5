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
  // true/false, 1/0, yes/no, on/off.
  bool Bool(const std::string& name, bool fallback);
  // A comma-separated list ("a, b,c" -> {"a", "b", "c"}), `fallback` when unset or empty. Items are
  // trimmed, empty ones dropped, and a trailing "/" is dropped: the lists are of origins and
  // addresses, which never end in one, while an origin copied from a browser's address bar does.
  std::vector<std::string> List(const std::string& name, const std::string& fallback = {});

  // Ok, or one error naming every bad variable.
  Status status() const;

 private:
  Lookup lookup_;
  std::vector<std::string> problems_;
};

}  // namespace netgraph::config

#endif  // NETGRAPH_CORE_CONFIG_ENVIRONMENT_H_
