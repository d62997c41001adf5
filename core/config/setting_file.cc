#include "core/config/setting_file.h"

#include <fstream>
#include <sstream>

namespace netgraph::config {

Result<std::string> ReadSettingFile(std::string_view setting, const std::string& path) {
  std::ifstream file(path);
  if (!file) return Status::FailedPrecondition(std::string(setting) + ": cannot read " + path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

Status SettingFileProblem(std::string_view setting, const std::string& path,
                          const Status& problem) {
  return Status::FailedPrecondition(std::string(setting) + " (" + path + "): " + problem.message());
}

}  // namespace netgraph::config
