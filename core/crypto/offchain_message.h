// Solana's off-chain message, version 0 (solana-offchain-message, as `solana sign-offchain-message`
// uses it): a byte layout that can never be mistaken for a transaction, so a signature over it
// cannot be replayed on chain.
//
//   0xFF "solana offchain" (16 bytes) ‖ version 0x00 ‖ format (1 byte) ‖ length (u16 LE) ‖ message
//
// The format follows from the message: 0 (restricted ASCII, bytes 0x20..0x7e) or 1 (UTF-8) for
// messages of at most 1212 bytes, 2 (UTF-8) up to 65515 bytes. The signature is Ed25519 over the
// whole serialized envelope.
#ifndef NETGRAPH_CORE_CRYPTO_OFFCHAIN_MESSAGE_H_
#define NETGRAPH_CORE_CRYPTO_OFFCHAIN_MESSAGE_H_

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "core/crypto/bytes.h"
#include "core/crypto/ed25519.h"
#include "core/status.h"

namespace netgraph::crypto {

enum class OffchainMessageFormat : std::uint8_t {
  kRestrictedAscii = 0,
  kLimitedUtf8 = 1,
  kExtendedUtf8 = 2,
};

inline constexpr std::size_t kMaxOffchainMessageLedgerLength = 1212;
inline constexpr std::size_t kMaxOffchainMessageLength = 65515;

// The format the SDK picks for `message`; an error for an empty message, one that is not UTF-8, or
// one longer than 65515 bytes.
Result<OffchainMessageFormat> ChooseOffchainMessageFormat(std::string_view message);

// The envelope above, with the format chosen by ChooseOffchainMessageFormat.
Result<std::vector<std::uint8_t>> SerializeOffchainMessage(std::string_view message);

// Ed25519 over SerializeOffchainMessage(message).
Result<Bytes64> SignOffchainMessage(const Ed25519Keypair& signer, std::string_view message);
bool VerifyOffchainMessage(const Bytes32& signer, std::string_view message,
                           const Bytes64& signature);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_OFFCHAIN_MESSAGE_H_
