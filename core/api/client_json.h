// JSON from a client (an HTTP body or GET parameter, a WebSocket message), parsed without
// exceptions and without deep recursion: text that nests deeper than `max_depth` is refused before
// parsing, so no later recursive walk over the value (conversion, coercion, printing) can exhaust
// the stack.
#ifndef NETGRAPH_CORE_API_CLIENT_JSON_H_
#define NETGRAPH_CORE_API_CLIENT_JSON_H_

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace netgraph::api {

inline constexpr std::size_t kMaxClientJsonDepth = 64;

struct ClientJson {
  enum class Problem { kNone, kTooDeep, kMalformed };
  nlohmann::json value;  // discarded unless problem is kNone
  Problem problem = Problem::kNone;

  bool ok() const { return problem == Problem::kNone; }
};

ClientJson ParseClientJson(std::string_view text, std::size_t max_depth = kMaxClientJsonDepth);

}  // namespace netgraph::api

#endif  // NETGRAPH_CORE_API_CLIENT_JSON_H_
