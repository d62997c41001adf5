// A netgraphctl command: a name (one or two words, e.g. "migrate", "token mint"), its arguments'
// synopsis, a line of help, what each option means, who it must run as, and the function that runs
// it with the remaining arguments. Each command group lives in its own file and lists its commands
// in a function that netgraphctl.cc collects. The same table gives `--help` (of netgraphctl, of a
// group and of a command), the man page (help2man reads `netgraphctl --help`) and the bash
// completion (`netgraphctl complete`).
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

// One option or argument of a command, for its help.
struct OptionHelp {
  std::string name;     // "--amount A", "--json", "CODE"
  std::string meaning;  // one sentence
};

// Who a command must run as when root starts it (netgraphctl.cc): the database's peer
// authentication knows the service's users, not root.
enum class RunAs {
  kAnyone,    // no database, no configuration secrets: as whoever runs it
  kService,   // the service user, netgraph
  kMigrator,  // the user that owns the schema, netgraph-migrate (netgraph where there is none)
};

struct Command {
  std::string name;
  std::string usage;  // arguments, e.g. "--sub DID [--email E]"
  std::string summary;
  int (*run)(Arguments& arguments);
  std::vector<OptionHelp> options = {};
  RunAs run_as = RunAs::kService;
};

std::vector<Command> MigrateCommands();
std::vector<Command> SeedCommands();
std::vector<Command> TokenCommands();
std::vector<Command> RoundCommands();
std::vector<Command> VoucherCommands();
std::vector<Command> UserCommands();
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
