#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/domain/graph_change.h"

namespace netgraph::domain {
namespace {

TEST(NetworkUpdate, CarriesTheSequenceItsEpochItsAppendTimeTheChangeAndItsTime) {
  const std::string text = NetworkUpdateJson(
      7, "3f1c0e2a-epoch", 1795253401250000,
      {GraphNode{"investor-1", "Investor", {"Investor"}}, GraphNode{"wallet-1", "Wallet", {}}},
      {GraphLink{"investor-1", "wallet-1", "OWNS"}}, FromEpochMicros(1795253400LL * 1000000));
  const nlohmann::json update = nlohmann::json::parse(text);
  EXPECT_EQ(update, nlohmann::json::parse(R"({
    "sequence": 7,
    "epoch": "3f1c0e2a-epoch",
    "appendedAt": 1795253401250000,
    "nodes": [{"id": "investor-1", "type": "Investor", "labels": ["Investor"]},
              {"id": "wallet-1", "type": "Wallet", "labels": []}],
    "links": [{"source": "investor-1", "target": "wallet-1", "type": "OWNS"}],
    "metadata": {"nodeCount": 2, "linkCount": 1, "lastUpdated": "2026-11-21T09:30:00.000Z"}
  })"));
  // The sequence leads, so a subscriber can check for gaps before reading the rest.
  EXPECT_EQ(text.rfind("{\"sequence\":7,", 0), 0u);
}

}  // namespace
}  // namespace netgraph::domain
