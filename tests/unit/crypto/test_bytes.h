// Test helpers: byte strings from hex test vectors.
#ifndef NETGRAPH_TESTS_UNIT_CRYPTO_TEST_BYTES_H_
#define NETGRAPH_TESTS_UNIT_CRYPTO_TEST_BYTES_H_

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string_view>

#include "core/crypto/hex.h"

namespace netgraph::crypto {

template <std::size_t N>
std::array<std::uint8_t, N> FromHex(std::string_view hex) {
  std::array<std::uint8_t, N> bytes{};
  Status status = HexDecodeExact(hex, bytes);
  EXPECT_TRUE(status.ok()) << status.message() << ": " << hex;
  return bytes;
}

}  // namespace netgraph::crypto

#endif  // NETGRAPH_TESTS_UNIT_CRYPTO_TEST_BYTES_H_
