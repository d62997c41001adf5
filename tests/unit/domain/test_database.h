// A throwaway PostgreSQL server for the store and domain tests, started once per test binary:
// initdb + pg_ctl in a fresh directory under /var/tmp, listening only on a unix socket there, so
// it never collides with another server. As root it runs as the system user "netgraph" (created
// when missing, as scripts/stack does), since PostgreSQL refuses to run as root. The tests skip
// when no PostgreSQL server binaries are installed.
#ifndef NETGRAPH_TESTS_UNIT_DOMAIN_TEST_DATABASE_H_
#define NETGRAPH_TESTS_UNIT_DOMAIN_TEST_DATABASE_H_

#include <string>

namespace netgraph::testing {

class TestDatabase {
 public:
  // The server, started on first use; nullptr when it cannot run here (see skip_reason()).
  static TestDatabase* Get();
  static const std::string& skip_reason();

  // Creates a new database, applies the migrations, and returns its connection string.
  std::string FreshDatabase();
  // A directory that lives as long as the server (for sockets and key files of the tests).
  const std::string& directory() const { return directory_; }

  ~TestDatabase();

 private:
  TestDatabase() = default;
  bool Start(std::string* problem);

  std::string bin_;
  std::string directory_;
  int next_database_ = 0;
  bool running_ = false;
};

}  // namespace netgraph::testing

#endif  // NETGRAPH_TESTS_UNIT_DOMAIN_TEST_DATABASE_H_
