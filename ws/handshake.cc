#include "ws/handshake.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cstddef>

namespace netgraph::ws {
namespace {

struct Token {
  std::size_t begin;
  std::size_t length;
};

// The comma-separated tokens of a header, without the spaces around them.
std::vector<Token> Tokens(std::string_view header) {
  std::vector<Token> tokens;
  std::size_t start = 0;
  while (start <= header.size()) {
    std::size_t end = header.find(',', start);
    if (end == std::string_view::npos) end = header.size();
    std::size_t b = start;
    std::size_t e = end;
    while (b < e && (header[b] == ' ' || header[b] == '\t')) ++b;
    while (e > b && (header[e - 1] == ' ' || header[e - 1] == '\t')) --e;
    if (e > b) tokens.push_back({b, e - b});
    start = end + 1;
  }
  return tokens;
}

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

}  // namespace

SubprotocolOffer ParseSubprotocols(std::string_view header) {
  SubprotocolOffer offer;
  for (const Token& token : Tokens(header)) {
    std::string_view name = header.substr(token.begin, token.length);
    offer.any = true;
    if (name == kTransportWsProtocol) offer.transport_ws = true;
    if (name == kLegacyWsProtocol) offer.legacy_ws = true;
  }
  return offer;
}

bool OriginAllowed(const std::vector<std::string>& allowed, std::string_view origin) {
  if (allowed.empty() || origin.empty()) return true;
  for (const std::string& entry : allowed) {
    if (EqualsIgnoringCase(entry, origin)) return true;
  }
  return false;
}

bool IsIpAddress(std::string_view text) {
  if (text.empty() || text.size() >= INET6_ADDRSTRLEN) return false;
  std::string copy(text);
  unsigned char address[sizeof(in6_addr)];
  return ::inet_pton(AF_INET, copy.c_str(), address) == 1 ||
         ::inet_pton(AF_INET6, copy.c_str(), address) == 1;
}

std::string ClientAddress(std::string_view peer, std::string_view forwarded_for,
                          const std::vector<std::string>& trusted_proxies) {
  const bool trusted = peer.empty() || std::find(trusted_proxies.begin(), trusted_proxies.end(),
                                                 peer) != trusted_proxies.end();
  std::vector<Token> hops = Tokens(forwarded_for);
  if (trusted && !hops.empty()) {
    std::string_view last = forwarded_for.substr(hops.back().begin, hops.back().length);
    if (IsIpAddress(last)) return std::string(last);
  }
  return peer.empty() ? "-" : std::string(peer);
}

}  // namespace netgraph::ws
