// Every setting the code reads is in the sample configuration file the package ships and in the
// tables of docs/operations.md, and the sample names nothing else (core/config/known_settings.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "core/config/known_settings.h"

namespace netgraph::config {
namespace {

std::string ReadSource(const std::string& relative) {
  std::ifstream in(std::string(NETGRAPH_SOURCE_DIR) + "/" + relative);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The names a text mentions in the form `pattern` (its first group).
std::set<std::string> Names(const std::string& text, const std::string& pattern) {
  std::set<std::string> names;
  const std::regex expression(pattern);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), expression);
       it != std::sregex_iterator(); ++it) {
    names.insert((*it)[1].str());
  }
  return names;
}

// Read from the environment only, or kept for one release under an old name: not file settings.
const std::set<std::string> kNotInTheSample = {"NETGRAPH_CONFIG_FILE", "NETGRAPH_SHUTDOWN_TIMEOUT",
                                               "NETGRAPH_WS_PING_INTERVAL",
                                               "NETGRAPH_WS_PONG_TIMEOUT"};

TEST(SettingsTest, TheCodeReadsTheSettingsItIsKnownFor) {
  const std::vector<std::string_view>& names = SettingsReadByTheCode();
  EXPECT_GT(names.size(), 70u);
  EXPECT_TRUE(IsKnownName("NETGRAPH_WORKERS"));
  EXPECT_TRUE(IsKnownName("DATABASE_URL"));
  EXPECT_TRUE(IsKnownName("NETGRAPH_BASE_URL"));  // scripts/stack's, for its clients
  EXPECT_FALSE(IsKnownName("NETGRAPH_WORKRES"));
}

TEST(SettingsTest, TheSampleFileListsEverySettingAndNothingElse) {
  const std::set<std::string> sample =
      Names(ReadSource("packaging/netgraph.env"), "(?:^|\\n)#?([A-Z][A-Z0-9_]*)=");
  for (std::string_view name : SettingsReadByTheCode()) {
    if (kNotInTheSample.count(std::string(name)) == 0) {
      EXPECT_EQ(sample.count(std::string(name)), 1u) << name << " is not in packaging/netgraph.env";
    }
  }
  for (const std::string& name : sample) {
    EXPECT_TRUE(IsKnownName(name))
        << "packaging/netgraph.env lists " << name << ", which nothing reads";
  }
}

TEST(SettingsTest, DocsOperationsDescribesEverySetting) {
  const std::set<std::string> documented =
      Names(ReadSource("docs/operations.md"), "\\n\\| `([A-Z][A-Z0-9_]*)` \\|");
  for (std::string_view name : SettingsReadByTheCode()) {
    EXPECT_EQ(documented.count(std::string(name)), 1u)
        << name << " has no row in a table of docs/operations.md";
  }
}

TEST(SettingsTest, NearestNamesTheLikelySetting) {
  EXPECT_EQ(Nearest("NETGRAPH_WORKRES").name, "NETGRAPH_WORKERS");
  EXPECT_EQ(Nearest("NETGRAPH_WORKRES").edits, 1u);
  EXPECT_EQ(Nearest("NETGRAPH_REQUEST_TIMEOUT").name, "NETGRAPH_REQUEST_TIMEOUT_MS");
  EXPECT_EQ(Nearest("NETGRAPH_REQUEST_TIMEOUT").edits, 3u);
  EXPECT_EQ(Nearest("DATABSE_URL").name, "DATABASE_URL");
}

}  // namespace
}  // namespace netgraph::config
