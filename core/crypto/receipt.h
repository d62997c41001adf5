// Redemption receipts: the service's signed, hash-chained statement that it credited an encrypted
// amount to a wallet's confidential token account. There is no chain behind this service, so the
// receipt signature stands where a transaction signature would (the API's `txSignature`); it is
// honest about that: it signs an off-chain message, which can never be a valid transaction.
//
// Canonical text (version 1): one line of printable ASCII, fields in this fixed order, separated
// by single spaces, no trailing space or newline. It therefore fits off-chain message format 0.
//
//   netgraph-receipt-v1 redemption_id=<id> wallet=<base58> mint=<base58> token_account=<base58>
//   confidential_public_key=<base64> amount=<integer> decimals=<integer>
//   encrypted_amount=<base64> encrypted_balance=<base64> time=<RFC 3339 UTC>
//   previous_receipt_hash=<64 lowercase hex digits>
//
// (shown wrapped; the text is one line). Values:
//   redemption_id            1 to 64 characters from A-Z a-z 0-9 . _ : -
//   wallet, mint, token_account
//                            Solana addresses in base58 (token_account is the associated token
//                            account of wallet and mint under Token-2022)
//   confidential_public_key  the ElGamal public key, standard padded base64 (44 characters)
//   amount                   the credited amount in base units, decimal, no leading zeros
//   decimals                 the mint's decimals, 0 to 255, decimal, no leading zeros
//   encrypted_amount         ElGamal ciphertext of amount (88 characters of base64)
//   encrypted_balance        the account's encrypted balance after this credit
//   time                     YYYY-MM-DDTHH:MM:SSZ, optionally with 1 to 9 fraction digits
//                            before the Z
//   previous_receipt_hash    the previous receipt's ReceiptHash in hex; 64 zeros for the first
//
// Signing: the treasury's Ed25519 signature over the Solana off-chain message v0 envelope of the
// text (see offchain_message.h): 0xFF "solana offchain" 0x00 0x00 <u16 LE length> <text>. The
// signature is shown in base58. ReceiptHash = SHA-256 of that same envelope.
#ifndef NETGRAPH_CORE_CRYPTO_RECEIPT_H_
#define NETGRAPH_CORE_CRYPTO_RECEIPT_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/crypto/bytes.h"
#include "core/crypto/ed25519.h"
#include "core/crypto/elgamal.h"
#include "core/crypto/solana_address.h"
#include "core/status.h"

namespace netgraph::crypto {

inline constexpr std::string_view kReceiptHeader = "netgraph-receipt-v1";

// previous_receipt_hash of the first receipt in a chain.
inline constexpr Bytes32 kNoPreviousReceipt{};

struct Receipt {
  std::string redemption_id;
  SolanaAddress wallet;
  SolanaAddress mint;
  SolanaAddress token_account;
  ElGamalPublicKey confidential_public_key;
  std::uint64_t amount;
  std::uint8_t decimals;
  ElGamalCiphertext encrypted_amount;
  ElGamalCiphertext encrypted_balance;
  std::string time;
  Bytes32 previous_receipt_hash;
};

// The canonical text; an error when redemption_id or time is not of the form above.
Result<std::string> ReceiptText(const Receipt& receipt);

// The inverse of ReceiptText: accepts only canonical version-1 text.
Result<Receipt> ParseReceiptText(std::string_view text);

// SHA-256 of the signed bytes (the off-chain message envelope of `text`); the next receipt's
// previous_receipt_hash.
Result<Bytes32> ReceiptHash(std::string_view text);

struct SignedReceipt {
  std::string text;
  Bytes64 signature;  // SignatureToBase58 gives the API's txSignature
  Bytes32 hash;       // ReceiptHash(text)
};

Result<SignedReceipt> SignReceipt(const Receipt& receipt, const Ed25519Keypair& treasury);

// Ok when `text` is a canonical version-1 receipt and `signature` is the treasury's signature of
// it; otherwise an error saying which check failed.
Status VerifyReceipt(std::string_view text, const Bytes64& signature,
                     const Bytes32& treasury_public_key);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_RECEIPT_H_
