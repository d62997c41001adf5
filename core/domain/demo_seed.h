// Demo data for development stacks (`netgraphctl seed --demo`, run by `scripts/stack up`). Running
// it again changes nothing that is already there: it tops up what is missing.
//
// It leaves: the token; a closed "Pre-Seed" round and an open "Seed" round; graph nodes for the
// token, the rounds, a treasury and a liquidity pool; a demo investor (kDemoInvestorDid) with one
// voucher claimed to kDemoInvestorWallet; an administrator (kDemoAdminDid); and kDemoVoucherCount
// AVAILABLE vouchers of batch "demo".
#ifndef NETGRAPH_CORE_DOMAIN_DEMO_SEED_H_
#define NETGRAPH_CORE_DOMAIN_DEMO_SEED_H_

#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"

namespace netgraph::domain {

inline constexpr std::string_view kDemoInvestorDid = "did:netgraph:demo-investor";
inline constexpr std::string_view kDemoInvestorEmail = "investor@example.com";
inline constexpr std::string_view kDemoAdminDid = "did:netgraph:demo-admin";
inline constexpr std::string_view kDemoInvestorWallet =
    "HpYod2BktndMTZPWPm3rFhCRVpoBK8LZMUbifDg8qUqp";
inline constexpr int kDemoVoucherCount = 5;

struct DemoSeed {
  std::vector<std::string> available_codes;  // display form
};

Result<DemoSeed> SeedDemo(store::Connection& db);

}  // namespace netgraph::domain

#endif  // NETGRAPH_CORE_DOMAIN_DEMO_SEED_H_
