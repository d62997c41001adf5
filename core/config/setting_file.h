// A setting that names a file to load (NETGRAPH_TRUSTED_DOCUMENTS,
// NETGRAPH_UPDATE_SIGNING_KEY_FILE): the file's text goes to the setting's own parser, and whatever
// fails is reported as FailedPrecondition naming the setting and the file, so the operator knows
// which one to fix.
#ifndef NETGRAPH_CORE_CONFIG_SETTING_FILE_H_
#define NETGRAPH_CORE_CONFIG_SETTING_FILE_H_

#include <string>
#include <string_view>
#include <utility>

#include "core/status.h"

namespace netgraph::config {

// The text of the file at `path`, or "<setting>: cannot read <path>".
Result<std::string> ReadSettingFile(std::string_view setting, const std::string& path);

// "<setting> (<path>): <the problem's message>", for a file that was read but does not parse.
Status SettingFileProblem(std::string_view setting, const std::string& path, const Status& problem);

// Reads the file at `path` and returns `parse(text)` (a Result<T>), its failure as
// SettingFileProblem.
template <typename Parse>
auto LoadSettingFile(std::string_view setting, const std::string& path, Parse parse)
    -> decltype(parse(std::string_view())) {
  Result<std::string> text = ReadSettingFile(setting, path);
  if (!text.ok()) return std::move(text).status();
  auto parsed = parse(std::string_view(*text));
  if (!parsed.ok()) return SettingFileProblem(setting, path, parsed.status());
  return parsed;
}

}  // namespace netgraph::config

#endif  // NETGRAPH_CORE_CONFIG_SETTING_FILE_H_
