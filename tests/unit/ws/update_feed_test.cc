// The feed's ordering and catch-up rules, with an outbox kept in memory.
#include "ws/update_feed.h"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace netgraph::ws {
namespace {

constexpr std::size_t kLimit = 256 * 1024;
constexpr const char* kChannel = "netgraph:graph";

// An outbox in memory: rows by id, the current epoch and where it starts; it can be made to fail.
// Rows keep the epoch they were appended in, as the real ones do.
class FakeOutbox : public OutboxReader {
 public:
  void Append(std::int64_t id) {
    rows[id] = R"({"sequence":)" + std::to_string(id) + R"(,"epoch":")" + epoch + R"(","n":)" +
               std::to_string(id) + "}";
    last = id;
  }
  Result<store::OutboxPosition> Head() override {
    ++heads;
    if (down) return Status::Unavailable("PostgreSQL is down");
    return store::OutboxPosition{epoch, epoch_start, last};
  }
  Result<store::OutboxPage> After(std::int64_t after_id, std::int64_t limit) override {
    ++reads;
    if (down) return Status::Unavailable("PostgreSQL is down");
    store::OutboxPage page{epoch, epoch_start, {}};
    for (auto row = rows.upper_bound(after_id);
         row != rows.end() && static_cast<std::int64_t>(page.rows.size()) < limit; ++row) {
      page.rows.push_back(store::OutboxRow{row->first, kChannel, row->second});
    }
    return page;
  }

  std::string epoch = "epoch-1";
  std::int64_t epoch_start = 0;
  std::map<std::int64_t, std::string> rows;
  std::int64_t last = 0;
  bool down = false;
  int reads = 0;
  int heads = 0;
};

class UpdateFeedTest : public ::testing::Test {
 protected:
  // What Redis brings: the message the relay publishes for outbox row `id`.
  domain::UpdateMessage Message(std::int64_t id) {
    return *domain::UpdateMessage::Parse(outbox_.rows.at(id), kLimit);
  }
  // The database is dropped and migrated again: no rows, ids from 1, a new epoch.
  void ResetDatabase() {
    outbox_.rows.clear();
    outbox_.epoch = "epoch-2";
  }
  std::vector<std::int64_t> Numbers() const {
    std::vector<std::int64_t> numbers;
    for (const UpdateStamp& stamp : delivered_) numbers.push_back(*stamp.publisher_sequence);
    return numbers;
  }

  FakeOutbox outbox_;
  std::vector<UpdateStamp> delivered_;
  std::chrono::steady_clock::time_point now_{};
  UpdateFeed feed_{outbox_,
                   [this](std::string_view channel, const domain::UpdateMessage& update,
                          const UpdateStamp& stamp) {
                     EXPECT_EQ(channel, kChannel);
                     EXPECT_EQ(update.event["n"], *stamp.publisher_sequence);
                     delivered_.push_back(stamp);
                   },
                   kLimit, [this] { return now_; }};
};

TEST_F(UpdateFeedTest, TheFirstSubscriptionFollowsFromWhereTheOutboxStands) {
  outbox_.Append(1);
  outbox_.Append(2);
  feed_.OnSubscribed();
  EXPECT_TRUE(delivered_.empty()) << "what came before the process is not replayed";
  outbox_.Append(3);
  feed_.OnMessage(kChannel, Message(3));
  feed_.OnMessage(kChannel, Message(2));  // the relay published the batch again
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{3}));
  EXPECT_EQ(delivered_[0].sequence, 1);
}

TEST_F(UpdateFeedTest, ASubscriptionRegainedReadsWhatWasMissedThenDropsTheRepeats) {
  outbox_.Append(1);
  feed_.OnSubscribed();
  outbox_.Append(2);
  feed_.OnMessage(kChannel, Message(2));
  // Redis goes away; 3, 4, 5 commit meanwhile; the subscription comes back.
  for (std::int64_t id : {3, 4, 5}) outbox_.Append(id);
  feed_.OnSubscribed();
  // The relay publishes them once Redis is back: each was delivered already.
  for (std::int64_t id : {3, 4, 5}) feed_.OnMessage(kChannel, Message(id));
  outbox_.Append(6);
  feed_.OnMessage(kChannel, Message(6));
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{2, 3, 4, 5, 6}));
  for (std::size_t i = 0; i < delivered_.size(); ++i) {
    EXPECT_EQ(delivered_[i].sequence, static_cast<std::int64_t>(i) + 1) << "nothing was lost";
  }
}

TEST_F(UpdateFeedTest, AGapInTheMessagesIsFilledFromTheOutboxFirst) {
  feed_.OnSubscribed();
  for (std::int64_t id = 1; id <= 1200; ++id) outbox_.Append(id);  // more than a page
  feed_.OnMessage(kChannel, Message(1));
  feed_.OnMessage(kChannel, Message(1200));  // 2..1199 were lost on the way
  ASSERT_EQ(delivered_.size(), 1200u);
  for (std::int64_t i = 0; i < 1200; ++i) {
    EXPECT_EQ(*delivered_[i].publisher_sequence, i + 1);
    EXPECT_EQ(delivered_[i].sequence, i + 1);
  }
}

TEST_F(UpdateFeedTest, AGapTheOutboxCannotFillIsDeliveredWithASkip) {
  feed_.OnSubscribed();
  outbox_.Append(1);
  feed_.OnMessage(kChannel, Message(1));
  for (std::int64_t id : {2, 3}) outbox_.Append(id);
  outbox_.down = true;
  feed_.OnMessage(kChannel, Message(3));
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(delivered_[1].sequence, 3) << "the skip tells clients to resynchronise";
  // Pruned rows are the same: the gap is reported, not waited for.
  outbox_.down = false;
  for (std::int64_t id : {4, 5, 6}) outbox_.Append(id);
  outbox_.rows.erase(4);
  feed_.OnMessage(kChannel, Message(6));
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 3, 6}));
  EXPECT_EQ(delivered_[2].sequence, 5);
}

// The missing row is the last one before the message that showed the gap: the rows after it do
// not stand in for it.
TEST_F(UpdateFeedTest, AGapEndingInAPrunedRowIsDeliveredWithASkip) {
  feed_.OnSubscribed();
  outbox_.Append(1);
  feed_.OnMessage(kChannel, Message(1));
  for (std::int64_t id : {2, 3}) outbox_.Append(id);
  outbox_.rows.erase(2);
  feed_.OnMessage(kChannel, Message(3));
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 3}));
  EXPECT_EQ(delivered_[1].sequence, 3) << "the skip tells clients to resynchronise";
}

// Each read of the outbox is counted once, by how it ended, and so are the updates it delivered.
TEST_F(UpdateFeedTest, CatchUpReadsAreCountedByOutcome) {
  auto reads = [](CatchUpOutcome outcome) {
    return WsMetrics().catch_up_reads_total[static_cast<std::size_t>(outcome)];
  };
  const std::uint64_t ok = reads(CatchUpOutcome::kOk);
  const std::uint64_t error = reads(CatchUpOutcome::kError);
  const std::uint64_t pruned = reads(CatchUpOutcome::kPruned);
  const std::uint64_t updates = WsMetrics().catch_up_updates_total;
  feed_.OnSubscribed();  // the first subscription reads only where the outbox stands
  outbox_.Append(1);
  feed_.OnMessage(kChannel, Message(1));
  for (std::int64_t id : {2, 3, 4}) outbox_.Append(id);
  feed_.OnMessage(kChannel, Message(4));  // 2 and 3 read from the outbox
  EXPECT_EQ(reads(CatchUpOutcome::kOk), ok + 1);
  EXPECT_EQ(WsMetrics().catch_up_updates_total, updates + 2);
  for (std::int64_t id : {5, 6}) outbox_.Append(id);
  outbox_.down = true;
  feed_.OnMessage(kChannel, Message(6));
  EXPECT_EQ(reads(CatchUpOutcome::kError), error + 1);
  outbox_.down = false;
  for (std::int64_t id : {7, 8}) outbox_.Append(id);
  outbox_.rows.erase(7);
  feed_.OnMessage(kChannel, Message(8));
  EXPECT_EQ(reads(CatchUpOutcome::kPruned), pruned + 1);
  EXPECT_EQ(reads(CatchUpOutcome::kOk), ok + 1);
  EXPECT_EQ(WsMetrics().catch_up_updates_total, updates + 2);
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 2, 3, 4, 6, 8}));
}

TEST_F(UpdateFeedTest, AResetDatabaseIsFollowedInItsNewEpoch) {
  feed_.OnSubscribed();
  for (std::int64_t id : {1, 2, 3}) {
    outbox_.Append(id);
    feed_.OnMessage(kChannel, Message(id));
  }
  // The database is reset: its ids start over, under a new epoch.
  ResetDatabase();
  outbox_.Append(1);
  outbox_.Append(2);
  feed_.OnMessage(kChannel, Message(2));  // 1 was lost on the way: read from the outbox
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 2, 3, 1, 2}));
  EXPECT_EQ(delivered_[3].sequence, 5) << "a new database: clients resynchronise";
  EXPECT_EQ(delivered_[4].sequence, 6);
}

TEST_F(UpdateFeedTest, AResetWhileUnsubscribedIsCaughtUpInTheNewEpoch) {
  feed_.OnSubscribed();
  outbox_.Append(7);
  feed_.OnMessage(kChannel, Message(7));
  ResetDatabase();
  outbox_.Append(1);
  feed_.OnSubscribed();
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{7, 1}));
  feed_.OnMessage(kChannel, Message(1));  // published once Redis is back
  EXPECT_EQ(delivered_.size(), 2u);
}

// Anyone who reaches Redis can publish again a message the relay signed for a database since reset
// (or restored): it is not delivered, and the process keeps following the outbox's epoch.
TEST_F(UpdateFeedTest, AReplayedUpdateOfAnEarlierEpochIsDroppedAndChangesNothing) {
  feed_.OnSubscribed();
  outbox_.Append(1);
  const domain::UpdateMessage captured = Message(1);
  feed_.OnMessage(kChannel, captured);
  ResetDatabase();
  for (std::int64_t id : {1, 2}) outbox_.Append(id);
  feed_.OnMessage(kChannel, Message(1));
  feed_.OnMessage(kChannel, Message(2));
  ASSERT_EQ(Numbers(), (std::vector<std::int64_t>{1, 1, 2}));

  const int heads = outbox_.heads;
  feed_.OnMessage(kChannel, captured);
  EXPECT_EQ(outbox_.heads, heads + 1) << "the outbox is asked which epoch it is in";
  for (int i = 0; i < 100; ++i) feed_.OnMessage(kChannel, captured);
  EXPECT_EQ(outbox_.heads, heads + 1) << "a flood of replays does not read the outbox again";
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 1, 2})) << "the replay is not delivered";

  outbox_.Append(3);
  feed_.OnMessage(kChannel, Message(3));
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 1, 2, 3}));
  EXPECT_EQ(delivered_[3].sequence, delivered_[2].sequence + 1)
      << "still following epoch-2: no skip, and 1 and 2 were not read again";
  EXPECT_EQ(outbox_.reads, 0);

  now_ += UpdateFeed::kRefusedEpochRecheck;
  feed_.OnMessage(kChannel, captured);
  EXPECT_EQ(outbox_.heads, heads + 2) << "asked again once the refusal has run out";
  EXPECT_EQ(delivered_.size(), 4u);
}

// pg_restore of a dump taken at 7, after 10 went out: the relay starts epoch-2 after 7 (the ids
// 8 and 9 committed since are taken again), and the process follows it from there.
TEST_F(UpdateFeedTest, ARestoredDatabaseIsFollowedFromWhereTheRelayStartedItsNewEpoch) {
  feed_.OnSubscribed();
  for (std::int64_t id = 1; id <= 10; ++id) {
    outbox_.Append(id);
    feed_.OnMessage(kChannel, Message(id));
  }
  for (std::int64_t id : {8, 9, 10}) outbox_.rows.erase(id);
  outbox_.last = 7;
  for (std::int64_t id : {8, 9}) outbox_.Append(id);  // in epoch-1, as the restored row says
  feed_.OnMessage(kChannel, Message(8));              // the relay before it noticed: a repeat
  outbox_.epoch = "epoch-2";
  outbox_.epoch_start = 7;
  domain::UpdateMessage nine = Message(9);
  nine.epoch = "epoch-2";  // the relay publishes under the epoch it started
  feed_.OnMessage(kChannel, nine);
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 8, 9}));
  EXPECT_EQ(delivered_[10].sequence, 12) << "a new epoch: clients resynchronise";
  EXPECT_EQ(delivered_[11].sequence, 13);
}

// PostgreSQL unreachable: the update is dropped, and its epoch is not asked about for a while (a
// read may take seconds); then it is confirmed and what was dropped is read from the outbox.
TEST_F(UpdateFeedTest, ANewEpochThatCannotBeConfirmedWaitsThenIsCaughtUp) {
  feed_.OnSubscribed();
  outbox_.Append(1);
  feed_.OnMessage(kChannel, Message(1));
  ResetDatabase();
  outbox_.Append(1);
  outbox_.down = true;
  feed_.OnMessage(kChannel, Message(1));
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1}));
  outbox_.down = false;
  outbox_.Append(2);
  const int heads = outbox_.heads;
  feed_.OnMessage(kChannel, Message(2));
  EXPECT_EQ(outbox_.heads, heads) << "not asked again at once";
  now_ += UpdateFeed::kRefusedEpochRecheck;
  outbox_.Append(3);
  feed_.OnMessage(kChannel, Message(3));  // confirmed now; 1 and 2 are read from the outbox
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{1, 1, 2, 3}));
  EXPECT_EQ(delivered_[1].sequence, 3) << "one skip for the loss and the new epoch";
}

// When where the outbox stood could not be read at the first subscription, the first update is
// confirmed too: a replay cannot choose the epoch followed.
TEST_F(UpdateFeedTest, BeforeTheFirstEpochIsKnownAnUpdateIsConfirmedToo) {
  outbox_.down = true;
  feed_.OnSubscribed();
  outbox_.down = false;
  for (std::int64_t id : {1, 2, 3}) outbox_.Append(id);
  domain::UpdateMessage replayed = Message(3);
  replayed.epoch = "epoch-0";
  feed_.OnMessage(kChannel, replayed);
  EXPECT_TRUE(delivered_.empty());
  feed_.OnMessage(kChannel, Message(3));
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{3})) << "what came before is not replayed";
  outbox_.Append(4);
  feed_.OnMessage(kChannel, Message(4));
  EXPECT_EQ(Numbers(), (std::vector<std::int64_t>{3, 4}));
}

TEST_F(UpdateFeedTest, UnnumberedMessagesPassStraightThrough) {
  domain::UpdateMessage plain = *domain::UpdateMessage::Parse(R"({"n":null})", kLimit);
  int plain_deliveries = 0;
  UpdateFeed feed(
      outbox_,
      [&](std::string_view, const domain::UpdateMessage&, const UpdateStamp& stamp) {
        EXPECT_FALSE(stamp.publisher_sequence.has_value());
        ++plain_deliveries;
      },
      kLimit);
  feed.OnMessage(kChannel, plain);
  feed.OnMessage(kChannel, plain);
  EXPECT_EQ(plain_deliveries, 2);
  EXPECT_EQ(outbox_.reads, 0);
}

}  // namespace
}  // namespace netgraph::ws
