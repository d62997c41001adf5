#include "core/domain/token2022_ledger.h"

#include "core/crypto/base58.h"
#include "core/crypto/elgamal.h"
#include "core/crypto/hex.h"
#include "core/crypto/receipt.h"
#include "core/crypto/solana_keypair.h"

namespace netgraph::domain {

LedgerConfig LedgerConfig::FromEnvironment(config::Environment& env) {
  return LedgerConfig{env.String("NETGRAPH_TREASURY_KEYPAIR_FILE"),
                      env.String("NETGRAPH_MINT_ADDRESS")};
}

Result<std::unique_ptr<Token2022Ledger>> Token2022Ledger::Create(const LedgerConfig& config) {
  Result<crypto::Ed25519Keypair> treasury =
      crypto::ReadSolanaKeypairFile(config.treasury_keypair_file);
  if (!treasury.ok()) {
    return treasury.status().WithContext("NETGRAPH_TREASURY_KEYPAIR_FILE");
  }
  Result<crypto::SolanaAddress> mint = crypto::SolanaAddress::Parse(config.mint_address);
  if (!mint.ok()) return mint.status().WithContext("NETGRAPH_MINT_ADDRESS");
  return std::unique_ptr<Token2022Ledger>(new Token2022Ledger(*treasury, *mint));
}

bool Token2022Ledger::IsValidPublicKey(std::string_view key) const {
  return crypto::ElGamalPublicKey::Parse(key).ok();
}

Result<std::string> Token2022Ledger::TokenAccountOf(std::string_view wallet_address) const {
  NETGRAPH_ASSIGN_OR_RETURN(crypto::SolanaAddress wallet,
                            crypto::SolanaAddress::Parse(wallet_address));
  NETGRAPH_ASSIGN_OR_RETURN(
      crypto::ProgramAddress account,
      crypto::AssociatedTokenAddress(wallet, mint_, crypto::Token2022ProgramId()));
  return account.address.ToBase58();
}

Result<Credit> Token2022Ledger::CreditAccount(const CreditRequest& request) const {
  NETGRAPH_ASSIGN_OR_RETURN(crypto::SolanaAddress wallet,
                            crypto::SolanaAddress::Parse(request.wallet_address));
  NETGRAPH_ASSIGN_OR_RETURN(crypto::ElGamalPublicKey key,
                            crypto::ElGamalPublicKey::Parse(request.confidential_public_key));
  NETGRAPH_ASSIGN_OR_RETURN(
      crypto::ProgramAddress account,
      crypto::AssociatedTokenAddress(wallet, mint_, crypto::Token2022ProgramId()));

  crypto::ElGamalCiphertext balance;  // a new account starts from the encryption of zero
  if (request.encrypted_balance) {
    Result<crypto::ElGamalCiphertext> stored =
        crypto::ElGamalCiphertext::Parse(*request.encrypted_balance);
    if (!stored.ok())
      return Status::Internal("stored encrypted balance: " + stored.status().message());
    balance = *stored;
  }
  crypto::Bytes32 previous = crypto::kNoPreviousReceipt;
  if (request.previous_receipt_hash) {
    if (Status s = crypto::HexDecodeExact(*request.previous_receipt_hash, previous); !s.ok()) {
      return Status::Internal("stored receipt hash: " + s.message());
    }
  }

  const crypto::ElGamalCiphertext amount = crypto::Encrypt(key, request.amount);
  const crypto::Receipt receipt{std::to_string(request.redemption_id),
                                wallet,
                                mint_,
                                account.address,
                                key,
                                request.amount,
                                static_cast<std::uint8_t>(request.decimals),
                                amount,
                                balance + amount,
                                request.time,
                                previous};
  NETGRAPH_ASSIGN_OR_RETURN(crypto::SignedReceipt signed_receipt,
                            crypto::SignReceipt(receipt, treasury_));
  return Credit{account.address.ToBase58(),
                amount.ToBase64(),
                receipt.encrypted_balance.ToBase64(),
                signed_receipt.text,
                crypto::HexEncode(signed_receipt.hash),
                crypto::SignatureToBase58(signed_receipt.signature)};
}

std::string Token2022Ledger::TreasuryPublicKey() const {
  return crypto::Base58Encode(treasury_.public_key());
}

}  // namespace netgraph::domain
