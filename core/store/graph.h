// The public network graph: typed nodes with labels and typed links between them.
#ifndef NETGRAPH_CORE_STORE_GRAPH_H_
#define NETGRAPH_CORE_STORE_GRAPH_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::store {

struct NodeRow {
  std::string id;
  std::string type;
  std::vector<std::string> labels;
  std::int64_t changed_at = 0;  // microseconds since the Unix epoch
};

struct LinkRow {
  std::string source;
  std::string target;
  std::string type;
  std::int64_t changed_at = 0;
};

// Writes one change: each node inserted, or updated with its changed_at when its
// type or labels differ (a node given twice counts as its last); each link inserted when absent (a
// link has no other attributes to change); both ends of a link must be nodes of the change or
// stored. Returns the latest changed_at among the rows it wrote, or nullopt when every row already
// existed as given. Rows already as given are neither written nor locked, so concurrent changes
// naming the same node (every claim names its round's) do not wait for each other. A change the
// graph already holds entirely costs one read-only statement; any other, that and the write.
Result<std::optional<std::int64_t>> WriteGraph(Connection& db, const std::vector<NodeRow>& nodes,
                                               const std::vector<LinkRow>& links);

// The `limit` most recently changed nodes, newest first.
Result<std::vector<NodeRow>> RecentNodes(Connection& db, std::int64_t limit);
// The links whose both ends are among the `limit` most recently changed nodes.
Result<std::vector<LinkRow>> LinksAmongRecentNodes(Connection& db, std::int64_t limit);
// When a node or link last changed; nullopt for an empty graph.
Result<std::optional<std::int64_t>> LastGraphChange(Connection& db);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_GRAPH_H_
