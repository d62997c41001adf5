// The payloads of recently verified tokens, so that a client sending the same bearer token with
// every request pays for one signature check. libjwt 1.10.2 re-reads the PEM key inside every
// jwt_decode, and with OpenSSL 3.0 that parse is most of a verification's cost (about 265 of
// 350 µs for ES256). Only signature-checked payloads go in; their claims are still checked
// against the clock on every use. Internal to core/auth.
//
// Thread-safe. Bounded: when full, the oldest entry makes room.
#ifndef NETGRAPH_CORE_AUTH_INTERNAL_VERIFIED_TOKEN_CACHE_H_
#define NETGRAPH_CORE_AUTH_INTERNAL_VERIFIED_TOKEN_CACHE_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace netgraph::auth {

class VerifiedTokenCache {
 public:
  explicit VerifiedTokenCache(std::size_t capacity);

  // The claims stored for exactly this token, verified with the key set `key_generation` names
  // (a token verified with a set since replaced must be verified again: its key may be retired).
  std::optional<nlohmann::json> Find(std::string_view token,
                                     std::uint64_t key_generation = 0) const;
  void Insert(std::string_view token, const nlohmann::json& claims,
              std::uint64_t key_generation = 0);

 private:
  const std::size_t capacity_;
  mutable std::mutex mutex_;
  struct Entry {
    nlohmann::json claims;
    std::uint64_t key_generation;
  };
  std::unordered_map<std::string, Entry> claims_by_token_;
  // Insertion order; the pointers are to the map's keys, which stay put until erased.
  std::deque<const std::string*> oldest_first_;
};

}  // namespace netgraph::auth

#endif  // NETGRAPH_CORE_AUTH_INTERNAL_VERIFIED_TOKEN_CACHE_H_
