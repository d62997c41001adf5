#include "core/domain/update_authenticator.h"

#include <sodium.h>

#include <utility>

#include "core/config/setting_file.h"
#include "core/crypto/bytes.h"
#include "core/crypto/hex.h"

namespace netgraph::domain {
namespace {

constexpr std::size_t kMinKeyBytes = 32;
constexpr std::size_t kMacHexDigits = 2 * crypto_auth_hmacsha256_BYTES;

crypto::Bytes32 Mac(const std::vector<std::uint8_t>& key, std::string_view channel,
                    std::string_view payload) {
  static_assert(crypto_auth_hmacsha256_BYTES == 32);
  const std::string channel_prefix = std::to_string(channel.size()) + ":";
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, key.data(), key.size());
  for (std::string_view part : {std::string_view(channel_prefix), channel, payload}) {
    crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(part.data()),
                                  part.size());
  }
  crypto::Bytes32 mac;
  crypto_auth_hmacsha256_final(&state, mac.data());
  sodium_memzero(&state, sizeof state);
  return mac;
}

}  // namespace

Result<UpdateAuthenticator> UpdateAuthenticator::FromEnvironment(config::Environment& env) {
  const std::string setting = env.String(kUpdateSigningKeyFileVariable);
  if (setting == "off") return UpdateAuthenticator();
  if (setting.empty()) {
    return Status::FailedPrecondition(
        std::string(kUpdateSigningKeyFileVariable) +
        " is not set: give it a file holding the shared key that signs graph "
        "updates on Redis (create one with: openssl rand -hex 32), or 'off' to "
        "publish and accept unsigned updates (unsafe)");
  }
  return FromKeyFile(setting);
}

Result<UpdateAuthenticator> UpdateAuthenticator::FromKeyFile(const std::string& path) {
  return config::LoadSettingFile(kUpdateSigningKeyFileVariable, path, FromHexKey);
}

Result<UpdateAuthenticator> UpdateAuthenticator::FromHexKey(std::string_view hex) {
  std::size_t end = hex.find_last_not_of(" \t\r\n");
  hex = end == std::string_view::npos ? std::string_view() : hex.substr(0, end + 1);
  if (hex.size() < 2 * kMinKeyBytes || hex.size() % 2 != 0) {
    return Status::InvalidArgument("the key must be an even number of at least " +
                                   std::to_string(2 * kMinKeyBytes) + " lowercase hex digits");
  }
  std::vector<std::uint8_t> key(hex.size() / 2);
  NETGRAPH_RETURN_IF_ERROR(crypto::HexDecodeExact(hex, key));
  return UpdateAuthenticator(std::move(key));
}

std::string UpdateAuthenticator::Seal(std::string_view channel, std::string_view payload) const {
  if (!signing()) return std::string(payload);
  std::string message = crypto::HexEncode(Mac(key_, channel, payload));
  message += '.';
  message.append(payload);
  return message;
}

Result<std::string_view> UpdateAuthenticator::Open(std::string_view channel,
                                                   std::string_view message) const {
  if (!signing()) return message;
  if (message.size() <= kMacHexDigits || message[kMacHexDigits] != '.') {
    return Status::PermissionDenied("the message is not signed");
  }
  crypto::Bytes32 claimed;
  if (!crypto::HexDecodeExact(message.substr(0, kMacHexDigits), claimed).ok()) {
    return Status::PermissionDenied("the message's signature is malformed");
  }
  std::string_view payload = message.substr(kMacHexDigits + 1);
  const crypto::Bytes32 expected = Mac(key_, channel, payload);
  if (sodium_memcmp(claimed.data(), expected.data(), expected.size()) != 0) {
    return Status::PermissionDenied("the message's signature does not verify");
  }
  return payload;
}

}  // namespace netgraph::domain
