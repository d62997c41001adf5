// Reading the public network graph (networkGraph) and importing nodes and links (netgraphctl
// graph import).
#ifndef NETGRAPH_CORE_DOMAIN_NETWORK_GRAPH_H_
#define NETGRAPH_CORE_DOMAIN_NETWORK_GRAPH_H_

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/domain/date_time.h"
#include "core/domain/graph_change.h"
#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::domain {

inline constexpr std::int64_t kDefaultGraphLimit = 100;
inline constexpr std::int64_t kMinGraphLimit = 1;
inline constexpr std::int64_t kMaxGraphLimit = 1000;

struct NetworkGraph {
  std::vector<GraphNode> nodes;           // most recently changed first
  std::vector<GraphLink> links;           // those whose both ends are in `nodes`
  std::optional<Timestamp> last_updated;  // the last change of the whole graph; null when empty
};

bool IsValidGraphLimit(std::int64_t limit);

// The `limit` most recently changed nodes and the links among them, from one snapshot. `limit`
// must satisfy IsValidGraphLimit.
Result<NetworkGraph> ReadNetworkGraph(store::Connection& db, std::int64_t limit);

struct ImportSummary {
  std::size_t nodes = 0;
  std::size_t links = 0;
  std::optional<std::int64_t>
      sequence;  // the announcement's outbox sequence, when anything changed
};

// Imports {"nodes":[{"id","type","labels"?}], "links":[{"source","target","type"}]} in one
// transaction, announced like any graph change. Links may name nodes already stored. Ids and
// labels that look like an email ('@') or a DID ("did:") are refused: the graph is public. Errors
// name the first offending entry; nothing is written then.
Result<ImportSummary> ImportGraph(store::Connection& db, std::string_view json);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_NETWORK_GRAPH_H_
