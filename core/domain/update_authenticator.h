// The envelope of the update messages on Redis (update_message.h is what it carries). Redis pub/sub
// is open to anyone who can reach the server, so the outbox relay seals each message it publishes
// with an HMAC-SHA256 under a key shared with netgraph-ws, and netgraph-ws opens (verifies) every
// message before reading it: a message that is unsigned, forged, meant for another channel or
// malformed is dropped before its content (its publisher sequence included) is looked at.
//
// Wire format: <64 lowercase hex digits: the MAC> "." <payload>. The MAC covers
// <decimal byte length of the channel> ":" <channel> <payload>, so that a message signed for one
// channel is refused on another.
//
// The key comes from NETGRAPH_UPDATE_SIGNING_KEY_FILE: a file holding 64 or more lowercase hex
// digits (32+ bytes; `openssl rand -hex 32`), trailing whitespace ignored. The setting is required;
// the value `off` publishes and accepts unsigned payloads (unsafe: anyone who can publish on Redis
// then feeds every subscriber), and both daemons must then say `off`.
#ifndef NETGRAPH_CORE_DOMAIN_UPDATE_AUTHENTICATOR_H_
#define NETGRAPH_CORE_DOMAIN_UPDATE_AUTHENTICATOR_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/config/environment.h"
#include "core/status.h"

namespace netgraph::domain {

inline constexpr char kUpdateSigningKeyFileVariable[] = "NETGRAPH_UPDATE_SIGNING_KEY_FILE";

class UpdateAuthenticator {
 public:
  // Reads NETGRAPH_UPDATE_SIGNING_KEY_FILE; unset, an unreadable file or a bad key is an error.
  static Result<UpdateAuthenticator> FromEnvironment(config::Environment& env);
  static Result<UpdateAuthenticator> FromKeyFile(const std::string& path);
  // A key given as hex text (the key file's content).
  static Result<UpdateAuthenticator> FromHexKey(std::string_view hex);
  // Signing off (the setting's `off`): Seal and Open pass payloads through unchanged.
  UpdateAuthenticator() = default;

  bool signing() const { return !key_.empty(); }

  // The message to publish on `channel`.
  std::string Seal(std::string_view channel, std::string_view payload) const;
  // The payload of a message received on `channel` (a view into `message`), or why it is refused.
  // The MAC is compared in constant time.
  Result<std::string_view> Open(std::string_view channel, std::string_view message) const;

 private:
  explicit UpdateAuthenticator(std::vector<std::uint8_t> key) : key_(std::move(key)) {}

  std::vector<std::uint8_t> key_;  // empty: signing off
};

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_UPDATE_AUTHENTICATOR_H_
