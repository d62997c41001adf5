// netgraphctl users list: the users the service has seen (core/domain/user.h).
#include <iostream>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/domain/user.h"
#include "core/store/connection.h"

namespace netgraph::cli {
namespace {

int List(Arguments& arguments) {
  std::optional<std::string> first_text = arguments.Option("first");
  std::optional<std::string> after_text = arguments.Option("after");
  std::optional<long long> first = first_text ? ParseInteger(*first_text) : 100;
  std::optional<long long> after = after_text ? ParseInteger(*after_text) : 0;
  Status finished = arguments.Finish();
  if (!finished.ok() || !first || *first < 1 || *first > 1000 || !after || *after < 0) {
    std::cerr << "netgraphctl users list: "
              << (!finished.ok()                          ? finished.message()
                  : !first || *first < 1 || *first > 1000 ? std::string("--first must be 1 to 1000")
                                                          : "--after must be a user id")
              << "\n";
    return kExitUsage;
  }
  config::Environment env;
  store::Connection db(env.DatabaseUrl());
  Result<std::vector<domain::User>> users = domain::ListUsers(db, *first, *after);
  if (!users.ok()) {
    std::cerr << "netgraphctl users list: " << users.status().message() << "\n";
    return kExitFailed;
  }
  for (const domain::User& u : *users) {
    std::cout << u.id << "\t" << u.idp_did << "\t" << u.email.value_or("-") << "\t"
              << (u.is_admin ? "admin" : "-") << "\t" << u.public_id << "\n";
  }
  return kExitOk;
}

}  // namespace

std::vector<Command> UserCommands() {
  return {{"users list",
           "[--first N] [--after ID]",
           "list the users by id: id, idpDid, email, admin (the database flag), graph node id",
           List,
           {{"--first N", "at most N users (1 to 1000, default 100)"},
            {"--after ID", "the users after this id (the last one a page showed)"}}}};
}

}  // namespace netgraph::cli
