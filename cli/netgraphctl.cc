// netgraphctl: the operator's command-line tool. `netgraphctl help` lists the commands.
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/log.h"
#include "core/version.h"

namespace {

using netgraph::cli::Command;

std::vector<Command> AllCommands() {
  std::vector<Command> all;
  for (auto group :
       {netgraph::cli::MigrateCommands, netgraph::cli::SeedCommands, netgraph::cli::TokenCommands,
        netgraph::cli::VoucherCommands, netgraph::cli::AdminCommands, netgraph::cli::WalletCommands,
        netgraph::cli::GraphCommands, netgraph::cli::TreasuryCommands,
        netgraph::cli::ConfidentialCommands, netgraph::cli::ReceiptCommands,
        netgraph::cli::GraphQLCommands, netgraph::cli::GraphQLIntrospectCommands}) {
    for (Command& c : group()) all.push_back(std::move(c));
  }
  return all;
}

void PrintHelp(std::ostream& out, const std::vector<Command>& commands) {
  out << "usage: netgraphctl COMMAND [ARGUMENTS] | --version\n\n"
         "Configured by the same environment variables as the services (DATABASE_URL, REDIS_URL,\n"
         "NETGRAPH_*; see docs/operations.md).\n\ncommands:\n";
  for (const Command& c : commands) {
    out << "  " << c.name << (c.usage.empty() ? "" : " " + c.usage) << "\n      " << c.summary
        << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  netgraph::log::Init("netgraphctl");
  std::vector<std::string> words(argv + 1, argv + argc);
  const std::vector<Command> commands = AllCommands();
  if (words.size() == 1 && words[0] == "--version") {
    std::cout << "netgraphctl " << netgraph::Version() << "\n";
    return netgraph::cli::kExitOk;
  }
  if (words.empty() || words[0] == "help" || words[0] == "--help" || words[0] == "-h") {
    PrintHelp(words.empty() ? std::cerr : std::cout, commands);
    return words.empty() ? netgraph::cli::kExitUsage : netgraph::cli::kExitOk;
  }
  // The longest command name that the words start with: "token mint" before "token".
  const Command* chosen = nullptr;
  std::size_t used = 0;
  for (const Command& c : commands) {
    std::size_t spaces = static_cast<std::size_t>(std::count(c.name.begin(), c.name.end(), ' '));
    if (words.size() <= spaces) continue;
    std::string joined = words[0];
    for (std::size_t i = 1; i <= spaces; ++i) joined += " " + words[i];
    if (joined == c.name && spaces + 1 > used) {
      chosen = &c;
      used = spaces + 1;
    }
  }
  if (chosen == nullptr) {
    std::cerr << "netgraphctl: unknown command: " << words[0] << "\n\n";
    PrintHelp(std::cerr, commands);
    return netgraph::cli::kExitUsage;
  }
  netgraph::cli::Arguments arguments(
      std::vector<std::string>(words.begin() + static_cast<long>(used), words.end()));
  return chosen->run(arguments);
}
