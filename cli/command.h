// A netgraphctl command: a name (one or two words, e.g. "migrate", "token mint"), a line of help,
// and the function that runs it with the remaining arguments. Each command group lives in its own
// file and lists its commands in a function that netgraphctl.cc collects.
#ifndef NETGRAPH_CLI_COMMAND_H_
#define NETGRAPH_CLI_COMMAND_H_

#include <string>
#include <vector>

#include "cli/arguments.h"

namespace netgraph::cli {

// Exit statuses: 0 done, 1 failed, 2 bad usage.
constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

struct Command {
  std::string name;
  std::string usage;  // arguments, e.g. "--sub DID [--email E]"
  std::string summary;
  int (*run)(Arguments& arguments);
};

std::vector<Command> MigrateCommands();
std::vector<Command> SeedCommands();
std::vector<Command> TokenCommands();
std::vector<Command> VoucherCommands();
std::vector<Command> AdminCommands();
std::vector<Command> WalletCommands();
std::vector<Command> GraphCommands();
std::vector<Command> TreasuryCommands();
std::vector<Command> ConfidentialCommands();
std::vector<Command> ReceiptCommands();
std::vector<Command> GraphQLCommands();
std::vector<Command> GraphQLIntrospectCommands();

}  // namespace netgraph::cli

#endif  // NETGRAPH_CLI_COMMAND_H_
