// netgraphctl treasury ...: the treasury key that signs redemption receipts (a Solana keypair
// file).
#include <iostream>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/solana_address.h"
#include "core/crypto/solana_keypair.h"

namespace netgraph::cli {
namespace {

int Pubkey(Arguments& arguments) {
  std::optional<std::string> path = arguments.Option("keypair");
  if (Status s = arguments.Finish(); !s.ok()) {
    std::cerr << "netgraphctl treasury pubkey: " << s.message() << "\n";
    return kExitUsage;
  }
  config::Environment env;
  const std::string file = path.value_or(env.String("NETGRAPH_TREASURY_KEYPAIR_FILE"));
  if (file.empty()) {
    std::cerr << "netgraphctl treasury pubkey: set NETGRAPH_TREASURY_KEYPAIR_FILE or pass "
                 "--keypair FILE\n";
    return kExitUsage;
  }
  Result<crypto::Ed25519Keypair> keypair = crypto::ReadSolanaKeypairFile(file);
  if (!keypair.ok()) {
    std::cerr << "netgraphctl treasury pubkey: " << keypair.status().message() << "\n";
    return kExitFailed;
  }
  std::cout << crypto::SolanaAddress(keypair->public_key()).ToBase58() << "\n";
  return kExitOk;
}

int Keygen(Arguments& arguments) {
  std::optional<std::string> out = arguments.Option("out");
  if (Status s = arguments.Finish(); !s.ok() || !out) {
    std::cerr << "netgraphctl treasury keygen: " << (out ? s.message() : "--out FILE is required")
              << "\n";
    return kExitUsage;
  }
  Result<crypto::Ed25519Keypair> keypair = crypto::Ed25519Keypair::Generate();
  Status written = keypair.ok() ? crypto::WriteSolanaKeypairFile(*out, *keypair) : keypair.status();
  if (!written.ok()) {
    std::cerr << "netgraphctl treasury keygen: " << written.message() << "\n";
    return kExitFailed;
  }
  std::cout << crypto::SolanaAddress(keypair->public_key()).ToBase58() << "\n";
  return kExitOk;
}

}  // namespace

std::vector<Command> TreasuryCommands() {
  return {
      {"treasury pubkey",
       "[--keypair FILE]",
       "print the treasury's public key (base58), which verifies receipts",
       Pubkey,
       {{"--keypair FILE", "the keypair file (default: NETGRAPH_TREASURY_KEYPAIR_FILE)"}},
       RunAs::kAnyone},
      {"treasury keygen",
       "--out FILE",
       "write a new Solana keypair file (mode 0600; never overwrites) and print its public key",
       Keygen,
       {{"--out FILE",
         "where to write it; give it to the service's user afterwards (chown "
         "netgraph:netgraph FILE)"}},
       RunAs::kAnyone},
  };
}

}  // namespace netgraph::cli
