// layering_check: fails when an #include crosses the layering that cmake/Layering.cmake declares.
//
//   layering_check <repository root> <spec file> <directory>...
//
// Scans the .h and .cc files under each <directory> (relative to the root) and reads their
// `#include "..."` lines. Includes are rooted at the repository root (a file's own folder is tried
// next, for tests' local helpers); anything that is neither is a system or generated header and
// not checked. The spec, written by CMake (see netgraph_write_layering_spec), has one directive a
// line:
//
//   concern <name> <dir>/ depends <name>... [tests <dir>/...]
//   forbid <dir>/ <dir>/...
//
// A file belongs to the concern whose directory is the longest prefix of its path. Three rules:
//   forbidden-include      a file under a `forbid` line's first directory includes a file under one
//                          of the others (core/ must not see fcgi/, ws/ or daemon/);
//   internal-header        a file includes <dir>/internal/... of a concern other than its own, and
//                          is not in that concern's `tests` directories;
//   undeclared-dependency  a file of one concern includes a file of another concern that it does
//                          not name in `depends`, or a file outside every concern.
// The spec itself must name known concerns only, with no cycle among their dependencies.
// Each violation is printed as "<file>:<line>: error: <what> [<rule>]" (the compilers' format, so
// editors jump to it); the exit status is 1 when there is any, 2 when the arguments or the spec
// are unusable. It links nothing of the core, so it runs before the core is compiled.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Concern {
  std::string name;
  std::string directory;  // relative to the root, ends with '/'
  std::set<std::string> depends;
  std::vector<std::string> test_directories;
};

struct Forbid {
  std::string from;
  std::vector<std::string> to;
};

struct Spec {
  std::vector<Concern> concerns;
  std::vector<Forbid> forbids;
};

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

// Reads the spec; on a malformed line writes why to `problem` and returns false.
bool ReadSpec(const fs::path& path, Spec& spec, std::string& problem) {
  std::ifstream in(path);
  if (!in) {
    problem = "cannot read the spec " + path.string();
    return false;
  }
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::istringstream words(line);
    std::string keyword;
    if (!(words >> keyword)) continue;
    std::vector<std::string> rest;
    for (std::string word; words >> word;) rest.push_back(word);
    const std::string where = path.string() + ":" + std::to_string(number) + ": ";
    if (keyword == "concern") {
      if (rest.size() < 3 || rest[2] != "depends" || rest[1].back() != '/') {
        problem = where + "expected 'concern <name> <dir>/ depends <name>... [tests <dir>/...]'";
        return false;
      }
      Concern concern{rest[0], rest[1], {}, {}};
      bool in_tests = false;
      for (size_t i = 3; i < rest.size(); ++i) {
        if (rest[i] == "tests") {
          in_tests = true;
        } else if (in_tests) {
          concern.test_directories.push_back(rest[i]);
        } else {
          concern.depends.insert(rest[i]);
        }
      }
      spec.concerns.push_back(std::move(concern));
    } else if (keyword == "forbid") {
      if (rest.size() < 2) {
        problem = where + "expected 'forbid <dir>/ <dir>/...'";
        return false;
      }
      spec.forbids.push_back({rest[0], {rest.begin() + 1, rest.end()}});
    } else {
      problem = where + "unknown directive '" + keyword + "'";
      return false;
    }
  }
  std::set<std::string> names;
  for (const Concern& concern : spec.concerns) names.insert(concern.name);
  for (const Concern& concern : spec.concerns) {
    for (const std::string& dependency : concern.depends) {
      if (!names.contains(dependency)) {
        problem = path.string() + ": concern " + concern.name + " depends on unknown concern " +
                  dependency;
        return false;
      }
    }
  }
  // CMake links static libraries that depend on each other in a cycle without complaint; the
  // layering must not have one.
  std::map<std::string, const Concern*> by_name;
  for (const Concern& concern : spec.concerns) by_name[concern.name] = &concern;
  std::map<std::string, int> state;  // 1 while on the path being walked, 2 once done
  std::vector<std::string> walk;
  std::function<bool(const std::string&)> acyclic = [&](const std::string& name) {
    if (state[name] == 2) return true;
    walk.push_back(name);
    if (state[name] == 1) return false;
    state[name] = 1;
    for (const std::string& dependency : by_name[name]->depends) {
      if (!acyclic(dependency)) return false;
    }
    state[name] = 2;
    walk.pop_back();
    return true;
  };
  for (const Concern& concern : spec.concerns) {
    if (!acyclic(concern.name)) {
      problem = path.string() + ": the declared dependencies have a cycle:";
      for (const std::string& name : walk) problem += " " + name;
      return false;
    }
  }
  return true;
}

// The concern whose directory is the longest prefix of `file`, or null.
const Concern* ConcernOf(const Spec& spec, const std::string& file) {
  const Concern* best = nullptr;
  for (const Concern& concern : spec.concerns) {
    if (StartsWith(file, concern.directory) &&
        (best == nullptr || concern.directory.size() > best->directory.size())) {
      best = &concern;
    }
  }
  return best;
}

struct Violation {
  std::string file;
  int line;
  std::string what;
  std::string rule;
};

// The rule `file` breaks by including `target` (both relative to the root), if any.
std::optional<Violation> Judge(const Spec& spec, const std::string& file, int line,
                               const std::string& target) {
  const std::string quoted = "\"" + target + "\"";
  for (const Forbid& forbid : spec.forbids) {
    if (!StartsWith(file, forbid.from)) continue;
    for (const std::string& to : forbid.to) {
      if (StartsWith(target, to)) {
        return Violation{file, line,
                         "includes " + quoted + ": files under " + forbid.from +
                             " must not include anything under " + to,
                         "forbidden-include"};
      }
    }
  }
  const Concern* from = ConcernOf(spec, file);
  const Concern* to = ConcernOf(spec, target);
  if (to != nullptr && to != from && StartsWith(target, to->directory + "internal/")) {
    const bool own_test =
        std::any_of(to->test_directories.begin(), to->test_directories.end(),
                    [&](const std::string& directory) { return StartsWith(file, directory); });
    if (!own_test) {
      return Violation{file, line,
                       "includes " + quoted + ", which is internal to concern " + to->name,
                       "internal-header"};
    }
  }
  if (from != nullptr && to != from) {
    if (to == nullptr) {
      return Violation{file, line,
                       "includes " + quoted + ", which belongs to no concern; concern " +
                           from->name + " may include only the concerns it depends on",
                       "undeclared-dependency"};
    }
    if (!from->depends.contains(to->name)) {
      return Violation{file, line,
                       "includes " + quoted + ": concern " + from->name +
                           " does not depend on concern " + to->name +
                           " (netgraph_concern in CMake declares what it may use)",
                       "undeclared-dependency"};
    }
  }
  return std::nullopt;
}

// `include` as a path relative to the root, or empty when it names no file of the tree (a
// system or generated header). `top_directories` are the root's folders: an include that starts
// with one is rooted there even if the file is missing (the compiler reports that).
std::string Resolve(const fs::path& root, const std::string& file, const std::string& include,
                    const std::set<std::string>& top_directories) {
  const std::string first = include.substr(0, include.find('/'));
  if (include.find('/') != std::string::npos && top_directories.contains(first)) return include;
  if (fs::is_regular_file(root / include)) return include;
  const fs::path local = fs::path(file).parent_path() / include;
  if (fs::is_regular_file(root / local)) return local.lexically_normal().generic_string();
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: layering_check <repository root> <spec file> <directory>...\n";
    return 2;
  }
  const fs::path root = argv[1];
  Spec spec;
  std::string problem;
  if (!ReadSpec(argv[2], spec, problem)) {
    std::cerr << "layering_check: " << problem << "\n";
    return 2;
  }
  std::set<std::string> top_directories;
  for (const fs::directory_entry& entry : fs::directory_iterator(root)) {
    if (entry.is_directory()) top_directories.insert(entry.path().filename().string());
  }

  std::vector<std::string> files;
  for (int i = 3; i < argc; ++i) {
    if (!fs::is_directory(root / argv[i])) {
      std::cerr << "layering_check: no directory " << (root / argv[i]).string() << "\n";
      return 2;
    }
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(root / argv[i])) {
      const std::string extension = entry.path().extension().string();
      if (entry.is_regular_file() && (extension == ".h" || extension == ".cc")) {
        files.push_back(fs::relative(entry.path(), root).generic_string());
      }
    }
  }
  std::sort(files.begin(), files.end());

  static const std::regex kInclude(R"re(^\s*#\s*include\s*"([^"]+)")re");
  std::vector<Violation> violations;
  for (const std::string& file : files) {
    std::ifstream in(root / file);
    std::string text;
    int line = 0;
    while (std::getline(in, text)) {
      ++line;
      if (text.find("include") == std::string::npos) continue;  // std::regex is slow
      std::smatch match;
      if (!std::regex_search(text, match, kInclude)) continue;
      const std::string target = Resolve(root, file, match[1].str(), top_directories);
      if (target.empty()) continue;
      if (std::optional<Violation> violation = Judge(spec, file, line, target)) {
        violations.push_back(*violation);
      }
    }
  }
  for (const Violation& violation : violations) {
    std::cerr << violation.file << ":" << violation.line << ": error: " << violation.what << " ["
              << violation.rule << "]\n";
  }
  if (!violations.empty()) {
    std::cerr << "layering_check: " << violations.size()
              << " include(s) break the layering declared by netgraph_concern in the "
                 "CMakeLists.txt of core/, daemon/, fcgi/ and ws/\n";
    return 1;
  }
  return 0;
}
