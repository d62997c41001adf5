// Reads the service's configuration (NETGRAPH_*, DATABASE_URL, REDIS_URL) from environment
// variables and from the configuration file NETGRAPH_CONFIG_FILE names. Each concern declares its
// own settings struct and loads it through an Environment; a bad value is recorded, not thrown, so
// a process can report every configuration mistake at once and exit (or, on a reload, keep its old
// settings).
//
// The configuration file holds KEY=value lines; blank lines and lines starting with '#' are
// ignored, spaces around the line are trimmed, and a value wrapped in a pair of double or single
// quotes loses them (as in systemd's EnvironmentFile=), nothing else is interpreted. A variable set
// in the process environment wins over the file: the file is what `systemctl reload` re-reads,
// while the environment is fixed for the life of the process (one-off overrides, tests).
// NETGRAPH_CONFIG_FILE itself comes from the environment only; unset, it defaults to the file the
// build names (NETGRAPH_DEFAULT_CONFIG_FILE in CMake: /etc/netgraph/netgraph.env in the Debian
// package, none in a development build), which may be absent. A file that is named explicitly but
// cannot be read, and a line that is not KEY=value, are configuration mistakes.
//
// A name that is no setting (core/config/known_settings.h) is reported among the warnings, with the
// setting nearest to it: every such name in the file, and a NETGRAPH_* name in the environment when
// it is within kLikelySlip edits of a setting (the environment holds other programs' variables too,
// several of the development scripts' among them). Every read is recorded with the value used and
// where it came from, for --print-config.
#ifndef NETGRAPH_CORE_CONFIG_ENVIRONMENT_H_
#define NETGRAPH_CORE_CONFIG_ENVIRONMENT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/status.h"

namespace netgraph::config {

// Where PostgreSQL is when DATABASE_URL is unset: database netgraph over the local unix socket, as
// the process's user.
inline constexpr char kDefaultDatabaseUrl[] = "postgresql:///netgraph";

// One setting as a program read it: the value it uses (the default when unset, a secret in a URL
// masked) and where that came from ("environment", "<file>:<line>", "default").
struct Reading {
  std::string name;
  std::string value;
  std::string source;
};

class Environment {
 public:
  // How many edits from a setting an unknown NETGRAPH_* name in the environment may be to be
  // reported (NETGRAPH_WORKRES, NETGRAPH_REQUEST_TIMEOUT for NETGRAPH_REQUEST_TIMEOUT_MS).
  static constexpr std::size_t kLikelySlip = 3;

  using Lookup = std::function<std::optional<std::string>(const std::string& name)>;

  // Reads the process environment, then the configuration file (see above).
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
  // One of `allowed`, or `fallback` when unset or empty; anything else is recorded.
  std::string OneOf(const std::string& name, const std::vector<std::string>& allowed,
                    const std::string& fallback);
  // A comma-separated list ("a, b,c" -> {"a", "b", "c"}), `fallback` when unset or empty. Items are
  // trimmed, empty ones dropped, and a trailing "/" is dropped: the lists are of origins and
  // addresses, which never end in one, while an origin copied from a browser's address bar does.
  std::vector<std::string> List(const std::string& name, const std::string& fallback = {});

  // DATABASE_URL, or kDefaultDatabaseUrl.
  std::string DatabaseUrl() { return String("DATABASE_URL", kDefaultDatabaseUrl); }

  // Records a mistake only the caller can judge (a value that does not parse as a URL, a key file
  // that does not load), so status() lists it with the others.
  void AddProblem(std::string problem) { problems_.push_back(std::move(problem)); }

  // The configuration file read, or empty when there is none.
  const std::string& file() const { return file_; }

  // Ok, or one error naming every bad variable.
  Status status() const;
  // Every problem recorded, one per line, for --check-config.
  const std::vector<std::string>& problems() const { return problems_; }
  // Settings that work but should change (old names) and names that are no settings, one line
  // each, for the log.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Every setting read so far, by name.
  std::vector<Reading> readings() const;

 private:
  struct Found {
    std::optional<std::string> value;
    std::string source;  // "environment", "<file>:<line>" or "default"
  };
  struct FileValue {
    std::string value;
    int line = 0;
  };

  void ReadFile(const std::string& path, bool must_exist);
  // Warns about the names in the file and the environment that are no settings.
  void ReportUnknownNames(const std::vector<std::string>& environment_names);
  // From lookup_ when set (tests), else the process environment, then the file.
  Found Value(const std::string& name) const;
  // Records what `name` was read as: `used`, from `found` (or the default when it had no value).
  void Note(const std::string& name, const Found& found, const std::string& used);

  Lookup lookup_;
  std::string file_;
  std::map<std::string, FileValue> file_values_;
  std::vector<std::string> problems_;
  std::vector<std::string> warnings_;
  std::map<std::string, Reading> readings_;
};

}  // namespace netgraph::config

#endif  // NETGRAPH_CORE_CONFIG_ENVIRONMENT_H_
