#include "core/store/graph.h"

#include <nlohmann/json.hpp>

namespace netgraph::store {
namespace {

// Labels travel as a JSON array in both directions, so no text[] literal is ever assembled.
constexpr Statement kUpsertNode{
    "graph_upsert_node",
    "INSERT INTO graph_nodes AS n (id, type, labels) "
    "VALUES ($1, $2, ARRAY(SELECT jsonb_array_elements_text($3::jsonb))) "
    "ON CONFLICT (id) DO UPDATE SET type = EXCLUDED.type, labels = EXCLUDED.labels, "
    "changed_at = now() "
    "WHERE n.type IS DISTINCT FROM EXCLUDED.type OR n.labels IS DISTINCT FROM EXCLUDED.labels "
    "RETURNING id, type, to_json(labels)::text, epoch_us(changed_at)"};
constexpr Statement kUpsertLink{
    "graph_upsert_link",
    "INSERT INTO graph_links (source, target, type) VALUES ($1, $2, $3) "
    "ON CONFLICT DO NOTHING RETURNING source, target, type, epoch_us(changed_at)"};
constexpr Statement kRecentNodes{
    "graph_recent_nodes",
    "SELECT id, type, to_json(labels)::text, epoch_us(changed_at) FROM graph_nodes "
    "ORDER BY changed_at DESC, id LIMIT $1"};
// From each recent node along its outgoing links (the primary key's leading column), keeping those
// whose target is recent too: the rows read are the recent nodes' outgoing links, not every link
// (docs/benchmarks.md shows the plans). OFFSET 0 keeps the lateral subquery from being flattened
// into a join the planner may run as a hash join over all links when the table is small.
constexpr Statement kLinksAmongRecent{
    "graph_links_among_recent",
    "WITH recent AS MATERIALIZED "
    "(SELECT id FROM graph_nodes ORDER BY changed_at DESC, id LIMIT $1) "
    "SELECT l.source, l.target, l.type, epoch_us(l.changed_at) FROM recent s CROSS JOIN LATERAL "
    "(SELECT * FROM graph_links WHERE source = s.id OFFSET 0) l "
    "WHERE l.target IN (SELECT id FROM recent) "
    "ORDER BY l.changed_at DESC, l.source, l.target, l.type"};
// Both maxima come from the end of an index (graph_nodes_recent, graph_links_recent).
constexpr Statement kLastChange{
    "graph_last_change",
    "SELECT epoch_us(GREATEST((SELECT max(changed_at) FROM graph_nodes), "
    "(SELECT max(changed_at) FROM graph_links)))"};

NodeRow ReadNode(const Rows& rows, int row) {
  NodeRow node{
      std::string(rows.Text(row, 0)), std::string(rows.Text(row, 1)), {}, rows.Int(row, 3)};
  nlohmann::json labels = nlohmann::json::parse(rows.Text(row, 2), nullptr, false);
  if (labels.is_array()) {
    for (const nlohmann::json& label : labels) {
      if (label.is_string()) node.labels.push_back(label.get<std::string>());
    }
  }
  return node;
}

LinkRow ReadLink(const Rows& rows, int row) {
  return LinkRow{std::string(rows.Text(row, 0)), std::string(rows.Text(row, 1)),
                 std::string(rows.Text(row, 2)), rows.Int(row, 3)};
}

}  // namespace

Result<std::optional<NodeRow>> UpsertNode(Connection& db, const NodeRow& node) {
  NETGRAPH_ASSIGN_OR_RETURN(
      Rows rows, db.Run(kUpsertNode, {node.id, node.type, nlohmann::json(node.labels).dump()}));
  if (rows.empty()) return std::optional<NodeRow>();
  return std::optional<NodeRow>(ReadNode(rows, 0));
}

Result<std::optional<LinkRow>> UpsertLink(Connection& db, const LinkRow& link) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kUpsertLink, {link.source, link.target, link.type}));
  if (rows.empty()) return std::optional<LinkRow>();
  return std::optional<LinkRow>(ReadLink(rows, 0));
}

Result<std::vector<NodeRow>> RecentNodes(Connection& db, std::int64_t limit) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kRecentNodes, {std::to_string(limit)}));
  std::vector<NodeRow> nodes;
  nodes.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i) nodes.push_back(ReadNode(rows, i));
  return nodes;
}

Result<std::vector<LinkRow>> LinksAmongRecentNodes(Connection& db, std::int64_t limit) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kLinksAmongRecent, {std::to_string(limit)}));
  std::vector<LinkRow> links;
  links.reserve(static_cast<std::size_t>(rows.size()));
  for (int i = 0; i < rows.size(); ++i) links.push_back(ReadLink(rows, i));
  return links;
}

Result<std::optional<std::int64_t>> LastGraphChange(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kLastChange));
  return rows.OptionalInt(0, 0);
}

}  // namespace netgraph::store
