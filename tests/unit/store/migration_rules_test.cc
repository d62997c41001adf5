// Migrations only expand the schema, so that the release before keeps working on it while an
// upgrade runs them (core/store/migrations.h): a migration after 0004 that drops, renames, changes
// a column's type or makes one NOT NULL must say, on a line starting "-- contract:", why the
// release before no longer needs what it removes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

// The last migration before the rule (written when releases did not overlap).
constexpr int kLastBeforeTheRule = 4;

// What the release before would break on, found in `sql` (comments removed), or empty.
std::vector<std::string> Contractions(std::string sql) {
  sql = std::regex_replace(sql, std::regex("--[^\n]*"), "");
  const std::vector<std::pair<const char*, std::regex>> forbidden = {
      {"DROP TABLE", std::regex(R"(\bDROP\s+TABLE\b)", std::regex::icase)},
      {"DROP COLUMN", std::regex(R"(\bDROP\s+COLUMN\b)", std::regex::icase)},
      {"RENAME", std::regex(R"(\bRENAME\b)", std::regex::icase)},
      {"a column's type",
       std::regex(R"(\bALTER\s+COLUMN\s+\S+\s+(SET\s+DATA\s+)?TYPE\b)", std::regex::icase)},
      {"NOT NULL on a column", std::regex(R"(\bSET\s+NOT\s+NULL\b)", std::regex::icase)},
  };
  std::vector<std::string> found;
  for (const auto& [what, pattern] : forbidden) {
    if (std::regex_search(sql, pattern)) found.emplace_back(what);
  }
  return found;
}

bool SaysWhyItContracts(const std::string& sql) {
  return std::regex_search(sql, std::regex(R"((^|\n)-- contract:)"));
}

TEST(MigrationRulesTest, TheCheckFindsWhatBreaksTheReleaseBefore) {
  EXPECT_TRUE(Contractions("CREATE TABLE t (i int);\nALTER TABLE t ADD COLUMN j int;").empty());
  EXPECT_EQ(Contractions("ALTER TABLE t DROP COLUMN j;"), std::vector<std::string>{"DROP COLUMN"});
  EXPECT_EQ(Contractions("alter table t rename to u;"), std::vector<std::string>{"RENAME"});
  EXPECT_EQ(Contractions("ALTER TABLE t ALTER COLUMN j TYPE bigint;"),
            std::vector<std::string>{"a column's type"});
  EXPECT_EQ(Contractions("ALTER TABLE t ALTER COLUMN j SET NOT NULL;"),
            std::vector<std::string>{"NOT NULL on a column"});
  EXPECT_TRUE(Contractions("-- the old name was renamed\nSELECT 1;").empty());
  EXPECT_TRUE(SaysWhyItContracts("-- contract: 0.3.0 stopped reading t.j\nALTER TABLE t DROP j;"));
}

TEST(MigrationRulesTest, MigrationsAfter0004OnlyExpandUnlessTheySayWhy) {
  const std::filesystem::path dir =
      std::filesystem::path(NETGRAPH_SOURCE_DIR) / "core/store/migrations";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".sql") continue;
    ++checked;
    if (std::atoi(name.c_str()) <= kLastBeforeTheRule) continue;
    std::ifstream in(entry.path());
    std::stringstream sql;
    sql << in.rdbuf();
    if (SaysWhyItContracts(sql.str())) continue;
    for (const std::string& what : Contractions(sql.str())) {
      ADD_FAILURE() << name << " changes " << what
                    << ", which the release before may use: expand now, contract in a later "
                       "release, and say why on a line starting \"-- contract:\"";
    }
  }
  EXPECT_GE(checked, kLastBeforeTheRule);
}

}  // namespace
