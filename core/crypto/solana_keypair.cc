#include "core/crypto/solana_keypair.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

namespace netgraph::crypto {
namespace {

// A keypair file is about 250 bytes; anything much larger is not one.
constexpr std::size_t kMaxFileSize = 4096;

void Wipe(std::string& text) { OPENSSL_cleanse(text.data(), text.size()); }

}  // namespace

std::string ToSolanaKeypairJson(const Ed25519Keypair& keypair) {
  Bytes32 seed = keypair.Seed();
  std::string json = "[";
  for (std::uint8_t byte : seed) json += std::to_string(byte) + ",";
  OPENSSL_cleanse(seed.data(), seed.size());
  for (std::uint8_t byte : keypair.public_key()) json += std::to_string(byte) + ",";
  json.back() = ']';
  return json;
}

Result<Ed25519Keypair> ParseSolanaKeypairJson(std::string_view json) {
  nlohmann::json array = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!array.is_array() || array.size() != 64) {
    return Status::Error("a Solana keypair must be a JSON array of 64 numbers");
  }
  Bytes32 seed, public_key;
  for (std::size_t i = 0; i < 64; ++i) {
    const nlohmann::json& number = array[i];
    if (!number.is_number_integer() || number.get<std::int64_t>() < 0 ||
        number.get<std::int64_t>() > 255) {
      return Status::Error("a Solana keypair must hold integers from 0 to 255");
    }
    (i < 32 ? seed[i] : public_key[i - 32]) = static_cast<std::uint8_t>(number.get<int>());
  }
  Result<Ed25519Keypair> keypair = Ed25519Keypair::FromSeed(seed);
  OPENSSL_cleanse(seed.data(), seed.size());
  if (keypair.ok() && keypair->public_key() != public_key) {
    return Status::Error("the Solana keypair's public key does not match its secret key");
  }
  return keypair;
}

Result<Ed25519Keypair> ReadSolanaKeypairFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return Status::Error("cannot open keypair file " + path.string());
  // One fixed buffer, never reallocated, so no unwiped copy of the secret is left behind.
  std::string text(kMaxFileSize + 1, '\0');
  file.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (file.bad()) return Status::Error("cannot read keypair file " + path.string());
  text.resize(static_cast<std::size_t>(file.gcount()));
  Result<Ed25519Keypair> keypair = text.size() > kMaxFileSize
                                       ? Result<Ed25519Keypair>(Status::Error("file is too large"))
                                       : ParseSolanaKeypairJson(text);
  Wipe(text);
  if (!keypair.ok()) return Status::Error(path.string() + ": " + keypair.status().message());
  return keypair;
}

Status WriteSolanaKeypairFile(const std::filesystem::path& path, const Ed25519Keypair& keypair) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Status::Error("cannot create keypair file " + path.string() + ": " +
                         std::strerror(errno));
  }
  std::string json = ToSolanaKeypairJson(keypair);
  std::size_t written = 0;
  while (written < json.size()) {
    ssize_t n = ::write(fd, json.data() + written, json.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    written += static_cast<std::size_t>(n);
  }
  Wipe(json);
  bool complete = written == json.size() && ::fsync(fd) == 0;
  complete = ::close(fd) == 0 && complete;
  if (!complete) {
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    return Status::Error("cannot write keypair file " + path.string());
  }
  return Status::Ok();
}

Result<Ed25519Keypair> ReadOrCreateSolanaKeypairFile(const std::filesystem::path& path) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) {
    Result<Ed25519Keypair> keypair = Ed25519Keypair::Generate();
    if (!keypair.ok()) return keypair;
    Status written = WriteSolanaKeypairFile(path, *keypair);
    // Losing a race to another process creating the same file is fine: read theirs.
    if (written.ok()) return keypair;
    if (!std::filesystem::exists(path, error)) return written;
  }
  return ReadSolanaKeypairFile(path);
}

}  // namespace netgraph::crypto
