#include "core/store/vouchers.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>

namespace netgraph::store {
namespace {

// The columns ReadVoucher expects, for a table or RETURNING list over `vouchers`.
#define NETGRAPH_VOUCHER_COLUMNS                                                             \
  "id, code, amount, round_id, voucher_state(status, expires_at), user_id, wallet_address, " \
  "epoch_us(expires_at), epoch_us(claimed_at), epoch_us(redeemed_at), redemption_id, batch"

constexpr Statement kInsert{
    "vouchers_insert",
    "INSERT INTO vouchers (code, amount, round_id, expires_at, batch) "
    "VALUES ($1, $2, $3, $4::timestamptz, $5) RETURNING " NETGRAPH_VOUCHER_COLUMNS};
constexpr Statement kFindByCode{
    "vouchers_find_by_code", "SELECT " NETGRAPH_VOUCHER_COLUMNS " FROM vouchers WHERE code = $1"};
// Migration 0010's function, its voucher read with the columns every other statement reads (a
// row of NULLs when it returns none).
constexpr Statement kClaim{
    "claim_voucher",
    "SELECT c.outcome, " NETGRAPH_VOUCHER_COLUMNS
    ", c.round_name, c.round_price, c.round_target, c.decimals, c.wallet_public_id "
    "FROM claim_voucher($1, $2, $3, $4, $5, $6, $7) c "
    "LEFT JOIN LATERAL (SELECT (c.voucher).*) v ON true"};
constexpr Statement kRelease{
    "vouchers_release",
    "UPDATE vouchers SET status = 'AVAILABLE', user_id = NULL, wallet_address = NULL, "
    "claimed_at = NULL WHERE user_id = $1 AND wallet_address = $2 AND status = 'CLAIMED' "
    "RETURNING " NETGRAPH_VOUCHER_COLUMNS};
constexpr Statement kRevoke{"vouchers_revoke",
                            "UPDATE vouchers SET status = 'REVOKED', revoked_at = now() "
                            "WHERE code = $1 AND status IN ('AVAILABLE', 'CLAIMED') "
                            "AND (expires_at IS NULL OR expires_at > now()) "
                            "RETURNING " NETGRAPH_VOUCHER_COLUMNS};
constexpr Statement kExpireDue{"vouchers_expire_due",
                               "UPDATE vouchers SET status = 'EXPIRED' "
                               "WHERE status IN ('AVAILABLE', 'CLAIMED') AND expires_at <= now()"};
constexpr Statement kOfUser{"vouchers_of_user", "SELECT " NETGRAPH_VOUCHER_COLUMNS
                                                " FROM vouchers WHERE user_id = $1 "
                                                "ORDER BY claimed_at DESC, id DESC"};
constexpr Statement kList{
    "vouchers_list",
    "SELECT " NETGRAPH_VOUCHER_COLUMNS
    " FROM vouchers "
    "WHERE id > $2 AND ($1::text IS NULL OR voucher_state(status, expires_at) = $1) "
    "ORDER BY id LIMIT $3"};
constexpr Statement kAvailableInBatch{
    "vouchers_available_in_batch",
    "SELECT " NETGRAPH_VOUCHER_COLUMNS
    " FROM vouchers "
    "WHERE batch = $1 AND voucher_state(status, expires_at) = 'AVAILABLE' ORDER BY id"};

#undef NETGRAPH_VOUCHER_COLUMNS

// How many columns NETGRAPH_VOUCHER_COLUMNS lists: what follows them in a row comes after.
constexpr int kVoucherColumns = 12;

// claim_voucher's outcomes, as migration 0010 spells them.
constexpr std::pair<std::string_view, ClaimOutcome> kClaimOutcomeNames[] = {
    {"too_many_attempts", ClaimOutcome::kTooManyAttempts},
    {"invalid_voucher_code", ClaimOutcome::kInvalidVoucherCode},
    {"invalid_wallet_address", ClaimOutcome::kInvalidWalletAddress},
    {"wallet_proven_by_another_user", ClaimOutcome::kWalletProvenByAnotherUser},
    {"wallet_belongs_to_another_user", ClaimOutcome::kWalletBelongsToAnotherUser},
    {"unclaimable", ClaimOutcome::kUnclaimable},
    {"claimed", ClaimOutcome::kClaimed},
    {"claimed_before", ClaimOutcome::kClaimedBefore},
    {"graph_to_write", ClaimOutcome::kGraphToWrite},
};

constexpr std::string_view kStateNames[] = {"AVAILABLE", "CLAIMED", "REDEEMED", "EXPIRED",
                                            "REVOKED"};

// The voucher in NETGRAPH_VOUCHER_COLUMNS's columns of `row`, from column `first` on.
Result<VoucherRow> ReadVoucher(const Rows& rows, int row, int first = 0) {
  VoucherRow v;
  v.id = rows.Int(row, first);
  v.code = rows.Text(row, first + 1);
  v.amount = rows.Int(row, first + 2);
  v.round_id = rows.Int(row, first + 3);
  const std::string_view status = rows.Text(row, first + 4);
  std::optional<VoucherState> state = ParseVoucherState(status);
  if (!state) {
    return Status::Internal("vouchers: voucher " + std::to_string(v.id) + " has status '" +
                            std::string(status) + "', which is none of the states");
  }
  v.state = *state;
  v.user_id = rows.OptionalInt(row, first + 5);
  v.wallet_address = rows.OptionalText(row, first + 6);
  v.expires_at = rows.OptionalInt(row, first + 7);
  v.claimed_at = rows.OptionalInt(row, first + 8);
  v.redeemed_at = rows.OptionalInt(row, first + 9);
  v.redemption_id = rows.OptionalInt(row, first + 10);
  v.batch = rows.OptionalText(row, first + 11);
  return v;
}

Result<std::vector<VoucherRow>> AllVouchers(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  std::vector<VoucherRow> vouchers;
  vouchers.reserve(static_cast<std::size_t>(rows->size()));
  for (int i = 0; i < rows->size(); ++i) {
    NETGRAPH_ASSIGN_OR_RETURN(VoucherRow voucher, ReadVoucher(*rows, i));
    vouchers.push_back(std::move(voucher));
  }
  return vouchers;
}

Result<std::optional<VoucherRow>> AtMostOneVoucher(Result<Rows> rows) {
  NETGRAPH_RETURN_IF_ERROR(rows);
  if (rows->empty()) return std::optional<VoucherRow>();
  NETGRAPH_ASSIGN_OR_RETURN(VoucherRow voucher, ReadVoucher(*rows, 0));
  return std::optional<VoucherRow>(std::move(voucher));
}

}  // namespace

std::string_view VoucherStateName(VoucherState state) {
  return kStateNames[static_cast<std::size_t>(state)];
}

std::optional<VoucherState> ParseVoucherState(std::string_view name) {
  for (std::size_t i = 0; i < std::size(kStateNames); ++i) {
    if (kStateNames[i] == name) return static_cast<VoucherState>(i);
  }
  return std::nullopt;
}

Result<VoucherRow> InsertVoucher(Connection& db, const NewVoucher& voucher) {
  NETGRAPH_ASSIGN_OR_RETURN(
      std::optional<VoucherRow> row,
      AtMostOneVoucher(
          db.Run(kInsert, {voucher.code, std::to_string(voucher.amount),
                           std::to_string(voucher.round_id), voucher.expires_at, voucher.batch})));
  if (!row.has_value()) return Status::Internal("vouchers: insert returned no row");
  return *row;
}

Result<std::optional<VoucherRow>> FindVoucherByCode(Connection& db, std::string_view code) {
  return AtMostOneVoucher(db.Run(kFindByCode, {std::string(code)}));
}

Result<ClaimResult> ClaimVoucherInOneStatement(Connection& db, const ClaimRequest& request) {
  const std::vector<Param> params = {std::to_string(request.user_id),
                                     request.user_public_id,
                                     request.code,
                                     request.wallet,
                                     std::to_string(request.window_seconds),
                                     std::to_string(request.max_failures),
                                     std::string(request.graph_by_caller ? "true" : "false")};
  // Inside the caller's transaction a lost race is the caller's to retry.
  const int attempts = db.in_transaction() ? 1 : 5;
  Result<Rows> rows = db.Run(kClaim, params);
  for (int attempt = 1; attempt < attempts && !rows.ok() && rows.status().IsAborted(); ++attempt) {
    rows = db.Run(kClaim, params);
  }
  NETGRAPH_RETURN_IF_ERROR(rows);
  if (rows->size() != 1) return Status::Internal("vouchers: claim_voucher returned no row");
  const std::string_view name = rows->Text(0, 0);
  const auto outcome = std::find_if(std::begin(kClaimOutcomeNames), std::end(kClaimOutcomeNames),
                                    [&](const auto& entry) { return entry.first == name; });
  if (outcome == std::end(kClaimOutcomeNames)) {
    return Status::Internal("vouchers: claim_voucher answered '" + std::string(name) + "'");
  }
  ClaimResult result;
  result.outcome = outcome->second;
  if (!rows->IsNull(0, 1)) {
    NETGRAPH_ASSIGN_OR_RETURN(VoucherRow voucher, ReadVoucher(*rows, 0, 1));
    result.voucher = std::move(voucher);
  }
  constexpr int kAfterVoucher = 1 + kVoucherColumns;
  if (result.voucher) {
    result.round = RoundRow{result.voucher->round_id, std::string(rows->Text(0, kAfterVoucher)),
                            rows->Float(0, kAfterVoucher + 1), rows->Float(0, kAfterVoucher + 2)};
  }
  result.decimals = static_cast<int>(rows->Int(0, kAfterVoucher + 3));
  result.wallet_public_id = rows->Text(0, kAfterVoucher + 4);
  const bool claimed =
      result.outcome == ClaimOutcome::kClaimed || result.outcome == ClaimOutcome::kClaimedBefore;
  if (claimed && (!result.voucher || rows->IsNull(0, kAfterVoucher + 3))) {
    return Status::Internal("vouchers: claim_voucher claimed without the voucher or the decimals");
  }
  if (result.outcome == ClaimOutcome::kClaimed && rows->IsNull(0, kAfterVoucher)) {
    return Status::Internal("vouchers: the claimed voucher's round is missing");
  }
  return result;
}

Result<std::vector<VoucherRow>> ReleaseClaimedVouchers(Connection& db, std::int64_t user_id,
                                                       std::string_view wallet_address) {
  return AllVouchers(db.Run(kRelease, {std::to_string(user_id), std::string(wallet_address)}));
}

Result<std::optional<VoucherRow>> MarkVoucherRevoked(Connection& db, std::string_view code) {
  return AtMostOneVoucher(db.Run(kRevoke, {std::string(code)}));
}

Result<std::int64_t> MarkDueVouchersExpired(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kExpireDue));
  return rows.affected();
}

Result<std::vector<VoucherRow>> UserVouchers(Connection& db, std::int64_t user_id) {
  return AllVouchers(db.Run(kOfUser, {std::to_string(user_id)}));
}

Result<std::vector<VoucherRow>> VoucherPage(Connection& db, std::optional<VoucherState> state,
                                            std::int64_t after_id, std::int64_t limit) {
  Param status;
  if (state) status = std::string(VoucherStateName(*state));
  return AllVouchers(db.Run(kList, {status, std::to_string(after_id), std::to_string(limit)}));
}

Result<std::vector<VoucherRow>> AvailableVouchersInBatch(Connection& db, std::string_view batch) {
  return AllVouchers(db.Run(kAvailableInBatch, {std::string(batch)}));
}

}  // namespace netgraph::store
