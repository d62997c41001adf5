#include "core/domain/graph_change.h"

#include <nlohmann/json.hpp>

#include "core/domain/update_message.h"
#include "core/store/graph.h"
#include "core/store/outbox.h"

namespace netgraph::domain {

std::string NetworkUpdateJson(std::int64_t sequence, std::string_view epoch,
                              std::int64_t appended_unix_us, const std::vector<GraphNode>& nodes,
                              const std::vector<GraphLink>& links, Timestamp last_updated) {
  UpdateMessage message;
  message.sequence = sequence;
  message.epoch = epoch;
  message.appended_unix_us = appended_unix_us;
  nlohmann::json& update = message.event;
  update["nodes"] = nlohmann::json::array();
  for (const GraphNode& n : nodes) {
    update["nodes"].push_back({{"id", n.id}, {"type", n.type}, {"labels", n.labels}});
  }
  update["links"] = nlohmann::json::array();
  for (const GraphLink& l : links) {
    update["links"].push_back({{"source", l.source}, {"target", l.target}, {"type", l.type}});
  }
  update["metadata"] = {{"nodeCount", nodes.size()},
                        {"linkCount", links.size()},
                        {"lastUpdated", FormatDateTime(last_updated)}};
  return message.Write();
}

Result<std::optional<std::int64_t>> GraphChange::Write(store::Connection& db) const {
  std::vector<store::NodeRow> nodes;
  nodes.reserve(nodes_.size());
  for (const GraphNode& node : nodes_) nodes.push_back({node.id, node.type, node.labels, 0});
  std::vector<store::LinkRow> links;
  links.reserve(links_.size());
  for (const GraphLink& link : links_) links.push_back({link.source, link.target, link.type, 0});
  NETGRAPH_ASSIGN_OR_RETURN(std::optional<std::int64_t> changed_at,
                            store::WriteGraph(db, nodes, links));
  if (!changed_at) return std::optional<std::int64_t>();
  // The sequence row is locked from here to commit: this is the transaction's last step.
  NETGRAPH_ASSIGN_OR_RETURN(store::OutboxPosition position, store::NextOutboxId(db));
  const std::string payload = NetworkUpdateJson(position.id, position.epoch, position.read_unix_us,
                                                nodes_, links_, FromEpochMicros(*changed_at));
  NETGRAPH_RETURN_IF_ERROR(store::AppendOutbox(db, position, kGraphChannel, payload));
  return std::optional<std::int64_t>(position.id);
}

}  // namespace netgraph::domain
