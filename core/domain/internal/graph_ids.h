// The shapes of the nodes and links domain changes put into the public graph. Ids are opaque:
// investors and wallets appear under random public ids (never a DID, an email or an address).
//
//   Investor (id: the user's public id)  --OWNS-->        Wallet (the wallet's public id)
//   Wallet                               --INVESTED_IN--> Round  ("round-<id>", label: its name)
//   Wallet (label Confidential once it holds a confidential balance) --HOLDS--> Token ("token")
//   Round                                --ROUND_OF-->    Token
#ifndef NETGRAPH_CORE_DOMAIN_INTERNAL_GRAPH_IDS_H_
#define NETGRAPH_CORE_DOMAIN_INTERNAL_GRAPH_IDS_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "core/domain/graph_change.h"
#include "core/store/token.h"

namespace netgraph::domain {

inline constexpr const char* kOwnsLink = "OWNS";
inline constexpr const char* kInvestedInLink = "INVESTED_IN";
inline constexpr const char* kHoldsLink = "HOLDS";
inline constexpr const char* kRoundOfLink = "ROUND_OF";
inline constexpr const char* kTokenNodeId = "token";

std::string RoundNodeId(std::int64_t round_id);

GraphNode InvestorNode(std::string_view public_id);
GraphNode WalletNode(std::string_view public_id, bool confidential);
GraphNode RoundNode(const store::RoundRow& round);
GraphNode TokenNode(const store::TokenRow& token);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_INTERNAL_GRAPH_IDS_H_
