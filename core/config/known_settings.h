// Which names are netgraph settings, for reporting the ones that are not (a misspelt setting is
// otherwise ignored without a word). The list is every setting name some program reads (netgraph-
// fcgi, netgraph-ws, netgraphctl): a daemon knows the other daemon's settings too, so one file can
// configure them all.
//
// The names come from the sources themselves at build time (cmake/SettingNamesScript.cmake: every
// string literal that is a whole NETGRAPH_* name, DATABASE_URL or REDIS_URL), so a new setting is
// known at once; tests/unit/config checks that the sample configuration file and
// docs/operations.md list each of them.
#ifndef NETGRAPH_CORE_CONFIG_KNOWN_SETTINGS_H_
#define NETGRAPH_CORE_CONFIG_KNOWN_SETTINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace netgraph::config {

// Every setting the code reads, sorted (generated).
const std::vector<std::string_view>& SettingsReadByTheCode();

// A setting, or a name scripts/stack writes into its stack.env for its clients (the URLs), which
// the development stack's daemons read as their configuration file.
bool IsKnownName(std::string_view name);

// The setting whose name is fewest edits (insertions, deletions, substitutions, swaps of
// neighbours) away from `name`, and that number of edits.
struct NearestSetting {
  std::string_view name;
  std::size_t edits = 0;
};
NearestSetting Nearest(std::string_view name);

}  // namespace netgraph::config

#endif  // NETGRAPH_CORE_CONFIG_KNOWN_SETTINGS_H_
