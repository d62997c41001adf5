// JSON from a client (an HTTP body or GET parameter, a WebSocket message): parsed with the bounds
// of core/bounded_json.h, at most kMaxClientJsonDepth levels deep unless the daemon's setting says
// otherwise (fcgi/http/graphql_http.h).
#ifndef NETGRAPH_CORE_API_CLIENT_JSON_H_
#define NETGRAPH_CORE_API_CLIENT_JSON_H_

#include <cstddef>
#include <string_view>

#include "core/bounded_json.h"

namespace netgraph::api {

inline constexpr std::size_t kMaxClientJsonDepth = kMaxJsonDepth;

using ClientJson = BoundedJson;

inline ClientJson ParseClientJson(std::string_view text,
                                  std::size_t max_depth = kMaxClientJsonDepth) {
  return ParseBoundedJson(text, max_depth);
}

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_CLIENT_JSON_H_
