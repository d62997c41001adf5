// The confidential side of a redemption, behind one small interface so that a chain adapter can
// replace the service's own ledger later (docs/confidential.md).
//
// A redemption asks the ledger to: check the owner's ElGamal public key; name the wallet's token
// account; encrypt the credited amount under the key, add it to the account's encrypted balance,
// and sign a receipt of it. The domain keeps the plaintext balance, the rows and the rules; the
// ledger knows the encodings and holds the treasury key.
#ifndef NETGRAPH_CORE_DOMAIN_CONFIDENTIAL_LEDGER_H_
#define NETGRAPH_CORE_DOMAIN_CONFIDENTIAL_LEDGER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/status.h"

namespace netgraph::domain {

struct CreditRequest {
  std::int64_t redemption_id = 0;
  std::string wallet_address;           // a valid wallet address
  std::string confidential_public_key;  // accepted by IsValidPublicKey
  std::uint64_t amount = 0;             // base units
  int decimals = 0;
  // The account's current encrypted balance; nullopt for a new account (a zero balance).
  std::optional<std::string> encrypted_balance;
  // The account's last receipt hash (hex); nullopt for its first receipt.
  std::optional<std::string> previous_receipt_hash;
  std::string time;  // the redemption's DateTime
};

struct Credit {
  std::string token_account;
  std::string encrypted_amount;   // a fresh encryption of the amount (base64)
  std::string encrypted_balance;  // the previous balance plus encrypted_amount (base64)
  std::string receipt;            // the signed receipt text
  std::string receipt_hash;       // hex; the next receipt's previous_receipt_hash
  std::string signature;          // base58: the API's txSignature
};

class ConfidentialLedger {
 public:
  virtual ~ConfidentialLedger() = default;

  // Whether `key` is a confidential public key the ledger can encrypt to.
  virtual bool IsValidPublicKey(std::string_view key) const = 0;
  // The token account of a valid wallet address.
  virtual Result<std::string> TokenAccountOf(std::string_view wallet_address) const = 0;
  virtual Result<Credit> CreditAccount(const CreditRequest& request) const = 0;
};

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_CONFIDENTIAL_LEDGER_H_
