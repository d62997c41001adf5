// Writing the public graph. A domain change that alters the graph builds a GraphChange and writes
// it inside its own transaction: the node and link rows, and, when anything changed, an outbox
// row carrying the NetworkUpdate that the relay publishes on Redis channel kGraphChannel after
// commit. So the graph, the change behind it and its announcement commit or vanish together.
//
// The announcement is an update message (update_message.h) whose event is a NetworkUpdate:
//   {"nodes": [{"id","type","labels":[...]}], "links": [{"source","target","type"}],
//    "metadata": {"nodeCount", "linkCount", "lastUpdated": <DateTime of the change>}}
// numbered with the outbox id and epoch, and stamped with when it was appended (the transaction's
// last step).
// It lists every node and link the change touched (a claim: the investor, the wallet, the round
// and the links between them), whether or not that particular row was new.
#ifndef NETGRAPH_CORE_DOMAIN_GRAPH_CHANGE_H_
#define NETGRAPH_CORE_DOMAIN_GRAPH_CHANGE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/domain/date_time.h"
#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::domain {

inline constexpr std::string_view kGraphChannel = "netgraph:graph";

struct GraphNode {
  std::string id;
  std::string type;
  std::vector<std::string> labels;
};

struct GraphLink {
  std::string source;
  std::string target;
  std::string type;
};

// The update message announcing one change (update_message.h).
std::string NetworkUpdateJson(std::int64_t sequence, std::string_view epoch,
                              std::int64_t appended_unix_us, const std::vector<GraphNode>& nodes,
                              const std::vector<GraphLink>& links, Timestamp last_updated);

class GraphChange {
 public:
  void AddNode(GraphNode node) { nodes_.push_back(std::move(node)); }
  // Both ends must be nodes of this change or already stored.
  void AddLink(GraphLink link) { links_.push_back(std::move(link)); }
  bool empty() const { return nodes_.empty() && links_.empty(); }

  // Writes the rows in the caller's transaction. Returns the outbox sequence of the announcement,
  // or nullopt when every row already existed as given (nothing to announce).
  Result<std::optional<std::int64_t>> Write(store::Connection& db) const;

 private:
  std::vector<GraphNode> nodes_;
  std::vector<GraphLink> links_;
};

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_GRAPH_CHANGE_H_
