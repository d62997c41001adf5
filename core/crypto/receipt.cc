#include "core/crypto/receipt.h"

#include <array>
#include <charconv>
#include <chrono>
#include <optional>
#include <vector>

#include "core/crypto/digest.h"
#include "core/crypto/hex.h"
#include "core/crypto/offchain_message.h"

namespace netgraph::crypto {
namespace {

// The fields, in their canonical order, and their keys.
enum Field : std::size_t {
  kRedemptionId,
  kWallet,
  kMint,
  kTokenAccount,
  kConfidentialPublicKey,
  kAmount,
  kDecimals,
  kEncryptedAmount,
  kEncryptedBalance,
  kTime,
  kPreviousReceiptHash,
  kFieldCount,
};
constexpr std::array<std::string_view, kFieldCount> kKeys = {"redemption_id",
                                                             "wallet",
                                                             "mint",
                                                             "token_account",
                                                             "confidential_public_key",
                                                             "amount",
                                                             "decimals",
                                                             "encrypted_amount",
                                                             "encrypted_balance",
                                                             "time",
                                                             "previous_receipt_hash"};

constexpr std::size_t kMaxRedemptionIdLength = 64;

bool IsValidRedemptionId(std::string_view id) {
  if (id.empty() || id.size() > kMaxRedemptionIdLength) return false;
  for (char c : id) {
    bool allowed = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                   c == '.' || c == '_' || c == ':' || c == '-';
    if (!allowed) return false;
  }
  return true;
}

// An unsigned decimal without sign or leading zeros that fits in T.
template <typename T>
std::optional<T> ParseDecimal(std::string_view text) {
  if (text.empty() || (text.size() > 1 && text[0] == '0') || text[0] < '0' || text[0] > '9') {
    return std::nullopt;
  }
  T value{};
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// YYYY-MM-DDTHH:MM:SS, optionally .F with 1 to 9 digits, then Z; a real calendar date and time.
bool IsValidTime(std::string_view time) {
  auto number = [&time](std::size_t at, std::size_t length) -> std::optional<unsigned> {
    if (at + length > time.size()) return std::nullopt;
    unsigned value = 0;
    for (char c : time.substr(at, length)) {
      if (c < '0' || c > '9') return std::nullopt;
      value = value * 10 + static_cast<unsigned>(c - '0');
    }
    return value;
  };
  if (time.size() < 20 || time[4] != '-' || time[7] != '-' || time[10] != 'T' || time[13] != ':' ||
      time[16] != ':' || time.back() != 'Z') {
    return false;
  }
  std::optional<unsigned> year = number(0, 4), month = number(5, 2), day = number(8, 2),
                          hour = number(11, 2), minute = number(14, 2), second = number(17, 2);
  if (!year || !month || !day || !hour || !minute || !second) return false;
  std::string_view fraction = time.substr(19, time.size() - 20);
  if (!fraction.empty() && (fraction[0] != '.' || fraction.size() < 2 || fraction.size() > 10 ||
                            !number(20, fraction.size() - 1))) {
    return false;
  }
  std::chrono::year_month_day date{std::chrono::year(static_cast<int>(*year)),
                                   std::chrono::month(*month), std::chrono::day(*day)};
  return date.ok() && *hour < 24 && *minute < 60 && *second < 60;
}

}  // namespace

Result<std::string> ReceiptText(const Receipt& receipt) {
  if (!IsValidRedemptionId(receipt.redemption_id)) {
    return Status::InvalidArgument(
        "receipt redemption_id must be 1 to 64 characters of A-Z a-z 0-9 . _ : -");
  }
  if (!IsValidTime(receipt.time)) {
    return Status::InvalidArgument("receipt time must be RFC 3339 UTC, like 2026-01-31T12:00:00Z");
  }
  const std::array<std::string, kFieldCount> values = {receipt.redemption_id,
                                                       receipt.wallet.ToBase58(),
                                                       receipt.mint.ToBase58(),
                                                       receipt.token_account.ToBase58(),
                                                       receipt.confidential_public_key.ToBase64(),
                                                       std::to_string(receipt.amount),
                                                       std::to_string(receipt.decimals),
                                                       receipt.encrypted_amount.ToBase64(),
                                                       receipt.encrypted_balance.ToBase64(),
                                                       receipt.time,
                                                       HexEncode(receipt.previous_receipt_hash)};
  std::string text(kReceiptHeader);
  for (std::size_t i = 0; i < kFieldCount; ++i) {
    text += ' ';
    text += kKeys[i];
    text += '=';
    text += values[i];
  }
  return text;
}

Result<Receipt> ParseReceiptText(std::string_view text) {
  auto invalid = [](const std::string& why) { return Status::InvalidArgument("receipt: " + why); };
  std::vector<std::string_view> parts;
  for (std::size_t start = 0;;) {
    std::size_t space = text.find(' ', start);
    parts.push_back(text.substr(start, space - start));
    if (space == std::string_view::npos) break;
    start = space + 1;
  }
  if (parts.size() != kFieldCount + 1 || parts[0] != kReceiptHeader) {
    return invalid("not a netgraph-receipt-v1 text");
  }
  std::array<std::string_view, kFieldCount> values;
  for (std::size_t i = 0; i < kFieldCount; ++i) {
    std::string_view part = parts[i + 1];
    if (part.size() <= kKeys[i].size() || part.substr(0, kKeys[i].size()) != kKeys[i] ||
        part[kKeys[i].size()] != '=') {
      return invalid("field " + std::to_string(i + 1) + " must be " + std::string(kKeys[i]));
    }
    values[i] = part.substr(kKeys[i].size() + 1);
  }

  Result<SolanaAddress> wallet = SolanaAddress::Parse(values[kWallet]);
  Result<SolanaAddress> mint = SolanaAddress::Parse(values[kMint]);
  Result<SolanaAddress> token_account = SolanaAddress::Parse(values[kTokenAccount]);
  Result<ElGamalPublicKey> key = ElGamalPublicKey::Parse(values[kConfidentialPublicKey]);
  std::optional<std::uint64_t> amount = ParseDecimal<std::uint64_t>(values[kAmount]);
  std::optional<std::uint8_t> decimals = ParseDecimal<std::uint8_t>(values[kDecimals]);
  Result<ElGamalCiphertext> encrypted_amount = ElGamalCiphertext::Parse(values[kEncryptedAmount]);
  Result<ElGamalCiphertext> encrypted_balance = ElGamalCiphertext::Parse(values[kEncryptedBalance]);
  Bytes32 previous_hash;
  Status previous_hash_status = HexDecodeExact(values[kPreviousReceiptHash], previous_hash);
  if (!wallet.ok()) return invalid("wallet " + wallet.status().message());
  if (!mint.ok()) return invalid("mint " + mint.status().message());
  if (!token_account.ok()) return invalid("token_account " + token_account.status().message());
  if (!key.ok()) return invalid(key.status().message());
  if (!amount) return invalid("amount must be a decimal integer below 2^64");
  if (!decimals) return invalid("decimals must be a decimal integer below 256");
  if (!encrypted_amount.ok()) {
    return invalid("encrypted_amount: " + encrypted_amount.status().message());
  }
  if (!encrypted_balance.ok()) {
    return invalid("encrypted_balance: " + encrypted_balance.status().message());
  }
  if (!previous_hash_status.ok()) {
    return invalid("previous_receipt_hash: " + previous_hash_status.message());
  }
  Receipt receipt{.redemption_id = std::string(values[kRedemptionId]),
                  .wallet = *wallet,
                  .mint = *mint,
                  .token_account = *token_account,
                  .confidential_public_key = *key,
                  .amount = *amount,
                  .decimals = *decimals,
                  .encrypted_amount = *encrypted_amount,
                  .encrypted_balance = *encrypted_balance,
                  .time = std::string(values[kTime]),
                  .previous_receipt_hash = previous_hash};
  // Rebuilding checks redemption_id and time, and that every value was written canonically.
  Result<std::string> canonical = ReceiptText(receipt);
  if (!canonical.ok()) return invalid(canonical.status().message());
  if (*canonical != text) return invalid("not in canonical form");
  return receipt;
}

Result<Bytes32> ReceiptHash(std::string_view text) {
  NETGRAPH_ASSIGN_OR_RETURN(std::vector<std::uint8_t> signed_bytes, SerializeOffchainMessage(text));
  return Sha256(signed_bytes);
}

Result<SignedReceipt> SignReceipt(const Receipt& receipt, const Ed25519Keypair& treasury) {
  NETGRAPH_ASSIGN_OR_RETURN(std::string text, ReceiptText(receipt));
  NETGRAPH_ASSIGN_OR_RETURN(Bytes64 signature, SignOffchainMessage(treasury, text));
  NETGRAPH_ASSIGN_OR_RETURN(Bytes32 hash, ReceiptHash(text));
  return SignedReceipt{text, signature, hash};
}

Status VerifyReceipt(std::string_view text, const Bytes64& signature,
                     const Bytes32& treasury_public_key) {
  NETGRAPH_ASSIGN_OR_RETURN(Receipt receipt, ParseReceiptText(text));
  if (!VerifyOffchainMessage(treasury_public_key, text, signature)) {
    return Status::InvalidArgument(
        "receipt signature is not the treasury's signature of this text");
  }
  return Status::Ok();
}

}  // namespace netgraph::crypto
