// The vouchers table. Every read reports the state readers must see (voucher_state: an AVAILABLE
// or CLAIMED voucher past its expires_at reads EXPIRED; a status the database holds that is none
// of VoucherState's is an Internal error), and every transition is one conditional
// UPDATE ... WHERE <current state> RETURNING, never a read followed by a write, so concurrent
// transitions of one voucher cannot both succeed.
#ifndef NETGRAPH_CORE_STORE_VOUCHERS_H_
#define NETGRAPH_CORE_STORE_VOUCHERS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "core/store/connection.h"
#include "core/store/token.h"

namespace netgraph::store {

// A voucher's state, as readers see it. The database keeps it as text (vouchers.status, read
// through voucher_state); it is parsed here, once, and nothing above compares the text.
enum class VoucherState { kAvailable, kClaimed, kRedeemed, kExpired, kRevoked };

// "AVAILABLE", "CLAIMED", "REDEEMED", "EXPIRED", "REVOKED": as the database and the API spell it.
std::string_view VoucherStateName(VoucherState state);
// The state `name` spells (exactly as VoucherStateName writes it); nullopt for anything else.
std::optional<VoucherState> ParseVoucherState(std::string_view name);

struct VoucherRow {
  std::int64_t id = 0;
  std::string code;         // normalised
  std::int64_t amount = 0;  // base units
  std::int64_t round_id = 0;
  VoucherState state = VoucherState::kAvailable;  // as readers see it
  std::optional<std::int64_t> user_id;
  std::optional<std::string> wallet_address;
  // Instants in microseconds since the Unix epoch.
  std::optional<std::int64_t> expires_at;
  std::optional<std::int64_t> claimed_at;
  std::optional<std::int64_t> redeemed_at;
  std::optional<std::int64_t> redemption_id;
  std::optional<std::string> batch;
};

struct NewVoucher {
  std::string code;  // normalised
  std::int64_t amount = 0;
  std::int64_t round_id = 0;
  std::optional<std::string> expires_at;  // anything PostgreSQL reads as a timestamptz
  std::optional<std::string> batch;
};

Result<VoucherRow> InsertVoucher(Connection& db, const NewVoucher& voucher);

Result<std::optional<VoucherRow>> FindVoucherByCode(Connection& db, std::string_view code);

// A claim, as core/domain/voucher.cc's ClaimVoucher asks for it: one call of migration 0010's
// claim_voucher, which runs the claim's whole transaction (the claimant's lock and the count of
// their recent failures, the wallet, the voucher, the graph check) in PostgreSQL.
struct ClaimRequest {
  std::int64_t user_id = 0;
  std::string user_public_id;         // the investor's node id in the public graph
  std::optional<std::string> code;    // normalised; nullopt when the caller found it invalid
  std::optional<std::string> wallet;  // nullopt when the caller found it invalid
  std::int64_t window_seconds = 0;    // the rate limit: at most max_failures failed claims in it
  std::int64_t max_failures = 0;
  // Whether the caller writes the graph's change in its own transaction: then a claim that changes
  // the graph returns kClaimed; otherwise kGraphToWrite, having changed nothing.
  bool graph_by_caller = false;
};

// What the claim did. Every refusal (from kInvalidVoucherCode to kUnclaimable) undid the attempt's
// writes and counted against the rate limit; kTooManyAttempts and kGraphToWrite changed nothing.
enum class ClaimOutcome {
  kTooManyAttempts,
  kInvalidVoucherCode,
  kInvalidWalletAddress,
  kWalletProvenByAnotherUser,
  kWalletBelongsToAnotherUser,
  kUnclaimable,    // `voucher` is the code's voucher, nullopt when none has it
  kClaimed,        // `voucher` claimed now; `round`, `decimals`, `wallet_public_id` set
  kClaimedBefore,  // the same claim made before: `voucher` and `decimals` set
  kGraphToWrite,   // claimable, but the graph must change: claim again with graph_by_caller
};

struct ClaimResult {
  ClaimOutcome outcome = ClaimOutcome::kUnclaimable;
  std::optional<VoucherRow> voucher;
  RoundRow round;
  int decimals = 2;
  std::string wallet_public_id;
};

// One statement. Outside a transaction it is a transaction of its own, run again when it loses a
// serialization race or a deadlock (as Connection::InTransaction runs a transaction); inside one
// (graph_by_caller), the caller's.
Result<ClaimResult> ClaimVoucherInOneStatement(Connection& db, const ClaimRequest& request);

// CLAIMED vouchers of `user_id` on `wallet_address` -> AVAILABLE again, unbound (expired ones
// still read EXPIRED): what a wallet takeover does to the previous owner's open claims. Returns
// the vouchers released.
Result<std::vector<VoucherRow>> ReleaseClaimedVouchers(Connection& db, std::int64_t user_id,
                                                       std::string_view wallet_address);

// AVAILABLE|CLAIMED (and not expired) -> REVOKED. Nullopt when no such voucher is revocable.
Result<std::optional<VoucherRow>> MarkVoucherRevoked(Connection& db, std::string_view code);

// Stores EXPIRED on every AVAILABLE|CLAIMED voucher past its expiry; returns how many.
Result<std::int64_t> MarkDueVouchersExpired(Connection& db);

// The user's vouchers, newest claim first.
Result<std::vector<VoucherRow>> UserVouchers(Connection& db, std::int64_t user_id);

// Keyset page: vouchers with id > `after_id` (and, when given, in `state`), by id, at most `limit`.
Result<std::vector<VoucherRow>> VoucherPage(Connection& db, std::optional<VoucherState> state,
                                            std::int64_t after_id, std::int64_t limit);

// AVAILABLE vouchers of a batch, by id.
Result<std::vector<VoucherRow>> AvailableVouchersInBatch(Connection& db, std::string_view batch);

}  // namespace netgraph::store

#endif  // NETGRAPH_CORE_STORE_VOUCHERS_H_
