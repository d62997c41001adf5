#include "core/graphql/utilities/inspect.h"

#include "core/graphql/execution/json_writer.h"
#include "core/graphql/utilities/number_format.h"

namespace netgraph::graphql {

namespace {

constexpr std::size_t kMaxListItems = 10;
constexpr int kMaxDepth = 2;

// `depth`: how many lists and objects enclose `value`.
void AppendInspected(const Value& value, int depth, std::string* out) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      out->append("null");
      return;
    case Value::Kind::kBoolean:
      out->append(value.as_bool() ? "true" : "false");
      return;
    case Value::Kind::kInt:
      out->append(std::to_string(value.as_int()));
      return;
    case Value::Kind::kFloat:
      out->append(FormatJsNumber(value.as_float()));
      return;
    case Value::Kind::kString:
      out->append(json::Quote(value.as_string()));
      return;
    case Value::Kind::kHost:
      out->append("{}");
      return;
    case Value::Kind::kList: {
      const Value::List& items = value.as_list();
      if (items.empty()) {
        out->append("[]");
        return;
      }
      if (depth >= kMaxDepth) {
        out->append("[Array]");
        return;
      }
      out->push_back('[');
      const std::size_t shown = items.size() < kMaxListItems ? items.size() : kMaxListItems;
      for (std::size_t i = 0; i < shown; ++i) {
        if (i > 0) out->append(", ");
        AppendInspected(items[i], depth + 1, out);
      }
      const std::size_t remaining = items.size() - shown;
      if (remaining == 1) {
        out->append(", ... 1 more item");
      } else if (remaining > 1) {
        out->append(", ... " + std::to_string(remaining) + " more items");
      }
      out->push_back(']');
      return;
    }
    case Value::Kind::kObject: {
      const Value::Object& fields = value.as_object();
      if (fields.empty()) {
        out->append("{}");
        return;
      }
      if (depth >= kMaxDepth) {
        out->append("[Object]");
        return;
      }
      out->append("{ ");
      bool first = true;
      for (const auto& [key, item] : fields) {
        if (!first) out->append(", ");
        first = false;
        out->append(key);
        out->append(": ");
        AppendInspected(item, depth + 1, out);
      }
      out->append(" }");
      return;
    }
  }
}

}  // namespace

std::string Inspect(const Value& value) {
  std::string out;
  AppendInspected(value, 0, &out);
  return out;
}

}  // namespace netgraph::graphql
