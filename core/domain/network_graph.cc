#include "core/domain/network_graph.h"

#include <nlohmann/json.hpp>
#include <string>

#include "core/store/graph.h"

namespace netgraph::domain {
namespace {

constexpr std::size_t kMaxIdLength = 128;
constexpr std::size_t kMaxTypeLength = 64;
constexpr std::size_t kMaxLabels = 32;

// The graph is public: nothing that looks like an email or an identity-provider DID goes in.
bool LooksPersonal(std::string_view text) {
  return text.find('@') != std::string_view::npos || text.substr(0, 4) == "did:";
}

// The string member `key` of `entry`, when it is a non-empty string of at most `max` bytes.
std::optional<std::string> Text(const nlohmann::json& entry, const char* key, std::size_t max) {
  auto it = entry.find(key);
  if (it == entry.end() || !it->is_string()) return std::nullopt;
  std::string text = it->get<std::string>();
  if (text.empty() || text.size() > max) return std::nullopt;
  return text;
}

Result<GraphChange> ParseImport(std::string_view json, ImportSummary* summary) {
  nlohmann::json document = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object()) return Status::InvalidArgument("the graph file must be a JSON object");
  GraphChange change;
  const nlohmann::json nodes = document.value("nodes", nlohmann::json::array());
  const nlohmann::json links = document.value("links", nlohmann::json::array());
  if (!nodes.is_array() || !links.is_array()) {
    return Status::InvalidArgument("`nodes` and `links` must be arrays");
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const nlohmann::json& entry = nodes[i];
    const std::string where = "nodes[" + std::to_string(i) + "]";
    if (!entry.is_object()) return Status::InvalidArgument(where + " must be an object");
    std::optional<std::string> id = Text(entry, "id", kMaxIdLength);
    std::optional<std::string> type = Text(entry, "type", kMaxTypeLength);
    if (!id || !type) {
      return Status::InvalidArgument(where +
                                     " needs an `id` (1-128 characters) and a `type` (1-64)");
    }
    if (LooksPersonal(*id))
      return Status::InvalidArgument(where + ".id looks like an email or a DID");
    GraphNode node{*id, *type, {}};
    const nlohmann::json labels = entry.value("labels", nlohmann::json::array());
    if (!labels.is_array() || labels.size() > kMaxLabels) {
      return Status::InvalidArgument(where + ".labels must be an array of at most 32 strings");
    }
    for (const nlohmann::json& label : labels) {
      if (!label.is_string()) return Status::InvalidArgument(where + ".labels must hold strings");
      if (LooksPersonal(label.get<std::string>())) {
        return Status::InvalidArgument(where + ".labels: a label looks like an email or a DID");
      }
      node.labels.push_back(label.get<std::string>());
    }
    change.AddNode(std::move(node));
  }
  for (std::size_t i = 0; i < links.size(); ++i) {
    const nlohmann::json& entry = links[i];
    const std::string where = "links[" + std::to_string(i) + "]";
    if (!entry.is_object()) return Status::InvalidArgument(where + " must be an object");
    std::optional<std::string> source = Text(entry, "source", kMaxIdLength);
    std::optional<std::string> target = Text(entry, "target", kMaxIdLength);
    std::optional<std::string> type = Text(entry, "type", kMaxTypeLength);
    if (!source || !target || !type) {
      return Status::InvalidArgument(where + " needs a `source`, a `target` and a `type`");
    }
    change.AddLink(GraphLink{*source, *target, *type});
  }
  summary->nodes = nodes.size();
  summary->links = links.size();
  return change;
}

}  // namespace

bool IsValidGraphLimit(std::int64_t limit) {
  return limit >= kMinGraphLimit && limit <= kMaxGraphLimit;
}

Result<NetworkGraph> ReadNetworkGraph(store::Connection& db, std::int64_t limit) {
  NetworkGraph graph;
  Status read = db.InTransaction(store::Isolation::kRepeatableRead, [&]() -> Status {
    graph = NetworkGraph{};
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::NodeRow> nodes, store::RecentNodes(db, limit));
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::LinkRow> links,
                              store::LinksAmongRecentNodes(db, limit));
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<std::int64_t> last, store::LastGraphChange(db));
    for (store::NodeRow& n : nodes) {
      graph.nodes.push_back(GraphNode{std::move(n.id), std::move(n.type), std::move(n.labels)});
    }
    for (store::LinkRow& l : links) {
      graph.links.push_back(GraphLink{std::move(l.source), std::move(l.target), std::move(l.type)});
    }
    if (last) graph.last_updated = FromEpochMicros(*last);
    return Status::Ok();
  });
  if (!read.ok()) return read;
  return graph;
}

Result<ImportSummary> ImportGraph(store::Connection& db, std::string_view json) {
  ImportSummary summary;
  NETGRAPH_ASSIGN_OR_RETURN(GraphChange change, ParseImport(json, &summary));
  Status written = db.InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    Result<std::optional<std::int64_t>> sequence = change.Write(db);
    NETGRAPH_RETURN_IF_ERROR(sequence);
    summary.sequence = *sequence;
    return Status::Ok();
  });
  if (!written.ok()) return written;
  return summary;
}

}  // namespace netgraph::domain
