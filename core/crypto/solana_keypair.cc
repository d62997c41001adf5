#include "core/crypto/solana_keypair.h"

#include <fcntl.h>
#include <openssl/crypto.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/crypto/private_file.h"

namespace netgraph::crypto {
namespace {

// A keypair file is about 250 bytes; anything much larger is not one.
constexpr std::size_t kMaxFileSize = 4096;

void Wipe(std::string& text) { OPENSSL_cleanse(text.data(), text.size()); }

// Reads the 64 numbers straight into `seed` and `public_key`. A general JSON parser would leave
// copies of the seed behind in memory it frees without wiping (its arrays grow by reallocation).
// Accepts what JSON accepts for this shape: whitespace, '[', 64 integers 0..255 (no leading
// zeros, sign, fraction or exponent) separated by ',', then ']'.
Status ParseKeypairNumbers(std::string_view json, Bytes32& seed, Bytes32& public_key) {
  const Status not_an_array =
      Status::InvalidArgument("a Solana keypair must be a JSON array of 64 numbers");
  const Status not_a_byte =
      Status::InvalidArgument("a Solana keypair must hold integers from 0 to 255");
  std::size_t at = 0;
  auto skip_space = [&] {
    while (at < json.size() && std::string_view(" \t\n\r").find(json[at]) != json.npos) ++at;
  };
  auto consume = [&](char expected) {
    skip_space();
    if (at == json.size() || json[at] != expected) return false;
    ++at;
    return true;
  };
  if (!consume('[')) return not_an_array;
  for (std::size_t i = 0; i < 64; ++i) {
    if (i > 0 && !consume(',')) return not_an_array;
    skip_space();
    const std::size_t begin = at;
    while (at < json.size() && std::string_view("0123456789+-.eE").find(json[at]) != json.npos) {
      ++at;
    }
    const std::string_view number = json.substr(begin, at - begin);
    if (number.empty()) return not_an_array;
    if (number.size() > 3 || (number.size() > 1 && number[0] == '0') ||
        number.find_first_not_of("0123456789") != number.npos) {
      return not_a_byte;
    }
    unsigned value = 0;
    for (char digit : number) value = value * 10 + static_cast<unsigned>(digit - '0');
    if (value > 255) return not_a_byte;
    (i < 32 ? seed[i] : public_key[i - 32]) = static_cast<std::uint8_t>(value);
  }
  if (!consume(']')) return not_an_array;
  skip_space();
  return at == json.size() ? Status::Ok() : not_an_array;
}

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
  Bytes32 seed{}, public_key{};
  Status parsed = ParseKeypairNumbers(json, seed, public_key);
  Result<Ed25519Keypair> keypair =
      parsed.ok() ? Ed25519Keypair::FromSeed(seed) : Result<Ed25519Keypair>(parsed);
  OPENSSL_cleanse(seed.data(), seed.size());
  if (keypair.ok() && keypair->public_key() != public_key) {
    return Status::InvalidArgument("the Solana keypair's public key does not match its secret key");
  }
  return keypair;
}

Result<Ed25519Keypair> ReadSolanaKeypairFile(const std::filesystem::path& path) {
  // The checks and the read use one descriptor, so the file checked is the file read.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return Status::FailedPrecondition("cannot open keypair file " + path.string() + ": " +
                                      std::strerror(errno));
  }
  Status usable = CheckPrivateFile(fd, path, "keypair file");
  // One fixed buffer, never reallocated, and no stream buffer in between, so no unwiped copy of
  // the secret is left behind.
  std::string text(kMaxFileSize + 1, '\0');
  std::size_t size = 0;
  while (usable.ok() && size < text.size()) {
    const ssize_t n = ::read(fd, text.data() + size, text.size() - size);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) usable = Status::FailedPrecondition("cannot read keypair file " + path.string());
    if (n <= 0) break;
    size += static_cast<std::size_t>(n);
  }
  ::close(fd);
  Result<Ed25519Keypair> keypair =
      !usable.ok()          ? Result<Ed25519Keypair>(usable)
      : size > kMaxFileSize ? Result<Ed25519Keypair>(Status::InvalidArgument("file is too large"))
                            : ParseSolanaKeypairJson(std::string_view(text).substr(0, size));
  Wipe(text);
  if (!keypair.ok() && usable.ok()) {
    return keypair.status().WithContext(path.string());
  }
  return keypair;
}

Status WriteSolanaKeypairFile(const std::filesystem::path& path, const Ed25519Keypair& keypair) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    return Status::FailedPrecondition("cannot create keypair file " + path.string() + ": " +
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
    return Status::FailedPrecondition("cannot write keypair file " + path.string());
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
