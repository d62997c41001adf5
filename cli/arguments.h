// Command-line arguments of one netgraphctl command: options (`--name value`, `--name=value`),
// flags (`--name`) and positionals. A command asks for what it knows, then calls Finish, which
// rejects anything left over, so a mistyped option is an error rather than silently ignored.
#ifndef NETGRAPH_CLI_ARGUMENTS_H_
#define NETGRAPH_CLI_ARGUMENTS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace netgraph::cli {

class Arguments {
 public:
  explicit Arguments(std::vector<std::string> words);

  // The value of `--name`; nullopt when absent. `--name` without a value is recorded as an error.
  std::optional<std::string> Option(std::string_view name);
  // Whether the flag `--name` is present.
  bool Flag(std::string_view name);
  // The words that are not options, in order. Call after every Option and Flag.
  std::vector<std::string> Positionals();
  // Ok, or an error naming unknown options and missing values.
  Status Finish();

 private:
  std::vector<std::string> words_;
  std::vector<bool> used_;
  std::vector<std::string> problems_;
};

// Parses a whole number option; records a problem and returns nullopt when it is not one.
std::optional<long long> ParseInteger(std::string_view text);

}  // namespace netgraph::cli

#endif  // NETGRAPH_CLI_ARGUMENTS_H_
