// JSON that no one vouches for (a client's request or message, what arrives on Redis), parsed
// without exceptions and without deep recursion: text that nests deeper than `max_depth` is refused
// before parsing, so no later recursive walk over the value (conversion, coercion, printing) can
// exhaust the stack. The daemons' client input uses it through core/api/client_json.h, the update
// messages through core/domain/update_message.h.
#ifndef NETGRAPH_CORE_BOUNDED_JSON_H_
#define NETGRAPH_CORE_BOUNDED_JSON_H_

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

namespace netgraph {

inline constexpr std::size_t kMaxJsonDepth = 64;

struct BoundedJson {
  enum class Problem { kNone, kTooDeep, kMalformed };
  nlohmann::json value;  // discarded unless problem is kNone
  Problem problem = Problem::kNone;

  bool ok() const { return problem == Problem::kNone; }
};

BoundedJson ParseBoundedJson(std::string_view text, std::size_t max_depth = kMaxJsonDepth);

}  // namespace netgraph

#endif  // NETGRAPH_CORE_BOUNDED_JSON_H_
