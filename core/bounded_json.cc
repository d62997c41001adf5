#include "core/bounded_json.h"

namespace netgraph {
namespace {

bool NestsDeeperThan(std::string_view json, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  bool escaped = false;
  for (char c : json) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

}  // namespace

BoundedJson ParseBoundedJson(std::string_view text, std::size_t max_depth) {
  BoundedJson parsed;
  if (NestsDeeperThan(text, max_depth)) {
    parsed.value = nlohmann::json(nlohmann::json::value_t::discarded);
    parsed.problem = BoundedJson::Problem::kTooDeep;
    return parsed;
  }
  parsed.value = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.value.is_discarded()) parsed.problem = BoundedJson::Problem::kMalformed;
  return parsed;
}

}  // namespace netgraph
