// The public graph and what reading it costs (core/domain/network_graph.h).
#include "tests/database/domain/domain_store_test.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <thread>
#include <vector>

#include "core/domain/network_graph.h"
#include "core/domain/portfolio.h"
#include "core/store/graph.h"

namespace netgraph::domain {
namespace {

TEST_F(DomainStoreTest, NetworkGraphReturnsTheNewestNodesAndTheLinksAmongThem) {
  Result<ImportSummary> imported = ImportGraph(*db_, R"({
    "nodes": [{"id": "a", "type": "Hub", "labels": ["A"]}, {"id": "b", "type": "Hub"},
              {"id": "c", "type": "Hub"}],
    "links": [{"source": "a", "target": "b", "type": "LINK"}, {"source": "b", "target": "c",
               "type": "LINK"}]})");
  ASSERT_TRUE(imported.ok()) << imported.status().message();
  EXPECT_EQ(imported->sequence, 1);
  // A later change makes "b" and "c" the newest nodes.
  ASSERT_TRUE(ImportGraph(*db_, R"({"nodes": [{"id": "b", "type": "Hub", "labels": ["B"]},
                                              {"id": "c", "type": "Hub", "labels": ["new"]}]})")
                  .ok());

  Result<NetworkGraph> two = ReadNetworkGraph(*db_, 2);
  ASSERT_TRUE(two.ok());
  ASSERT_EQ(two->nodes.size(), 2u);
  EXPECT_EQ(two->nodes[0].id, "b");
  EXPECT_EQ(two->nodes[1].id, "c");
  EXPECT_EQ(two->nodes[1].labels, std::vector<std::string>{"new"});
  ASSERT_EQ(two->links.size(), 1u) << "only links with both ends returned";
  EXPECT_EQ(two->links[0].source, "b");
  EXPECT_TRUE(two->last_updated.has_value());
  Result<NetworkGraph> all = ReadNetworkGraph(*db_, 1000);
  EXPECT_EQ(all->nodes.size(), 3u);
  EXPECT_EQ(all->links.size(), 2u);

  // A file the import refuses is the caller's mistake: InvalidArgument.
  EXPECT_TRUE(ImportGraph(*db_, R"({"nodes": [{"id": "did:privy:x", "type": "T"}]})")
                  .status()
                  .IsInvalidArgument());
  EXPECT_TRUE(ImportGraph(*db_, R"({"nodes": [{"id": "x", "type": "T", "labels": ["a@b.c"]}]})")
                  .status()
                  .IsInvalidArgument());
  EXPECT_FALSE(
      ImportGraph(*db_, R"({"links": [{"source": "a", "target": "zz", "type": "L"}]})").ok())
      << "a link to an unknown node";
  EXPECT_TRUE(ImportGraph(*db_, "[1, 2]").status().IsInvalidArgument());
  EXPECT_EQ(ReadNetworkGraph(*db_, 1000)->nodes.size(), 3u) << "failed imports wrote nothing";
}

// Rows this backend has read from `table` by sequential scans and through indexes and not yet
// reported to the statistics collector. Since PostgreSQL 15 pg_stat_xact_user_tables shows a
// backend's pending counts, which hold earlier transactions' reads until the backend flushes them
// (at most once a second, and only between transactions): a test takes the difference of two
// readings inside one transaction, where no flush can come between them.
constexpr store::Statement kRowsRead{"test_rows_read",
                                     "SELECT COALESCE(seq_tup_read, 0), COALESCE(idx_tup_fetch, 0) "
                                     "FROM pg_stat_xact_user_tables WHERE relname = $1"};

struct RowsRead {
  std::int64_t sequential = 0;
  std::int64_t by_index = 0;

  RowsRead operator-(const RowsRead& earlier) const {
    return RowsRead{sequential - earlier.sequential, by_index - earlier.by_index};
  }
};

RowsRead RowsReadFrom(store::Connection& db, const std::string& table) {
  Result<store::Rows> rows = db.Run(kRowsRead, {table});
  EXPECT_TRUE(rows.ok() && rows->size() == 1) << table;
  if (!rows.ok() || rows->empty()) return {};
  return RowsRead{rows->Int(0, 0), rows->Int(0, 1)};
}

// Issue 11: the public reads cost what their answer holds, not what the database holds.
TEST_F(DomainStoreTest, PublicReadsReadRowsInProportionToTheAnswerNotToTheData) {
  // 20,000 nodes and 40,000 links (each node to the next two), and 20,000 vouchers of which
  // 5,000 are claimed by 100 investors, with statistics the planner sees.
  ASSERT_TRUE(db_->ExecuteScript(R"(
    INSERT INTO graph_nodes (id, type, changed_at)
      SELECT 'n' || i, 'Bulk', now() - i * interval '1 second' FROM generate_series(1, 20000) i;
    INSERT INTO graph_links (source, target, type)
      SELECT 'n' || i, 'n' || (1 + (i + d - 1) % 20000), 'NEXT'
      FROM generate_series(1, 20000) i, generate_series(1, 2) d;
    INSERT INTO users (idp_did) SELECT 'did:bulk:' || i FROM generate_series(1, 100) i;
    INSERT INTO wallets (address, user_id)
      SELECT '1111111111111111111111111111111' || translate(id::text, '0', 'z'), id
      FROM users WHERE idp_did LIKE 'did:bulk:%';
    INSERT INTO vouchers (code, amount, round_id)
      SELECT lpad(upper(to_hex(i)), 20, '0'), 100, (SELECT max(id) FROM rounds)
      FROM generate_series(1, 20000) i;
    UPDATE vouchers v SET status = 'CLAIMED', user_id = w.user_id, wallet_address = w.address,
                          claimed_at = now()
      FROM wallets w WHERE v.id % 4 = 0 AND w.user_id = (SELECT min(id) FROM users) + v.id / 4 % 100;
    ANALYZE)")
                  .ok());
  Status read = db_->InTransaction(store::Isolation::kRepeatableRead, [&]() -> Status {
    const RowsRead links_before = RowsReadFrom(*db_, "graph_links");
    const RowsRead nodes_before = RowsReadFrom(*db_, "graph_nodes");
    const RowsRead vouchers_before = RowsReadFrom(*db_, "vouchers");
    // networkGraph's statements (ReadNetworkGraph runs them in a transaction of its own).
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::NodeRow> nodes, store::RecentNodes(*db_, 100));
    NETGRAPH_ASSIGN_OR_RETURN(std::vector<store::LinkRow> links,
                              store::LinksAmongRecentNodes(*db_, 100));
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<std::int64_t> last, store::LastGraphChange(*db_));
    EXPECT_EQ(nodes.size(), 100u);
    EXPECT_EQ(links.size(), 197u) << "n1..n100, each linked to the next two";
    EXPECT_TRUE(last.has_value());
    const RowsRead links_read = RowsReadFrom(*db_, "graph_links") - links_before;
    EXPECT_EQ(links_read.sequential, 0) << "no scan of every link";
    EXPECT_LE(links_read.by_index, 2 * 100 + 2) << "the 100 nodes' outgoing links, and the newest";
    const RowsRead nodes_read = RowsReadFrom(*db_, "graph_nodes") - nodes_before;
    EXPECT_EQ(nodes_read.sequential, 0);
    EXPECT_LE(nodes_read.by_index, 2 * (100 + 1));

    NETGRAPH_ASSIGN_OR_RETURN(store::InvestmentFigures figures, store::ReadInvestmentFigures(*db_));
    EXPECT_EQ(figures.investor_count, 100);
    const RowsRead vouchers = RowsReadFrom(*db_, "vouchers") - vouchers_before;
    EXPECT_EQ(vouchers.sequential, 0) << "no scan of every voucher";
    EXPECT_LE(vouchers.by_index, 10) << "only the overdue claims, of which there are none";
    return Status::Ok();
  });
  ASSERT_TRUE(read.ok()) << read.message();
}

// Test-only statements of the graph tests below.
constexpr store::Statement kLockNodeNoWait{
    "test_lock_node_nowait", "SELECT id FROM graph_nodes WHERE id = $1 FOR UPDATE NOWAIT"};
constexpr store::Statement kNodeLabels{
    "test_node_labels", "SELECT to_json(labels)::text FROM graph_nodes WHERE id = $1"};
constexpr store::Statement kInsertNode{
    "test_insert_node", "INSERT INTO graph_nodes (id, type, labels) VALUES ($1, 'T', ARRAY[$2])"};

TEST_F(DomainStoreTest, AGraphChangeLocksNoNodeItLeavesUnchanged) {
  // Every claim names its round's node: a claim holding it until its commit would queue all others.
  User alice = NewUser("did:privy:alice");
  ASSERT_TRUE(Claim(alice, Issue(), RandomWallet()).ok());
  Result<std::optional<store::RoundRow>> round = store::CurrentRound(*db_);
  ASSERT_TRUE(round.ok() && round->has_value());
  const std::string round_node = "round-" + std::to_string((*round)->id);

  const std::vector<store::NodeRow> same = {{round_node, "Round", {"Round", "Seed"}, 0}};
  Status held = db_->InTransaction(store::Isolation::kReadCommitted, [&]() -> Status {
    NETGRAPH_ASSIGN_OR_RETURN(std::optional<std::int64_t> changed,
                              store::WriteGraph(*db_, same, {}));
    EXPECT_FALSE(changed.has_value()) << "the node was already as given";
    store::Connection other(url_);
    Result<store::Rows> locked = other.Run(kLockNodeNoWait, {round_node});
    EXPECT_TRUE(locked.ok()) << "another transaction can lock the node: "
                             << locked.status().message();
    return Status::Ok();
  });
  ASSERT_TRUE(held.ok()) << held.message();
}

TEST_F(DomainStoreTest, AGraphChangeRacingAnInsertOfItsNodeStillAppliesItsLabels) {
  // A inserts node x and has not committed; B's change of x waits for A, and must then update
  // the row A committed, which B's snapshot did not see.
  store::Connection a(url_);
  ASSERT_TRUE(a.ExecuteScript("BEGIN").ok());
  ASSERT_TRUE(a.Execute(kInsertNode, {"x", "from-a"}).ok());
  Result<std::optional<std::int64_t>> b_changed = Status::Internal("not run");
  std::thread b([&] {
    store::Connection db(url_);
    b_changed = store::WriteGraph(db, {{"x", "T", {"from-b"}, 0}}, {});
  });
  EXPECT_TRUE(AwaitALockWaiter()) << "B waits for A's row";
  ASSERT_TRUE(a.ExecuteScript("COMMIT").ok());
  b.join();
  ASSERT_TRUE(b_changed.ok()) << b_changed.status().message();
  EXPECT_TRUE(b_changed->has_value()) << "B changed the node's labels";
  Result<store::Rows> labels = db_->Run(kNodeLabels, {"x"});
  ASSERT_TRUE(labels.ok() && !labels->empty());
  EXPECT_EQ(labels->Text(0, 0), R"(["from-b"])");
}

TEST_F(DomainStoreTest, AGraphChangeNamingANodeTwiceWritesItsLastForm) {
  Result<std::optional<std::int64_t>> changed = store::WriteGraph(
      *db_, {{"y", "T", {"first"}, 0}, {"z", "T", {}, 0}, {"y", "T", {"last"}, 0}},
      {{"y", "z", "L", 0}, {"y", "z", "L", 0}});
  ASSERT_TRUE(changed.ok()) << changed.status().message();
  EXPECT_TRUE(changed->has_value());
  Result<store::Rows> labels = db_->Run(kNodeLabels, {"y"});
  ASSERT_TRUE(labels.ok() && !labels->empty());
  EXPECT_EQ(labels->Text(0, 0), R"(["last"])");
  Result<std::optional<std::int64_t>> again =
      store::WriteGraph(*db_, {{"y", "T", {"last"}, 0}}, {{"y", "z", "L", 0}});
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->has_value()) << "nothing differs";
}

// A change is skipped only when the graph holds every one of its rows exactly as given
// (core/store/graph.cc, graph_holds): each near miss below is written.
TEST_F(DomainStoreTest, AGraphChangeDifferingInAnyOneRowIsWritten) {
  const std::vector<store::NodeRow> stored = {{"p", "T", {"a", "b"}, 0}, {"q", "T", {}, 0}};
  const std::vector<store::LinkRow> link = {{"p", "q", "L", 0}};
  ASSERT_TRUE(store::WriteGraph(*db_, stored, link).ok());
  const auto written = [&](const std::vector<store::NodeRow>& nodes,
                           const std::vector<store::LinkRow>& links) {
    Result<std::optional<std::int64_t>> changed = store::WriteGraph(*db_, nodes, links);
    EXPECT_TRUE(changed.ok()) << changed.status().message();
    return changed.ok() && changed->has_value();
  };
  EXPECT_FALSE(written(stored, link)) << "the graph holds it all";
  EXPECT_FALSE(written({{"q", "T", {}, 0}}, {})) << "a part of what the graph holds";
  EXPECT_FALSE(written({stored[0], stored[0]}, {link[0], link[0]})) << "rows named twice alike";

  EXPECT_TRUE(written({{"p", "T", {"a", "b"}, 0}, {"q", "T", {}, 0}}, {{"q", "p", "L", 0}}))
      << "a new link between stored nodes";
  EXPECT_TRUE(written({{"p", "T", {"b", "a"}, 0}}, {})) << "labels in another order";
  Result<store::Rows> labels = db_->Run(kNodeLabels, {"p"});
  ASSERT_TRUE(labels.ok() && !labels->empty());
  EXPECT_EQ(labels->Text(0, 0), R"(["b","a"])");
  EXPECT_TRUE(written({{"p", "T", {"b"}, 0}}, {})) << "a label fewer";
  EXPECT_TRUE(written({{"p", "U", {"b"}, 0}}, {})) << "another type";
  EXPECT_TRUE(written({{"q", "T", {}, 0}, {"q", "T", {"x"}, 0}}, {}))
      << "named twice, the graph holding the first form";
  labels = db_->Run(kNodeLabels, {"q"});
  ASSERT_TRUE(labels.ok() && !labels->empty());
  EXPECT_EQ(labels->Text(0, 0), R"(["x"])") << "the last form is stored";
  EXPECT_TRUE(written({{"r", "T", {}, 0}}, {})) << "a new node";
}

}  // namespace
}  // namespace netgraph::domain
