// A configuration read from a map instead of the process environment, for tests of code that reads
// settings (config::Environment's lookup constructor): the one such helper the C++ tests share.
#ifndef NETGRAPH_TESTS_SUPPORT_ENVIRONMENT_H_
#define NETGRAPH_TESTS_SUPPORT_ENVIRONMENT_H_

#include <map>
#include <optional>
#include <string>
#include <utility>

#include "core/config/environment.h"

namespace netgraph::testing {

inline config::Environment EnvironmentOf(std::map<std::string, std::string> variables) {
  return config::Environment(
      [variables = std::move(variables)](const std::string& name) -> std::optional<std::string> {
        auto it = variables.find(name);
        if (it == variables.end()) return std::nullopt;
        return it->second;
      });
}

}  // namespace netgraph::testing

#endif  // NETGRAPH_TESTS_SUPPORT_ENVIRONMENT_H_
