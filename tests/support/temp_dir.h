// A directory of a test's own, removed with everything in it when the object goes away: the one
// helper the C++ tests make scratch folders with (unit and database tests alike).
#ifndef NETGRAPH_TESTS_SUPPORT_TEMP_DIR_H_
#define NETGRAPH_TESTS_SUPPORT_TEMP_DIR_H_

#include <stdlib.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <system_error>

namespace netgraph::testing {

class TempDir {
 public:
  // `<parent>/<prefix>-XXXXXX`. The default parent is the system's temporary folder ($TMPDIR);
  // tests that put unix sockets inside give a short one (/var/tmp), as a socket path has at most
  // 107 bytes. A directory that cannot be made ends the test binary: nothing can run without it.
  explicit TempDir(std::string_view prefix = "netgraph-test",
                   const std::filesystem::path& parent = std::filesystem::temp_directory_path()) {
    std::string pattern = (parent / (std::string(prefix) + "-XXXXXX")).string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror(("mkdtemp " + pattern).c_str());
      std::abort();
    }
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // Writes `content` to `name` in the directory and returns the file's path.
  std::string Write(const std::string& name, std::string_view content) const {
    const std::filesystem::path file = path_ / name;
    std::ofstream(file, std::ios::binary) << content;
    return file.string();
  }

 private:
  std::filesystem::path path_;
};

}  // namespace netgraph::testing

#endif  // NETGRAPH_TESTS_SUPPORT_TEMP_DIR_H_
