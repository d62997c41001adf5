// Lowercase hexadecimal text for byte strings (digests in receipts, test vectors).
#ifndef NETGRAPH_CORE_CRYPTO_HEX_H_
#define NETGRAPH_CORE_CRYPTO_HEX_H_

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/status.h"

namespace netgraph::crypto {

// Two lowercase digits per byte.
std::string HexEncode(std::span<const std::uint8_t> bytes);

// Decodes exactly out.size() bytes from 2·out.size() lowercase hex digits; anything else
// (uppercase, odd or wrong length, other characters) is an error and leaves `out` unspecified.
Status HexDecodeExact(std::string_view text, std::span<std::uint8_t> out);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_HEX_H_
