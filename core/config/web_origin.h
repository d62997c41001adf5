// A web origin as a setting names one (NETGRAPH_CORS_ORIGINS, NETGRAPH_PUBLIC_ORIGIN): what a
// browser sends as Origin and shows in its address bar, "scheme://host[:port]" with an http or
// https scheme, a host of letters, digits, '-' and '.' (or an IPv6 literal in brackets) and a
// numeric port, nothing after it.
#ifndef NETGRAPH_CORE_CONFIG_WEB_ORIGIN_H_
#define NETGRAPH_CORE_CONFIG_WEB_ORIGIN_H_

#include <optional>
#include <string>
#include <string_view>

namespace netgraph::config {

// The origin in lowercase (scheme and host compare without regard to case), or nullopt when
// `text` is not one.
std::optional<std::string> ParseWebOrigin(std::string_view text);

}  // namespace netgraph::config

#endif  // NETGRAPH_CORE_CONFIG_WEB_ORIGIN_H_
