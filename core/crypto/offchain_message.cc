#include "core/crypto/offchain_message.h"

#include <algorithm>

namespace netgraph::crypto {
namespace {

constexpr std::string_view kSigningDomain =
    "\xff"
    "solana offchain";
constexpr std::uint8_t kVersion = 0;

bool IsPrintableAscii(std::string_view text) {
  return std::all_of(text.begin(), text.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

// Well-formed UTF-8 as Rust's str::from_utf8 accepts it: shortest forms only, no surrogates,
// nothing above U+10FFFF.
bool IsUtf8(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size()) {
    auto byte = [&text](std::size_t at) { return static_cast<std::uint8_t>(text[at]); };
    std::uint8_t lead = byte(i);
    std::size_t continuations;
    std::uint8_t second_min = 0x80, second_max = 0xbf;
    if (lead < 0x80) {
      continuations = 0;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
      continuations = 1;
    } else if (lead >= 0xe0 && lead <= 0xef) {
      continuations = 2;
      if (lead == 0xe0) second_min = 0xa0;  // overlong
      if (lead == 0xed) second_max = 0x9f;  // surrogates
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      continuations = 3;
      if (lead == 0xf0) second_min = 0x90;  // overlong
      if (lead == 0xf4) second_max = 0x8f;  // above U+10FFFF
    } else {
      return false;
    }
    if (text.size() - i - 1 < continuations) return false;
    for (std::size_t k = 1; k <= continuations; ++k) {
      std::uint8_t min = k == 1 ? second_min : 0x80, max = k == 1 ? second_max : 0xbf;
      if (byte(i + k) < min || byte(i + k) > max) return false;
    }
    i += continuations + 1;
  }
  return true;
}

}  // namespace

Result<OffchainMessageFormat> ChooseOffchainMessageFormat(std::string_view message) {
  if (message.empty()) return Status::InvalidArgument("off-chain message is empty");
  if (message.size() > kMaxOffchainMessageLength) {
    return Status::InvalidArgument("off-chain message is longer than 65515 bytes");
  }
  if (!IsUtf8(message)) return Status::InvalidArgument("off-chain message is not UTF-8");
  if (message.size() > kMaxOffchainMessageLedgerLength) return OffchainMessageFormat::kExtendedUtf8;
  return IsPrintableAscii(message) ? OffchainMessageFormat::kRestrictedAscii
                                   : OffchainMessageFormat::kLimitedUtf8;
}

Result<std::vector<std::uint8_t>> SerializeOffchainMessage(std::string_view message) {
  NETGRAPH_ASSIGN_OR_RETURN(OffchainMessageFormat format, ChooseOffchainMessageFormat(message));
  std::vector<std::uint8_t> bytes(kSigningDomain.begin(), kSigningDomain.end());
  bytes.push_back(kVersion);
  bytes.push_back(static_cast<std::uint8_t>(format));
  bytes.push_back(static_cast<std::uint8_t>(message.size() & 0xff));
  bytes.push_back(static_cast<std::uint8_t>(message.size() >> 8));
  bytes.insert(bytes.end(), message.begin(), message.end());
  return bytes;
}

Result<Bytes64> SignOffchainMessage(const Ed25519Keypair& signer, std::string_view message) {
  NETGRAPH_ASSIGN_OR_RETURN(std::vector<std::uint8_t> serialized,
                            SerializeOffchainMessage(message));
  return signer.Sign(serialized);
}

bool VerifyOffchainMessage(const Bytes32& signer, std::string_view message,
                           const Bytes64& signature) {
  Result<std::vector<std::uint8_t>> serialized = SerializeOffchainMessage(message);
  return serialized.ok() && Ed25519Verify(signer, *serialized, signature);
}

}  // namespace netgraph::crypto
