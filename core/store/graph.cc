#include "core/store/graph.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace netgraph::store {
namespace {

// The nodes and links of one change, as JSON arrays (so no text[] literal is ever assembled), in
// one statement. An existing node is updated only when its type or labels differ: a plain UPDATE
// with that condition leaves an unchanged row unlocked, where INSERT ... ON CONFLICT DO UPDATE
// locks the conflicting row even when its WHERE then skips it (every claim names its round's node,
// which would otherwise be held by each claim until its commit). A node repeated in the change
// counts as its last occurrence, as writing them one after another would. The last column counts
// the nodes absent from the statement's snapshot that it did not insert either: a concurrent
// transaction inserted them and committed meanwhile, so the statement may not have applied the
// change's type or labels to them (WriteGraph runs it again).
constexpr Statement kWriteGraph{
    "graph_write",
    "WITH nodes_in AS (SELECT DISTINCT ON (e.node->>'id') e.node->>'id' AS id, "
    "e.node->>'type' AS type, ARRAY(SELECT jsonb_array_elements_text(e.node->'labels')) AS labels "
    "FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(node, ord) "
    "ORDER BY e.node->>'id', e.ord DESC), "
    "links_in AS (SELECT DISTINCT l->>'source' AS source, l->>'target' AS target, l->>'type' AS "
    "type "
    "FROM jsonb_array_elements($2::jsonb) AS l), "
    "changed_nodes AS (UPDATE graph_nodes n SET type = i.type, labels = i.labels, "
    "changed_at = now() FROM nodes_in i WHERE n.id = i.id "
    "AND (n.type IS DISTINCT FROM i.type OR n.labels IS DISTINCT FROM i.labels) "
    "RETURNING n.changed_at), "
    "absent AS (SELECT * FROM nodes_in i "
    "WHERE NOT EXISTS (SELECT 1 FROM graph_nodes n WHERE n.id = i.id)), "
    "new_nodes AS (INSERT INTO graph_nodes (id, type, labels) "
    "SELECT id, type, labels FROM absent ORDER BY id ON CONFLICT (id) DO NOTHING "
    "RETURNING changed_at), "
    "new_links AS (INSERT INTO graph_links (source, target, type) "
    "SELECT source, target, type FROM links_in ORDER BY source, target, type "
    "ON CONFLICT DO NOTHING RETURNING changed_at) "
    "SELECT epoch_us(GREATEST((SELECT max(changed_at) FROM changed_nodes), "
    "(SELECT max(changed_at) FROM new_nodes), (SELECT max(changed_at) FROM new_links))), "
    "(SELECT count(*) FROM absent) - (SELECT count(*) FROM new_nodes)"};
// Whether the graph already holds every node of a change as given (its type, and its labels in
// order) and every link: then kWriteGraph would write nothing, and a claim to a known wallet (the
// common write) is spared it. Read-only and without the data-modifying CTEs, whose set-up is most
// of kWriteGraph's cost (docs/benchmarks.md, "Issue 27 item 2: the graph check, one lock
// statement"). A node named twice in different forms never holds (one form differs from the row),
// so kWriteGraph then applies its last form.
constexpr Statement kGraphHolds{
    "graph_holds",
    "SELECT (SELECT count(*) FROM jsonb_array_elements($1::jsonb) AS e(node) "
    "JOIN graph_nodes n ON n.id = e.node->>'id' AND n.type = e.node->>'type' "
    "AND to_jsonb(n.labels) = e.node->'labels') = jsonb_array_length($1::jsonb) "
    "AND (SELECT count(*) FROM jsonb_array_elements($2::jsonb) AS e(link) "
    "JOIN graph_links l ON l.source = e.link->>'source' AND l.target = e.link->>'target' "
    "AND l.type = e.link->>'type') = jsonb_array_length($2::jsonb) AS holds"};
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

Result<std::optional<std::int64_t>> WriteGraph(Connection& db, const std::vector<NodeRow>& nodes,
                                               const std::vector<LinkRow>& links) {
  nlohmann::json node_list = nlohmann::json::array();
  for (const NodeRow& node : nodes) {
    node_list.push_back({{"id", node.id}, {"type", node.type}, {"labels", node.labels}});
  }
  nlohmann::json link_list = nlohmann::json::array();
  for (const LinkRow& link : links) {
    link_list.push_back({{"source", link.source}, {"target", link.target}, {"type", link.type}});
  }
  const std::vector<Param> params = {node_list.dump(), link_list.dump()};
  // A row a concurrent transaction changes after this check could change after kWriteGraph as
  // well: kWriteGraph locks no row it leaves unchanged either.
  NETGRAPH_ASSIGN_OR_RETURN(Rows holds, db.Run(kGraphHolds, params));
  if (holds.Bool(0, 0)) return std::optional<std::int64_t>();
  std::optional<std::int64_t> changed_at;
  // A second run sees the nodes a concurrent transaction inserted during the first, and updates
  // those that differ; what the first run wrote it finds as written.
  for (int run = 0; run < 2; ++run) {
    NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kWriteGraph, params));
    if (std::optional<std::int64_t> at = rows.OptionalInt(0, 0)) {
      changed_at = changed_at ? std::max(*changed_at, *at) : *at;
    }
    if (rows.Int(0, 1) == 0) break;
  }
  return changed_at;
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
