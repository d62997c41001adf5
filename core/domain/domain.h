// netgraph's domain folder: the rules of the token network, between the API's resolvers and the
// store. Resolvers and netgraphctl call these functions; these functions call core/store (which
// holds all SQL) and core/crypto.
//
// Contract of the folder:
//  - Operations a user can be refused return Outcome<T> (failure.h): a value, a Failure with its
//    stable text (design §4), or an internal error. Other operations return Result<T>.
//  - Each operation that writes runs in its own transaction at the isolation it needs; a refusal
//    writes nothing (except the failed-claim record behind the rate limit).
//  - Every change to the public graph is written with the change behind it plus an outbox row, in
//    one transaction (graph_change.h); the outbox relay publishes it on Redis after commit.
//  - The public graph holds opaque ids only: never an email, a DID or a wallet address.
//
// Pieces:
//   failure.h              refusals, their texts, Outcome<T>
//   user.h                 users on first sight of a token, admin grants
//   internal/voucher_code.h    voucher codes: generation, normalisation, display
//   internal/amount.h          token units <-> base units, the 2^32 balance limit
//   date_time.h            the DateTime scalar's text
//   internal/wallet_address.h  base58 Solana addresses
//   voucher.h              the Voucher view, claimVoucher and its rate limit
//   redemption.h           redeemVoucher
//   confidential_ledger.h  the confidential side of a redemption (interface)
//   token2022_ledger.h     its implementation with core/crypto
//   voucher_admin.h        issuing, listing, revoking, expiring vouchers
//   portfolio.h            getUserPortfolio, investmentData
//   network_graph.h        networkGraph, graph import
//   graph_change.h         writing graph changes and their NetworkUpdate announcements
//   internal/graph_ids.h       the node and link shapes domain changes write
//   outbox_relay.h         publishing the outbox on Redis
//   demo_seed.h            demo data for development stacks
#ifndef NETGRAPH_CORE_DOMAIN_DOMAIN_H_
#define NETGRAPH_CORE_DOMAIN_DOMAIN_H_

#include "core/domain/confidential_ledger.h"
#include "core/domain/date_time.h"
#include "core/domain/demo_seed.h"
#include "core/domain/failure.h"
#include "core/domain/graph_change.h"
#include "core/domain/internal/amount.h"
#include "core/domain/internal/graph_ids.h"
#include "core/domain/internal/voucher_code.h"
#include "core/domain/internal/wallet_address.h"
#include "core/domain/network_graph.h"
#include "core/domain/outbox_relay.h"
#include "core/domain/portfolio.h"
#include "core/domain/redemption.h"
#include "core/domain/token2022_ledger.h"
#include "core/domain/user.h"
#include "core/domain/voucher.h"
#include "core/domain/voucher_admin.h"

#endif  // NETGRAPH_CORE_DOMAIN_DOMAIN_H_
