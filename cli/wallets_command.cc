// netgraphctl wallets reassign ADDRESS DID: an operator moves a wallet to another user, for
// disputes a proof cannot settle (core/domain/wallet_proof.h: ReassignWallet).
#include <iostream>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/domain/wallet_proof.h"
#include "core/store/connection.h"

namespace netgraph::cli {
namespace {

int Reassign(Arguments& arguments) {
  std::vector<std::string> words = arguments.Positionals();
  if (Status s = arguments.Finish(); !s.ok() || words.size() != 2) {
    std::cerr << "netgraphctl wallets reassign: "
              << (s.ok() ? "name a wallet address and a user's idpDid" : s.message()) << "\n";
    return kExitUsage;
  }
  config::Environment env;
  store::Connection db(env.DatabaseUrl());
  Result<domain::ProvenWallet> moved = domain::ReassignWallet(db, words[0], words[1]);
  if (!moved.ok()) {
    std::cerr << "netgraphctl wallets reassign: " << moved.status().message() << "\n";
    return kExitFailed;
  }
  if (!moved->took_over) {
    std::cout << "wallet " << moved->wallet_address << " already belongs to " << words[1] << "\n";
    return kExitOk;
  }
  std::cout << "reassigned wallet " << moved->wallet_address << " to " << words[1] << "; released "
            << moved->released_vouchers << " claimed voucher(s) of the previous owner"
            << (moved->removed_token_account ? "; reset its confidential token account" : "")
            << "\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> WalletCommands() {
  return {{"wallets reassign",
           "ADDRESS DID",
           "bind the wallet to the user with this idpDid (unproven); the previous owner's claims "
           "on it are released and its confidential token account is reset",
           Reassign,
           {{"ADDRESS", "the wallet's address (base58)"},
            {"DID", "the idpDid of the user who gets it; a user not seen yet is created"}}}};
}

}  // namespace netgraph::cli
