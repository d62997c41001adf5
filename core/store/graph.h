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

// Inserts the node or, when its type or labels differ, updates it and its changed_at. Nullopt
// when the stored node was already exactly this (nothing changed).
Result<std::optional<NodeRow>> UpsertNode(Connection& db, const NodeRow& node);
// Inserts the link; nullopt when it existed (a link has no other attributes to change).
Result<std::optional<LinkRow>> UpsertLink(Connection& db, const LinkRow& link);

// The `limit` most recently changed nodes, newest first.
Result<std::vector<NodeRow>> RecentNodes(Connection& db, std::int64_t limit);
// The links whose both ends are among the `limit` most recently changed nodes.
Result<std::vector<LinkRow>> LinksAmongRecentNodes(Connection& db, std::int64_t limit);
// When a node or link last changed; nullopt for an empty graph.
Result<std::optional<std::int64_t>> LastGraphChange(Connection& db);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_GRAPH_H_
