#include "core/crypto/digest.h"

#include <openssl/evp.h>

#include <cstdio>
#include <cstdlib>

namespace netgraph::crypto {
namespace {

template <std::size_t N>
std::array<std::uint8_t, N> Digest(const EVP_MD* algorithm, std::span<const std::uint8_t> data) {
  std::array<std::uint8_t, N> digest{};
  unsigned int length = 0;
  if (EVP_Digest(data.data(), data.size(), digest.data(), &length, algorithm, nullptr) != 1 ||
      length != N) {
    std::fputs("netgraph: OpenSSL digest failed (out of memory)\n", stderr);
    std::abort();
  }
  return digest;
}

}  // namespace

Bytes32 Sha256(std::span<const std::uint8_t> data) { return Digest<32>(EVP_sha256(), data); }

Bytes64 Sha3_512(std::span<const std::uint8_t> data) { return Digest<64>(EVP_sha3_512(), data); }

}  // namespace netgraph::crypto
