#include "tests/unit/domain/test_database.h"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "core/store/connection.h"
#include "core/store/migrations.h"

namespace netgraph::testing {
namespace {

constexpr const char* kServiceUser = "netgraph";

bool Run(const std::string& command) { return std::system(command.c_str()) == 0; }

std::string AsServiceUser(const std::string& command) {
  return ::geteuid() == 0 ? "runuser -u " + std::string(kServiceUser) + " -- " + command : command;
}

std::string ServerBinaries() {
  std::string newest;
  std::error_code ignored;
  for (const auto& entry : std::filesystem::directory_iterator("/usr/lib/postgresql", ignored)) {
    const std::string bin = entry.path().string() + "/bin";
    if (std::filesystem::exists(bin + "/initdb") && bin > newest) newest = bin;
  }
  return newest;
}

std::string& SkipReason() {
  static std::string reason;
  return reason;
}

}  // namespace

TestDatabase* TestDatabase::Get() {
  static std::unique_ptr<TestDatabase> server = [] {
    std::unique_ptr<TestDatabase> started(new TestDatabase());
    if (!started->Start(&SkipReason())) started.reset();
    return started;
  }();
  return server.get();
}

const std::string& TestDatabase::skip_reason() { return SkipReason(); }

bool TestDatabase::Start(std::string* problem) {
  bin_ = ServerBinaries();
  if (bin_.empty()) {
    *problem = "no PostgreSQL server binaries under /usr/lib/postgresql";
    return false;
  }
  if (::geteuid() == 0 && !Run("id " + std::string(kServiceUser) + " >/dev/null 2>&1") &&
      !Run("useradd --system --home-dir /nonexistent --shell /usr/sbin/nologin " +
           std::string(kServiceUser))) {
    *problem = "cannot create the system user netgraph to run PostgreSQL";
    return false;
  }
  char pattern[] = "/var/tmp/netgraph-test-pg-XXXXXX";
  if (::mkdtemp(pattern) == nullptr) {
    *problem = "mkdtemp failed";
    return false;
  }
  directory_ = pattern;
  if (::geteuid() == 0) Run("chown " + std::string(kServiceUser) + ": " + directory_);
  const std::string data = directory_ + "/data";
  if (!Run(
          AsServiceUser(bin_ + "/initdb -D " + data +
                        " -U netgraph --auth=trust --encoding=UTF8 --locale=C.UTF-8 >/dev/null"))) {
    *problem = "initdb failed";
    return false;
  }
  if (!Run(AsServiceUser(bin_ + "/pg_ctl -D " + data + " -l " + directory_ +
                         "/server.log -w -t 60 -o \"-c listen_addresses='' -k " + directory_ +
                         " -c fsync=off -c max_connections=300\" start >/dev/null"))) {
    *problem = "pg_ctl start failed (see " + directory_ + "/server.log)";
    return false;
  }
  running_ = true;
  return true;
}

std::string TestDatabase::FreshDatabase() {
  const std::string name = "test_" + std::to_string(++next_database_);
  const std::string base = "host=" + directory_ + " user=netgraph dbname=";
  store::Connection admin(base + "postgres");
  if (!admin.ExecuteScript("CREATE DATABASE " + name).ok()) std::abort();
  const std::string url = base + name;
  store::Connection db(url);
  if (!store::Migrate(db).ok()) std::abort();
  return url;
}

TestDatabase::~TestDatabase() {
  if (running_) {
    Run(AsServiceUser(bin_ + "/pg_ctl -D " + directory_ + "/data -m immediate -w stop >/dev/null"));
  }
  if (!directory_.empty()) {
    std::error_code ignored;
    std::filesystem::remove_all(directory_, ignored);
  }
}

}  // namespace netgraph::testing
