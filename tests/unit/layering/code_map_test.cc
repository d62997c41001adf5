// docs/architecture.md's code map ("Code layout") names every folder of the tree and nothing that
// is gone: each folder git tracks files in is named there as `folder/`, and each `folder/` named
// there exists. The folders of the fuzz corpora and of the unit tests (which mirror the code, as
// the map says) are not named one by one.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;

const fs::path kSource = NETGRAPH_SOURCE_DIR;

std::string CodeLayoutSection() {
  std::ifstream file(kSource / "docs" / "architecture.md");
  std::stringstream text;
  text << file.rdbuf();
  const std::string doc = text.str();
  const std::size_t start = doc.find("\n## Code layout\n");
  if (start == std::string::npos) return "";
  const std::size_t end = doc.find("\n## ", start + 1);
  return doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// The folders holding files git tracks, or nothing when the tree is not a git checkout.
std::set<std::string> TrackedFolders() {
  std::set<std::string> folders;
  const std::string command = "git -C '" + kSource.string() + "' ls-files 2>/dev/null";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return folders;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    std::string path(line);
    if (!path.empty() && path.back() == '\n') path.pop_back();
    for (std::size_t slash = path.rfind('/'); slash != std::string::npos && slash > 0;
         slash = path.rfind('/', slash - 1)) {
      folders.insert(path.substr(0, slash));
    }
  }
  ::pclose(pipe);
  return folders;
}

bool NamedOneByOne(const std::string& folder) {
  return !folder.starts_with("tests/fuzz/corpus/") && !folder.starts_with("tests/unit/");
}

TEST(CodeMapTest, NamesEveryFolderOfTheTree) {
  const std::string map = CodeLayoutSection();
  ASSERT_FALSE(map.empty()) << "docs/architecture.md has no \"## Code layout\"";
  const std::set<std::string> folders = TrackedFolders();
  if (folders.empty()) GTEST_SKIP() << "not a git checkout";
  for (const std::string& folder : folders) {
    if (!NamedOneByOne(folder)) continue;
    EXPECT_NE(map.find("`" + folder + "/`"), std::string::npos)
        << folder << "/ is not in docs/architecture.md's code map";
  }
}

TEST(CodeMapTest, NamesNoFolderThatIsGone) {
  const std::string map = CodeLayoutSection();
  ASSERT_FALSE(map.empty());
  const std::regex named("`((?:[.\\w-]+/)+)`");
  int checked = 0;
  for (std::sregex_iterator it(map.begin(), map.end(), named), end; it != end; ++it) {
    const std::string folder = (*it)[1];
    EXPECT_TRUE(fs::is_directory(kSource / folder)) << folder << " is in the code map but gone";
    ++checked;
  }
  EXPECT_GT(checked, 30);
}

}  // namespace
