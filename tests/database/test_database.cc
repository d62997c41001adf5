#include "tests/database/test_database.h"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/store/connection.h"
#include "core/store/migrations.h"

namespace netgraph::testing {
namespace {

std::string& Problem() {
  static std::string problem;
  return problem;
}

}  // namespace

TestDatabase* TestDatabase::Get() {
  static std::unique_ptr<TestDatabase> server = [] {
    std::unique_ptr<TestDatabase> started(new TestDatabase());
    if (!started->Start(&Problem())) started.reset();
    return started;
  }();
  return server.get();
}

const std::string& TestDatabase::problem() { return Problem(); }

bool TestDatabase::Start(std::string* problem) {
  const char* url = std::getenv("DATABASE_URL");
  if (url == nullptr || *url == '\0') {
    *problem =
        "DATABASE_URL must name the PostgreSQL to test against (scripts/test sets the stack's)";
    return false;
  }
  url_ = url;
  scratch_ = std::make_unique<TempDir>("netgraph-test", "/var/tmp");
  directory_ = scratch_->path().string();
  return true;
}

std::string TestDatabase::UrlOf(const std::string& name) const {
  // A URI (postgresql://user@host:port/db?options): replace the path. A keyword/value string:
  // libpq takes the last of repeated keywords.
  const std::size_t scheme = url_.find("://");
  if (scheme == std::string::npos) return url_ + " dbname=" + name;
  const std::size_t path = url_.find('/', scheme + 3);
  const std::size_t query = url_.find('?', scheme + 3);
  const std::string authority = url_.substr(0, std::min(path, query));
  const std::string options = query == std::string::npos ? "" : url_.substr(query);
  return authority + "/" + name + options;
}

std::string TestDatabase::EmptyDatabase() {
  // Unique per process, so binaries run at once (ctest -j) do not collide.
  const std::string name =
      "netgraph_test_" + std::to_string(::getpid()) + "_" + std::to_string(databases_.size() + 1);
  store::Connection admin(url_);
  if (!admin.ExecuteScript("CREATE DATABASE " + name).ok()) std::abort();
  databases_.push_back(name);
  return UrlOf(name);
}

std::string TestDatabase::FreshDatabase() {
  const std::string url = EmptyDatabase();
  store::Connection db(url);
  if (!store::Migrate(db).ok()) std::abort();
  return url;
}

TestDatabase::~TestDatabase() {
  store::Connection admin(url_);
  for (const std::string& name : databases_) {
    (void)admin.ExecuteScript("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
  }
}

}  // namespace netgraph::testing
