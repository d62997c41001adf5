// netgraphctl admin grant DID: makes a user an administrator (the database flag).
#include <iostream>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/domain/user.h"
#include "core/store/connection.h"

namespace netgraph::cli {
namespace {

int Grant(Arguments& arguments) {
  std::vector<std::string> dids = arguments.Positionals();
  if (Status s = arguments.Finish(); !s.ok() || dids.size() != 1) {
    std::cerr << "netgraphctl admin grant: " << (s.ok() ? "name exactly one DID" : s.message())
              << "\n";
    return kExitUsage;
  }
  config::Environment env;
  store::Connection db(env.DatabaseUrl());
  Result<domain::User> user = domain::GrantAdmin(db, dids[0]);
  if (!user.ok()) {
    std::cerr << "netgraphctl admin grant: " << user.status().message() << "\n";
    return kExitFailed;
  }
  std::cout << "granted administrator rights to " << user->idp_did << "\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> AdminCommands() {
  return {{"admin grant",
           "DID",
           "make the user with this idpDid an administrator",
           Grant,
           {{"DID",
             "the user's idpDid, the `sub` of the identity provider's tokens; a user not "
             "seen yet is created"}}}};
}

}  // namespace netgraph::cli
