// What netgraph-ws decides from a WebSocket upgrade request's headers, before any message flows:
// which GraphQL subprotocol the connection speaks and whether its Origin may connect.
#ifndef NETGRAPH_WS_HANDSHAKE_H_
#define NETGRAPH_WS_HANDSHAKE_H_

#include <string>
#include <string_view>
#include <vector>

namespace netgraph::ws {

// The two GraphQL-over-WebSocket protocols, by their Sec-WebSocket-Protocol names.
inline constexpr std::string_view kTransportWsProtocol =
    "graphql-transport-ws";                                          // graphql-ws (npm)
inline constexpr std::string_view kLegacyWsProtocol = "graphql-ws";  // subscriptions-transport-ws

enum class Subprotocol {
  kNone,  // the client named no subprotocol: closed with 4406 once upgraded
  kGraphqlTransportWs,
  kGraphqlWs,
};

// The names a Sec-WebSocket-Protocol header lists, as far as netgraph is concerned.
struct SubprotocolOffer {
  bool transport_ws = false;
  bool legacy_ws = false;
  bool any = false;  // the header names at least one protocol (ours or not)
};
SubprotocolOffer ParseSubprotocols(std::string_view header);

// Whether a browser at `origin` may connect. An empty allow-list allows everyone; so does an absent
// Origin header (only browsers send one, and they always do). Comparison ignores ASCII case.
bool OriginAllowed(const std::vector<std::string>& allowed, std::string_view origin);

// The client address a connection is counted and logged under. `peer` is the socket's peer as
// text (empty for a unix-socket peer, which is nginx); `forwarded_for` the X-Forwarded-For header
// (empty when absent), whose last entry is the address the proxy saw (nginx appends
// $remote_addr; earlier entries are the client's to write). That entry is believed only from a
// unix-socket peer or a peer in `trusted_proxies`, and only when it is one IPv4 or IPv6 address;
// otherwise the peer is the client ("-" when unknown).
std::string ClientAddress(std::string_view peer, std::string_view forwarded_for,
                          const std::vector<std::string>& trusted_proxies);

// Whether `text` is one IPv4 or IPv6 address in textual form.
bool IsIpAddress(std::string_view text);

}  // namespace netgraph::ws

#endif  // NETGRAPH_WS_HANDSHAKE_H_
