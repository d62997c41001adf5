// netgraphctl receipt verify: checks a stored redemption receipt: the treasury's signature over it,
// and that what it says is what the redemption row holds.
#include <nlohmann/json.hpp>

#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "core/config/environment.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/receipt.h"
#include "core/crypto/solana_address.h"
#include "core/crypto/solana_keypair.h"
#include "core/store/connection.h"
#include "core/store/ledger.h"

namespace netgraph::cli {
namespace {

// The treasury key receipts are checked against: --pubkey, else the configured keypair's.
Result<crypto::SolanaAddress> TreasuryKey(const std::optional<std::string>& pubkey,
                                          config::Environment& env) {
  if (pubkey) return crypto::SolanaAddress::Parse(*pubkey);
  const std::string file = env.String("NETGRAPH_TREASURY_KEYPAIR_FILE");
  if (file.empty())
    return Status::InvalidArgument("pass --pubkey KEY or set NETGRAPH_TREASURY_KEYPAIR_FILE");
  NETGRAPH_ASSIGN_OR_RETURN(crypto::Ed25519Keypair keypair, crypto::ReadSolanaKeypairFile(file));
  return crypto::SolanaAddress(keypair.public_key());
}

// Where the receipt's text and the redemption row disagree.
std::vector<std::string> Mismatches(const crypto::Receipt& receipt,
                                    const store::RedemptionRow& row) {
  std::vector<std::string> found;
  auto check = [&found](const char* field, const std::string& in_receipt,
                        const std::string& in_row) {
    if (in_receipt != in_row)
      found.push_back(std::string(field) + " differs from the stored redemption");
  };
  check("redemption_id", receipt.redemption_id, std::to_string(row.id));
  check("wallet", receipt.wallet.ToBase58(), row.wallet_address);
  check("token_account", receipt.token_account.ToBase58(), row.token_account);
  check("confidential_public_key", receipt.confidential_public_key.ToBase64(),
        row.confidential_public_key);
  check("amount", std::to_string(receipt.amount), std::to_string(row.amount));
  check("encrypted_amount", receipt.encrypted_amount.ToBase64(), row.encrypted_amount);
  check("encrypted_balance", receipt.encrypted_balance.ToBase64(), row.encrypted_balance);
  return found;
}

int Verify(Arguments& arguments) {
  std::optional<std::string> id = arguments.Option("redemption");
  std::optional<std::string> signature = arguments.Option("signature");
  std::optional<std::string> pubkey = arguments.Option("pubkey");
  const bool json = arguments.Flag("json");
  std::optional<long long> redemption_id = id ? ParseInteger(*id) : std::nullopt;
  Status usage = arguments.Finish();
  if (usage.ok() && (id.has_value() == signature.has_value() || (id && !redemption_id))) {
    usage = Status::InvalidArgument(
        "give exactly one of --redemption ID (a number) or --signature SIG");
  }
  if (!usage.ok()) {
    std::cerr << "netgraphctl receipt verify: " << usage.message() << "\n";
    return kExitUsage;
  }
  config::Environment env;
  Result<crypto::SolanaAddress> treasury = TreasuryKey(pubkey, env);
  if (!treasury.ok()) {
    std::cerr << "netgraphctl receipt verify: treasury key: " << treasury.status().message()
              << "\n";
    return kExitUsage;
  }

  store::Connection database(env.DatabaseUrl());
  Result<std::optional<store::RedemptionRow>> found =
      redemption_id ? store::FindRedemptionById(database, *redemption_id)
                    : store::FindRedemptionBySignature(database, *signature);
  if (!found.ok()) {
    std::cerr << "netgraphctl receipt verify: " << found.status().message() << "\n";
    return kExitFailed;
  }
  if (!found->has_value()) {
    std::cerr << "netgraphctl receipt verify: no such redemption\n";
    return kExitFailed;
  }
  const store::RedemptionRow& row = **found;

  std::vector<std::string> problems;
  Result<crypto::Bytes64> parsed_signature = crypto::ParseBase58Signature(row.signature);
  Status signed_ok = parsed_signature.ok()
                         ? crypto::VerifyReceipt(row.receipt, *parsed_signature, treasury->bytes())
                         : parsed_signature.status();
  if (!signed_ok.ok()) problems.push_back("signature: " + signed_ok.message());
  Result<crypto::Receipt> receipt = crypto::ParseReceiptText(row.receipt);
  if (!receipt.ok()) {
    problems.push_back("receipt: " + receipt.status().message());
  } else {
    for (std::string& m : Mismatches(*receipt, row)) problems.push_back(std::move(m));
  }

  if (json) {
    nlohmann::json out = {{"redemptionId", row.id},     {"receipt", row.receipt},
                          {"signature", row.signature}, {"treasuryPublicKey", treasury->ToBase58()},
                          {"valid", problems.empty()},  {"problems", problems}};
    std::cout << out.dump() << "\n";
  } else {
    std::cout << (problems.empty() ? "valid" : "INVALID") << ": redemption " << row.id
              << ", signed by " << treasury->ToBase58() << "\n"
              << row.receipt << "\n";
    for (const std::string& p : problems) std::cout << "  " << p << "\n";
  }
  return problems.empty() ? kExitOk : kExitFailed;
}

}  // namespace

std::vector<Command> ReceiptCommands() {
  return {{"receipt verify",
           "(--redemption ID | --signature SIG) [--pubkey KEY] [--json]",
           "check a redemption's receipt: the treasury signature over it and that it matches the "
           "stored redemption",
           Verify,
           {{"--redemption ID", "the redemption's id"},
            {"--signature SIG", "or the receipt's signature (the txSignature redeemVoucher gave)"},
            {"--pubkey KEY", "the treasury's public key (default: the configured treasury's)"},
            {"--json", "print the receipt, the signature, the key and the outcome as JSON"}}}};
}

}  // namespace netgraph::cli
