// netgraphctl seed --demo: demo data for a development stack (core/domain/demo_seed.h).
#include <iostream>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/domain/demo_seed.h"
#include "core/store/connection.h"

namespace netgraph::cli {
namespace {

int Seed(Arguments& arguments) {
  const bool demo = arguments.Flag("demo");
  if (Status s = arguments.Finish(); !s.ok() || !demo) {
    std::cerr << "netgraphctl seed: " << (s.ok() ? "only --demo data exists" : s.message()) << "\n";
    return kExitUsage;
  }
  config::Environment env;
  store::Connection db(env.DatabaseUrl());
  Result<domain::DemoSeed> seed = domain::SeedDemo(db);
  if (!seed.ok()) {
    std::cerr << "netgraphctl seed: " << seed.status().message() << "\n";
    return kExitFailed;
  }
  std::cout << "demo investor: " << domain::kDemoInvestorDid << " (" << domain::kDemoInvestorEmail
            << "), wallet " << domain::kDemoInvestorWallet << "\n"
            << "demo admin:    " << domain::kDemoAdminDid << "\n"
            << "available demo vouchers:\n";
  for (const std::string& code : seed->available_codes) std::cout << "  " << code << "\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> SeedCommands() {
  return {{"seed",
           "--demo",
           "add the demo data (token, rounds, graph, users, vouchers) of a development stack; "
           "idempotent",
           Seed,
           {{"--demo", "the demo data (the only kind there is); never on a production database"}}}};
}

}  // namespace netgraph::cli
