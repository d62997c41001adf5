// netgraphctl: the operator's command-line tool. `netgraphctl --help` describes every command
// (help2man makes the man page from it), `netgraphctl COMMAND --help` one command or group, and
// `netgraphctl complete WORDS...` lists what may follow WORDS, for the bash completion
// (packaging/netgraphctl.bash-completion).
#include <grp.h>
#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/log.h"
#include "core/store/connection.h"
#include "core/version.h"

namespace {

using netgraph::cli::Command;
using netgraph::cli::RunAs;

// The service's system users (packaging/sysusers.conf).
constexpr const char* kServiceUser = "netgraph";
constexpr const char* kMigratorUser = "netgraph-migrate";

std::vector<Command> AllCommands() {
  std::vector<Command> all;
  for (auto group :
       {netgraph::cli::MigrateCommands, netgraph::cli::SeedCommands, netgraph::cli::TokenCommands,
        netgraph::cli::RoundCommands, netgraph::cli::VoucherCommands, netgraph::cli::UserCommands,
        netgraph::cli::AdminCommands, netgraph::cli::WalletCommands, netgraph::cli::GraphCommands,
        netgraph::cli::TreasuryCommands, netgraph::cli::ConfidentialCommands,
        netgraph::cli::ReceiptCommands, netgraph::cli::GraphQLCommands,
        netgraph::cli::GraphQLIntrospectCommands}) {
    for (Command& c : group()) all.push_back(std::move(c));
  }
  return all;
}

std::string FirstWord(const std::string& name) { return name.substr(0, name.find(' ')); }

// A command's help: its synopsis, its summary, then each option on a line of its own, indented as
// help2man reads options.
void PrintCommand(std::ostream& out, const Command& c) {
  out << "  netgraphctl " << c.name << (c.usage.empty() ? "" : " " + c.usage) << "\n      "
      << c.summary << "\n";
  for (const netgraph::cli::OptionHelp& option : c.options) {
    out << "        " << option.name << "\n            " << option.meaning << "\n";
  }
}

void PrintHelp(std::ostream& out, const std::vector<Command>& commands) {
  out << "Usage: netgraphctl COMMAND [ARGUMENTS]\n"
         "  or:  netgraphctl COMMAND --help\n"
         "  or:  netgraphctl --version\n"
         "The netgraph operator's tool: the database schema, the token, rounds, vouchers, users,\n"
         "keys, receipts and GraphQL documents.\n"
         "\n"
         "Configuration:\n"
         "  The services' settings (DATABASE_URL, NETGRAPH_*), from the environment and the\n"
         "  file NETGRAPH_CONFIG_FILE names (/etc/netgraph/netgraph.env in the Debian\n"
         "  package). Commands that use the database run as the service's user, netgraph\n"
         "  (migrate: netgraph-migrate), whom PostgreSQL's peer authentication knows: started\n"
         "  as root with a DATABASE_URL that names no user, netgraphctl switches to that user.\n"
         "\n"
         "Commands:\n";
  for (const Command& c : commands) PrintCommand(out, c);
  out << "\n"
         "Exit status:\n"
         "  0 done; 1 failed (the message says why); 2 a usage error.\n";
}

// `netgraphctl complete WORDS...`: one candidate per line for the word after WORDS.
int Complete(const std::vector<std::string>& words, const std::vector<Command>& commands) {
  std::set<std::string> candidates;
  const std::string typed = words.empty() ? "" : words[0];
  for (const Command& c : commands) {
    if (words.empty()) {
      candidates.insert(FirstWord(c.name));
      continue;
    }
    const std::string second =
        c.name.find(' ') == std::string::npos ? "" : c.name.substr(c.name.find(' ') + 1);
    if (FirstWord(c.name) != typed) continue;
    if (words.size() == 1 && !second.empty()) {
      candidates.insert(second);
      continue;
    }
    if (second.empty() || (words.size() >= 2 && words[1] == second)) {
      for (const netgraph::cli::OptionHelp& option : c.options) {
        if (option.name.rfind("--", 0) == 0) candidates.insert(FirstWord(option.name));
      }
      candidates.insert("--help");
    }
  }
  if (words.empty()) candidates.insert({"--help", "--version"});
  for (const std::string& candidate : candidates) std::cout << candidate << "\n";
  return netgraph::cli::kExitOk;
}

// Started as root, a command that talks to the database and whose connection names no user would
// log in as "root", whom PostgreSQL does not know: it runs as the service's user instead. Returns
// nullopt to carry on, or the exit status after saying what to do.
std::optional<int> RunAsServiceUser(const Command& command) {
  if (::geteuid() != 0 || command.run_as == RunAs::kAnyone) return std::nullopt;
  netgraph::config::Environment env;
  const std::string url = command.run_as == RunAs::kMigrator
                              ? env.String("NETGRAPH_MIGRATE_DATABASE_URL", env.DatabaseUrl())
                              : env.DatabaseUrl();
  if (netgraph::store::ConnectionNamesUser(url)) return std::nullopt;
  const char* name = command.run_as == RunAs::kMigrator && ::getpwnam(kMigratorUser) != nullptr
                         ? kMigratorUser
                         : kServiceUser;
  const passwd* user = ::getpwnam(name);
  if (user == nullptr) {
    std::cerr << "netgraphctl " << command.name << ": run as root, it would log in to PostgreSQL "
              << "as root; there is no user " << name << " to run as. Run it as the user the "
              << "database knows (sudo -u USER netgraphctl ...), or name the user in "
              << "DATABASE_URL\n";
    return netgraph::cli::kExitFailed;
  }
  const gid_t group = user->pw_gid;
  const uid_t uid = user->pw_uid;
  if (::initgroups(name, group) != 0 || ::setgid(group) != 0 || ::setuid(uid) != 0 ||
      ::getuid() != uid) {
    std::cerr << "netgraphctl " << command.name << ": cannot become " << name << ": "
              << std::strerror(errno) << "; run it as that user: runuser -u " << name
              << " -- netgraphctl " << command.name << " ...\n";
    return netgraph::cli::kExitFailed;
  }
  ::setenv("HOME", user->pw_dir, 1);
  ::setenv("USER", name, 1);
  ::setenv("LOGNAME", name, 1);
  return std::nullopt;
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
  if (!words.empty() && words[0] == "complete") {
    return Complete(std::vector<std::string>(words.begin() + 1, words.end()), commands);
  }
  const bool asks_help = std::find(words.begin(), words.end(), "--help") != words.end() ||
                         std::find(words.begin(), words.end(), "-h") != words.end() ||
                         (!words.empty() && words[0] == "help");
  if (!words.empty() && words[0] == "help") words.erase(words.begin());
  std::erase_if(words, [](const std::string& w) { return w == "--help" || w == "-h"; });
  if (words.empty()) {
    PrintHelp(asks_help ? std::cout : std::cerr, commands);
    return asks_help ? netgraph::cli::kExitOk : netgraph::cli::kExitUsage;
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
    // A group's name alone ("vouchers"): its commands.
    std::vector<Command> group;
    for (const Command& c : commands) {
      if (FirstWord(c.name) == words[0]) group.push_back(c);
    }
    if (!group.empty() && words.size() == 1) {
      std::ostream& out = asks_help ? std::cout : std::cerr;
      out << "Usage: netgraphctl " << words[0] << " COMMAND [ARGUMENTS]\n\nCommands:\n";
      for (const Command& c : group) PrintCommand(out, c);
      return asks_help ? netgraph::cli::kExitOk : netgraph::cli::kExitUsage;
    }
    std::cerr << "netgraphctl: unknown command: " << words[0]
              << (group.empty() ? "" : " " + (words.size() > 1 ? words[1] : std::string()))
              << " (netgraphctl --help lists them)\n";
    return netgraph::cli::kExitUsage;
  }
  if (asks_help) {
    std::cout << "Usage:\n";
    PrintCommand(std::cout, *chosen);
    return netgraph::cli::kExitOk;
  }
  if (std::optional<int> refused = RunAsServiceUser(*chosen)) return *refused;
  netgraph::cli::Arguments arguments(
      std::vector<std::string>(words.begin() + static_cast<long>(used), words.end()));
  return chosen->run(arguments);
}
