// The PostgreSQL server of the store and domain tests: the one DATABASE_URL names (scripts/test
// points it at the stack's). Each test gets a database of its own, created on that server with the
// migrations applied and dropped when the binary exits, so tests never see each other's rows. The
// role in DATABASE_URL must be allowed to create databases (the stack's is a superuser).
#ifndef NETGRAPH_TESTS_DATABASE_TEST_DATABASE_H_
#define NETGRAPH_TESTS_DATABASE_TEST_DATABASE_H_

#include <memory>
#include <string>
#include <vector>

#include "tests/support/temp_dir.h"

namespace netgraph::testing {

class TestDatabase {
 public:
  // The server, set up on first use; nullptr when it cannot be used (see problem()): DATABASE_URL
  // unset.
  static TestDatabase* Get();
  static const std::string& problem();

  // Creates a new database, applies the migrations, and returns its connection string (DATABASE_URL
  // naming that database). Aborts when the server refuses: the tests cannot run without it.
  std::string FreshDatabase();
  // A new database without the migrations (for tests of migrating itself).
  std::string EmptyDatabase();
  // A directory that lives as long as the binary (for sockets and key files of the tests).
  const std::string& directory() const { return directory_; }

  ~TestDatabase();

 private:
  TestDatabase() = default;
  bool Start(std::string* problem);
  // `url_` with its database name replaced by `name`.
  std::string UrlOf(const std::string& name) const;

  std::string url_;
  std::unique_ptr<TempDir> scratch_;  // short, for the sockets' paths
  std::string directory_;
  std::vector<std::string> databases_;
};

}  // namespace netgraph::testing

#endif  // NETGRAPH_TESTS_DATABASE_TEST_DATABASE_H_
