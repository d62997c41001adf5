#include "core/store/outbox.h"

namespace netgraph::store {
namespace {

// Any constant works; it only has to be the same for every relay.
constexpr Statement kTryLockRelay{"outbox_try_lock_relay",
                                  "SELECT pg_try_advisory_xact_lock(7305218764022)"};
constexpr Statement kNextId{"outbox_next_id",
                            "UPDATE outbox_sequence SET last_id = last_id + 1 "
                            "RETURNING epoch, epoch_start, last_id, epoch_us(clock_timestamp())"};
constexpr Statement kHead{"outbox_head",
                          "SELECT epoch, epoch_start, last_id, epoch_us(clock_timestamp()) "
                          "FROM outbox_sequence"};
// One statement, so the epoch and the rows come from the same snapshot; the epoch comes back even
// when no row follows.
constexpr Statement kAfter{"outbox_after",
                           "SELECT s.epoch, s.epoch_start, o.id, o.channel, o.payload "
                           "FROM outbox_sequence s "
                           "LEFT JOIN LATERAL (SELECT id, channel, payload FROM outbox "
                           "WHERE id > $1 ORDER BY id LIMIT $2) o ON true ORDER BY o.id"};
constexpr Statement kPayloadDigest{
    "outbox_payload_digest",
    "SELECT encode(sha256(convert_to(payload, 'UTF8')), 'hex') FROM outbox WHERE id = $1"};
constexpr Statement kStartEpoch{"outbox_start_epoch",
                                "UPDATE outbox_sequence SET epoch = gen_random_uuid()::text, "
                                "epoch_start = $1 RETURNING epoch"};
constexpr Statement kAppend{
    "outbox_append",
    "WITH appended AS (INSERT INTO outbox (id, channel, payload, created_at) "
    "VALUES ($1, $2, $3, to_timestamp($4::bigint / 1000000.0)) RETURNING id) "
    "SELECT pg_notify('netgraph_outbox', id::text) FROM appended"};
constexpr Statement kPending{
    "outbox_pending",
    "SELECT id, channel, payload FROM outbox WHERE published_at IS NULL ORDER BY id LIMIT $1"};
// clock_timestamp(), not now(): the relay has published the rows since its transaction began.
constexpr Statement kMarkPublished{
    "outbox_mark_published",
    "UPDATE outbox SET published_at = clock_timestamp() WHERE id <= $1 AND published_at IS NULL "
    "RETURNING greatest(epoch_us(published_at) - epoch_us(created_at), 0)"};
constexpr Statement kHasPending{"outbox_has_pending",
                                "SELECT EXISTS (SELECT 1 FROM outbox WHERE published_at IS NULL)"};
constexpr Statement kBacklog{"outbox_backlog",
                             "SELECT count(*) FROM outbox WHERE published_at IS NULL"};
constexpr Statement kPrune{"outbox_prune",
                           "DELETE FROM outbox "
                           "WHERE published_at < now() - make_interval(secs => $1::bigint)"};

}  // namespace

namespace {

Result<OutboxPosition> Position(Connection& db, const Statement& statement) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(statement));
  if (rows.empty()) return Status::Internal("outbox: the sequence row is missing");
  return OutboxPosition{std::string(rows.Text(0, 0)), rows.Int(0, 1), rows.Int(0, 2),
                        rows.Int(0, 3)};
}

}  // namespace

Result<OutboxPosition> NextOutboxId(Connection& db) { return Position(db, kNextId); }

Result<OutboxPosition> OutboxHead(Connection& db) { return Position(db, kHead); }

Result<OutboxPage> OutboxAfter(Connection& db, std::int64_t after_id, std::int64_t limit) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows,
                            db.Run(kAfter, {std::to_string(after_id), std::to_string(limit)}));
  if (rows.empty()) return Status::Internal("outbox: the sequence row is missing");
  OutboxPage page;
  page.epoch = std::string(rows.Text(0, 0));
  page.epoch_start = rows.Int(0, 1);
  for (int i = 0; i < rows.size(); ++i) {
    if (rows.IsNull(i, 2)) continue;  // no row after `after_id`
    page.rows.push_back(
        OutboxRow{rows.Int(i, 2), std::string(rows.Text(i, 3)), std::string(rows.Text(i, 4))});
  }
  return page;
}

Result<std::optional<std::string>> OutboxPayloadDigest(Connection& db, std::int64_t id) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kPayloadDigest, {std::to_string(id)}));
  if (rows.empty()) return std::optional<std::string>();
  return std::optional<std::string>(std::string(rows.Text(0, 0)));
}

Result<std::string> StartOutboxEpoch(Connection& db, std::int64_t after_id) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kStartEpoch, {std::to_string(after_id)}));
  if (rows.empty()) return Status::Internal("outbox: the sequence row is missing");
  return std::string(rows.Text(0, 0));
}

Status AppendOutbox(Connection& db, const OutboxPosition& position, std::string_view channel,
                    std::string_view payload) {
  return db.Execute(kAppend, {std::to_string(position.id), std::string(channel),
                              std::string(payload), std::to_string(position.read_unix_us)});
}

Result<bool> TryLockOutboxRelay(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kTryLockRelay));
  return rows.Bool(0, 0);
}

Result<std::vector<OutboxRow>> PendingOutbox(Connection& db, std::int64_t limit) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kPending, {std::to_string(limit)}));
  std::vector<OutboxRow> pending;
  for (int i = 0; i < rows.size(); ++i) {
    pending.push_back(
        OutboxRow{rows.Int(i, 0), std::string(rows.Text(i, 1)), std::string(rows.Text(i, 2))});
  }
  return pending;
}

Result<std::vector<std::chrono::microseconds>> MarkOutboxPublished(Connection& db,
                                                                   std::int64_t up_to_id) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kMarkPublished, {std::to_string(up_to_id)}));
  std::vector<std::chrono::microseconds> lags;
  for (int i = 0; i < rows.size(); ++i) lags.emplace_back(rows.Int(i, 0));
  return lags;
}

Result<bool> OutboxHasPending(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kHasPending));
  return rows.Bool(0, 0);
}

Result<std::int64_t> OutboxBacklog(Connection& db) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kBacklog));
  return rows.Int(0, 0);
}

Result<std::int64_t> PrunePublishedOutbox(Connection& db, std::int64_t age_seconds) {
  NETGRAPH_ASSIGN_OR_RETURN(Rows rows, db.Run(kPrune, {std::to_string(age_seconds)}));
  return rows.affected();
}

}  // namespace netgraph::store
