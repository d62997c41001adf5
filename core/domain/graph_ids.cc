#include "core/domain/internal/graph_ids.h"

namespace netgraph::domain {

std::string RoundNodeId(std::int64_t round_id) { return "round-" + std::to_string(round_id); }

GraphNode InvestorNode(std::string_view public_id) {
  return GraphNode{std::string(public_id), "Investor", {"Investor"}};
}

GraphNode WalletNode(std::string_view public_id, bool confidential) {
  GraphNode node{std::string(public_id), "Wallet", {"Wallet"}};
  if (confidential) node.labels.emplace_back("Confidential");
  return node;
}

GraphNode RoundNode(const store::RoundRow& round) {
  return GraphNode{RoundNodeId(round.id), "Round", {"Round", round.name}};
}

GraphNode TokenNode(const store::TokenRow& token) {
  return GraphNode{kTokenNodeId, "Token", {"Token", token.name, token.symbol}};
}

}  // namespace netgraph::domain
