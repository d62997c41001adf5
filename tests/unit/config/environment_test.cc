// What Environment reports about a configuration: names that are no settings (with the nearest
// setting), and where each value it read came from, with secrets masked.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/config/environment.h"
#include "tests/support/temp_dir.h"

namespace netgraph::config {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// A configuration file for one test, named by NETGRAPH_CONFIG_FILE while the test runs, with
// the process environment's NETGRAPH_* variables that a test sets removed afterwards.
class ConfigFile {
 public:
  explicit ConfigFile(const std::string& text) : path_(directory_.path() / "netgraph.env") {
    std::ofstream(path_) << text;
    ::setenv("NETGRAPH_CONFIG_FILE", path_.c_str(), 1);
  }
  ~ConfigFile() { ::unsetenv("NETGRAPH_CONFIG_FILE"); }
  std::string path() const { return path_.string(); }

 private:
  netgraph::testing::TempDir directory_{"netgraph-config-test"};
  std::filesystem::path path_;
};

Reading ReadingOf(const Environment& env, const std::string& name) {
  for (const Reading& reading : env.readings()) {
    if (reading.name == name) return reading;
  }
  return Reading{};
}

TEST(EnvironmentTest, AMisspeltSettingInTheFileIsReportedWithTheNearestSetting) {
  ConfigFile file("# comment\nNETGRAPH_WORKRES=3\nNETGRAPH_MAX_DEPTH=12\nSOMETHING_ELSE=1\n");
  Environment env;
  EXPECT_THAT(env.warnings(), Contains(AllOf(HasSubstr("NETGRAPH_WORKRES (" + file.path() + ":2)"),
                                             HasSubstr("is not a netgraph setting"),
                                             HasSubstr("did you mean NETGRAPH_WORKERS?"))));
  EXPECT_THAT(env.warnings(),
              Contains(AllOf(HasSubstr("SOMETHING_ELSE"), HasSubstr("the nearest is"))));
  EXPECT_TRUE(env.status().ok()) << "a warning, not a mistake that stops the service";
}

TEST(EnvironmentTest, AMisspeltSettingInTheEnvironmentIsReportedOtherProgramsNamesAreNot) {
  ConfigFile file("");
  ::setenv("NETGRAPH_MAX_DEPHT", "12", 1);
  ::setenv("NETGRAPH_SOME_TOOLS_OWN_DIRECTORY", "/tmp", 1);
  Environment env;
  ::unsetenv("NETGRAPH_MAX_DEPHT");
  ::unsetenv("NETGRAPH_SOME_TOOLS_OWN_DIRECTORY");
  EXPECT_THAT(env.warnings(), Contains(AllOf(HasSubstr("NETGRAPH_MAX_DEPHT (environment)"),
                                             HasSubstr("did you mean NETGRAPH_MAX_DEPTH?"))));
  for (const std::string& warning : env.warnings()) {
    EXPECT_THAT(warning, ::testing::Not(HasSubstr("NETGRAPH_SOME_TOOLS_OWN_DIRECTORY")));
  }
}

TEST(EnvironmentTest, EachReadingSaysWhereItsValueCameFrom) {
  ConfigFile file("NETGRAPH_MAX_DEPTH=12\nREDIS_URL=redis://:secret@127.0.0.1:6379/0\n");
  ::setenv("NETGRAPH_MAX_ALIASES", "20", 1);
  Environment env;
  env.Int("NETGRAPH_MAX_DEPTH", 15, 1, 100);
  env.Int("NETGRAPH_MAX_ALIASES", 30, 1, 100);
  env.Int("NETGRAPH_MAX_TOKENS", 10000, 1, 100000);
  env.String("REDIS_URL", "redis://127.0.0.1:6379");
  env.String("DATABASE_URL", "host=db user=netgraph password=hunter2 dbname=netgraph");
  ::unsetenv("NETGRAPH_MAX_ALIASES");

  const Reading depth = ReadingOf(env, "NETGRAPH_MAX_DEPTH");
  EXPECT_EQ(depth.value, "12");
  EXPECT_EQ(depth.source, file.path() + ":1");
  EXPECT_EQ(ReadingOf(env, "NETGRAPH_MAX_ALIASES").source, "environment");
  const Reading tokens = ReadingOf(env, "NETGRAPH_MAX_TOKENS");
  EXPECT_EQ(tokens.value, "10000");
  EXPECT_EQ(tokens.source, "default");
  EXPECT_EQ(ReadingOf(env, "REDIS_URL").value, "redis://:****@127.0.0.1:6379/0");
  EXPECT_EQ(ReadingOf(env, "DATABASE_URL").value,
            "host=db user=netgraph password=**** dbname=netgraph");
}

TEST(EnvironmentTest, ARenamedSettingSaysItWasReadUnderItsOldName) {
  ConfigFile file("NETGRAPH_SHUTDOWN_TIMEOUT=7\n");
  Environment env;
  EXPECT_EQ(env.RenamedInt("NETGRAPH_SHUTDOWN_TIMEOUT_MS", "NETGRAPH_SHUTDOWN_TIMEOUT", 1000, 30000,
                           0, 3600000),
            7000);
  const Reading reading = ReadingOf(env, "NETGRAPH_SHUTDOWN_TIMEOUT_MS");
  EXPECT_EQ(reading.value, "7000");
  EXPECT_EQ(reading.source, file.path() + ":1, as NETGRAPH_SHUTDOWN_TIMEOUT");
  EXPECT_THAT(ReadingOf(env, "NETGRAPH_SHUTDOWN_TIMEOUT").name, IsEmpty());
}

}  // namespace
}  // namespace netgraph::config
