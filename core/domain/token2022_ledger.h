// The service's own ConfidentialLedger, in Solana Token-2022's encodings (core/crypto): token
// accounts are the associated Token-2022 accounts of (wallet, mint); amounts and balances are
// twisted-ElGamal ciphertexts; receipts are crypto/receipt.h's, signed by the treasury key.
//
// Configuration:
//   NETGRAPH_TREASURY_KEYPAIR_FILE  Solana keypair JSON file of the treasury key that signs
//   receipts. NETGRAPH_MINT_ADDRESS           base58 address of the token's mint.
// Without both, the service runs without a ledger and redemptions fail with an internal error.
#ifndef NETGRAPH_CORE_DOMAIN_TOKEN2022_LEDGER_H_
#define NETGRAPH_CORE_DOMAIN_TOKEN2022_LEDGER_H_

#include <memory>
#include <optional>
#include <string>

#include "core/config/environment.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/solana_address.h"
#include "core/domain/confidential_ledger.h"

namespace netgraph::domain {

struct LedgerConfig {
  std::string treasury_keypair_file;
  std::string mint_address;

  bool configured() const { return !treasury_keypair_file.empty() && !mint_address.empty(); }
  static LedgerConfig FromEnvironment(config::Environment& env);
};

class Token2022Ledger : public ConfidentialLedger {
 public:
  // Reads the treasury keypair file and parses the mint address.
  static Result<std::unique_ptr<Token2022Ledger>> Create(const LedgerConfig& config);

  bool IsValidPublicKey(std::string_view key) const override;
  Result<std::string> TokenAccountOf(std::string_view wallet_address) const override;
  Result<Credit> CreditAccount(const CreditRequest& request) const override;

  // The treasury's public key in base58: what receipt verifiers need.
  std::string TreasuryPublicKey() const;

 private:
  Token2022Ledger(crypto::Ed25519Keypair treasury, crypto::SolanaAddress mint)
      : treasury_(std::move(treasury)), mint_(mint) {}

  crypto::Ed25519Keypair treasury_;
  crypto::SolanaAddress mint_;
};

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_TOKEN2022_LEDGER_H_
