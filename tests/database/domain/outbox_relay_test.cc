// The outbox: gap-free sequences, the relay publishing on Redis, and epochs when the database is
// rewound (core/domain/outbox_relay.h, core/domain/graph_change.h).
#include "tests/database/domain/domain_store_test.h"

#include <hiredis/hiredis.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "core/domain/network_graph.h"
#include "core/domain/outbox_relay.h"
#include "core/domain/update_authenticator.h"
#include "core/store/outbox.h"
#include "core/store/redis.h"
#include "tests/support/redis_subscriber.h"
#include "tests/support/temp_dir.h"

namespace netgraph::domain {
namespace {

store::RedisAddress UnixSocketAddress(const std::string& path) {
  store::RedisAddress address;
  address.port = 0;
  address.socket_path = path;
  return address;
}

TEST_F(DomainStoreTest, OutboxSequencesAreGapFreeInCommitOrder) {
  // Concurrent graph changes: every id is taken exactly once and ids match commit order.
  constexpr int kWriters = 10;
  RunConcurrently(kWriters, [](store::Connection& db, int i) {
    const std::string id = "node-" + std::to_string(i);
    EXPECT_TRUE(ImportGraph(db, R"({"nodes": [{"id": ")" + id + R"(", "type": "T"}]})").ok());
  });
  std::vector<nlohmann::json> updates = OutboxPayloads();
  ASSERT_EQ(updates.size(), static_cast<std::size_t>(kWriters));
  for (int i = 0; i < kWriters; ++i)
    EXPECT_EQ(updates[static_cast<std::size_t>(i)]["sequence"], i + 1);
}

// A private redis-server on a unix socket in a new directory inside the test server's, and a
// subscriber. Each has a directory of its own: a test that found the socket of an earlier server
// (the previous test's, which exits after its destructor returns) talked to that server and read
// its notes.
class TestRedis {
 public:
  explicit TestRedis(const std::string& directory)
      : directory_("redis", directory),
        socket_((directory_.path() / "redis.sock").string()),
        pidfile_((directory_.path() / "redis.pid").string()) {
    const std::string command = "redis-server --port 0 --unixsocket " + socket_ +
                                " --save '' --appendonly no --daemonize yes --pidfile " + pidfile_ +
                                " --logfile /dev/null";
    // The socket's file exists from bind(2), before the server listens: it is ready once it
    // answers.
    const bool launched = std::system(command.c_str()) == 0;
    for (int i = 0; launched && !started_ && i < 250; ++i) {
      started_ = Answers();
      if (!started_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~TestRedis() {
    subscriber_.reset();
    std::system(("kill $(cat " + pidfile_ + ") 2>/dev/null").c_str());
    // redis-server removes its socket as it exits.
    for (int i = 0; i < 100 && ::access(socket_.c_str(), F_OK) == 0; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  bool started() const { return started_; }
  store::RedisAddress address() const { return UnixSocketAddress(socket_); }

  void Subscribe(const char* channel) {
    subscriber_ =
        std::make_unique<testing::RedisSubscriber>(redisConnectUnix(socket_.c_str()), channel);
  }
  // The next message's payload; "" after 5 s without one.
  std::string NextMessage() { return subscriber_->Next(); }

 private:
  bool Answers() const {
    redisContext* context = redisConnectUnix(socket_.c_str());
    if (context == nullptr) return false;
    auto* reply =
        context->err == 0 ? static_cast<redisReply*>(redisCommand(context, "PING")) : nullptr;
    const bool pong = reply != nullptr && reply->type == REDIS_REPLY_STATUS &&
                      std::string_view(reply->str, reply->len) == "PONG";
    if (reply != nullptr) freeReplyObject(reply);
    redisFree(context);
    return pong;
  }

  testing::TempDir directory_;
  std::string socket_;
  std::string pidfile_;
  bool started_ = false;
  std::unique_ptr<testing::RedisSubscriber> subscriber_;
};

TEST_F(DomainStoreTest, TheRelayPublishesCommittedChangesInOrderAndKeepsThemWhileRedisIsDown) {
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(
        ImportGraph(*db_, R"({"nodes": [{"id": "n)" + std::to_string(i) + R"(", "type": "T"}]})")
            .ok());
  }
  // Redis unreachable: nothing is marked published.
  store::RedisClient nowhere(UnixSocketAddress(server_->directory() + "/no-such.sock"), 200);
  // The key both daemons share; the relay signs what it publishes (update_authenticator.h).
  Result<UpdateAuthenticator> updates = UpdateAuthenticator::FromHexKey(std::string(64, '7'));
  ASSERT_TRUE(updates.ok());
  OutboxRelay unreachable(*db_, nowhere, *updates, RelayOptions{});
  Result<OutboxRelay::Pass> failed = unreachable.PublishPending();
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->published, 0);
  EXPECT_FALSE(failed->redis.ok());

  TestRedis redis(server_->directory());
  if (!redis.started()) GTEST_SKIP() << "redis-server is not available";
  redis.Subscribe("netgraph:graph");
  store::RedisClient client(redis.address());
  RelayOptions options;
  options.batch_size = 2;
  OutboxRelay relay(*db_, client, *updates, options);
  Result<OutboxRelay::Pass> pass = relay.PublishPending();
  ASSERT_TRUE(pass.ok());
  EXPECT_EQ(pass->published, 2);
  EXPECT_TRUE(pass->more_pending) << "a full batch: more may wait";
  pass = relay.PublishPending();
  EXPECT_EQ(pass->published, 1);
  EXPECT_FALSE(pass->more_pending);
  EXPECT_EQ(relay.PublishPending()->published, 0) << "published rows are marked";
  for (int sequence = 1; sequence <= 3; ++sequence) {
    const std::string message = redis.NextMessage();
    ASSERT_FALSE(message.empty());
    Result<std::string_view> payload = updates->Open("netgraph:graph", message);
    ASSERT_TRUE(payload.ok()) << "signed: " << message;
    EXPECT_EQ(nlohmann::json::parse(*payload)["sequence"], sequence);
  }

  // A pass listens for appends, so a commit after it wakes the relay's wait (LISTEN/NOTIFY).
  RelayOptions slow;
  slow.poll_interval = std::chrono::milliseconds(60000);  // only a NOTIFY can wake it in time
  store::Connection relay_db(url_);
  store::RedisClient relay_redis(redis.address());
  OutboxRelay waiting(relay_db, relay_redis, *updates, slow);
  ASSERT_EQ(waiting.PublishPending()->published, 0);
  std::thread commit([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    EXPECT_TRUE(ImportGraph(*db_, R"({"nodes": [{"id": "late", "type": "T"}]})").ok());
  });
  Result<bool> woken = waiting.AwaitAppend(slow.poll_interval);
  commit.join();
  ASSERT_TRUE(woken.ok());
  EXPECT_TRUE(*woken) << "woken by the commit, not by the 60 s timeout";
  EXPECT_EQ(waiting.PublishPending()->published, 1);
  const std::string late = redis.NextMessage();
  ASSERT_FALSE(late.empty());
  EXPECT_EQ(nlohmann::json::parse(*updates->Open("netgraph:graph", late))["sequence"], 4);
}

// Everything `relay` hears until 300 ms pass in silence: whether an append was among it, and the
// other changes. One commit's announcements may come in more than one wait.
struct HeardUntilSilence {
  bool appended = false;
  OutboxRelay::Changes changes;
};
HeardUntilSilence HearUntilSilence(OutboxRelay& relay) {
  HeardUntilSilence heard;
  for (;;) {
    OutboxRelay::Changes changes;
    Result<bool> appended = relay.AwaitAppend(std::chrono::milliseconds(300), &changes);
    EXPECT_TRUE(appended.ok());
    const bool silent =
        !appended.ok() || (!*appended && !changes.data && !changes.all && changes.users.empty() &&
                           !changes.all_rows && changes.user_rows.empty());
    if (silent) return heard;
    heard.appended = heard.appended || *appended;
    heard.changes.data = heard.changes.data || changes.data;
    heard.changes.all = heard.changes.all || changes.all;
    heard.changes.all_rows = heard.changes.all_rows || changes.all_rows;
    heard.changes.users.insert(heard.changes.users.end(), changes.users.begin(),
                               changes.users.end());
    heard.changes.user_rows.insert(heard.changes.user_rows.end(), changes.user_rows.begin(),
                                   changes.user_rows.end());
  }
}

TEST_F(DomainStoreTest, OnlyAnAppendAsksTheRelayForAPass) {
  // A claim to a known wallet appends no outbox row: the relay hears that the public data and the
  // claimant's portfolio changed (fcgi/pool/outbox_relay_process.h invalidates them), and needs no
  // pass, which would only find nothing pending.
  Result<UpdateAuthenticator> updates = UpdateAuthenticator::FromHexKey(std::string(64, '7'));
  ASSERT_TRUE(updates.ok());
  store::Connection relay_db(url_);
  store::RedisClient nowhere(UnixSocketAddress(server_->directory() + "/no-such.sock"), 200);
  OutboxRelay relay(relay_db, nowhere, *updates, RelayOptions{});
  ASSERT_TRUE(relay.PublishPending().ok()) << "a pass listens first";

  const User alice = NewUser("did:relay:alice");
  const std::string wallet = RandomWallet();
  ASSERT_TRUE(Claim(alice, Issue(), wallet).ok());
  HeardUntilSilence first = HearUntilSilence(relay);
  EXPECT_TRUE(first.appended) << "the first claim to a wallet adds it to the graph";
  EXPECT_TRUE(first.changes.data);

  ASSERT_TRUE(Claim(alice, Issue(), wallet).ok());
  HeardUntilSilence known = HearUntilSilence(relay);
  EXPECT_FALSE(known.appended) << "a claim to a known wallet appends nothing";
  EXPECT_TRUE(known.changes.data) << "and changes the public data";
  EXPECT_EQ(known.changes.users, std::vector<std::int64_t>{alice.id});
  EXPECT_TRUE(known.changes.user_rows.empty()) << "but not the user's row";

  ASSERT_TRUE(GrantAdmin(*db_, "did:relay:alice").ok());
  HeardUntilSilence granted = HearUntilSilence(relay);
  EXPECT_FALSE(granted.appended);
  EXPECT_EQ(granted.changes.user_rows, std::vector<std::int64_t>{alice.id});
}

// What pg_restore of a dump taken when the outbox stood at `last_id` does to the outbox: the rows
// after it and the ids taken since are gone; the epoch is the one of the dump.
constexpr store::Statement kRewindOutbox{
    "test_rewind_outbox",
    "WITH gone AS (DELETE FROM outbox WHERE id > $1) UPDATE outbox_sequence SET last_id = $1"};
// As if the relay's mark had not committed after its PUBLISH (the at-least-once case).
constexpr store::Statement kUnpublish{"test_unpublish",
                                      "UPDATE outbox SET published_at = NULL WHERE id >= $1"};
constexpr store::Statement kDeleteRow{"test_delete_outbox_row", "DELETE FROM outbox WHERE id = $1"};

std::string ImportOne(store::Connection& db, const std::string& id) {
  EXPECT_TRUE(ImportGraph(db, R"({"nodes": [{"id": ")" + id + R"(", "type": "T"}]})").ok());
  return id;
}

class RelayEpochTest : public DomainStoreTest {
 protected:
  void SetUp() override {
    DomainStoreTest::SetUp();
    redis_ = std::make_unique<TestRedis>(server_->directory());
    if (!redis_->started()) GTEST_SKIP() << "redis-server is not available";
    redis_->Subscribe("netgraph:graph");
    client_ = std::make_unique<store::RedisClient>(redis_->address());
  }

  // A relay as a process starts it: knowing nothing but what Redis holds.
  std::unique_ptr<OutboxRelay> NewRelay() {
    return std::make_unique<OutboxRelay>(*db_, *client_, updates_, RelayOptions{});
  }
  // The next message published, opened: its payload.
  nlohmann::json NextPublished() {
    const std::string message = redis_->NextMessage();
    EXPECT_FALSE(message.empty()) << "a message was published";
    Result<std::string_view> payload = updates_.Open("netgraph:graph", message);
    EXPECT_TRUE(payload.ok()) << message;
    return payload.ok() ? nlohmann::json::parse(*payload) : nlohmann::json();
  }
  store::OutboxPosition Head() { return *store::OutboxHead(*db_); }

  UpdateAuthenticator updates_ = *UpdateAuthenticator::FromHexKey(std::string(64, '7'));
  std::unique_ptr<TestRedis> redis_;
  std::unique_ptr<store::RedisClient> client_;
};

TEST_F(RelayEpochTest, ARestoredDatabaseGetsANewEpochBeforeItsUpdatesGoOut) {
  for (const char* id : {"a", "b", "c"}) ImportOne(*db_, id);
  const std::string before = Head().epoch;
  ASSERT_EQ(NewRelay()->PublishPending()->published, 3);
  for (int sequence = 1; sequence <= 3; ++sequence) {
    EXPECT_EQ(NextPublished()["epoch"], before);
  }

  // Restored from a dump taken after update 1; a claim then takes id 2 again.
  ASSERT_TRUE(db_->Execute(kRewindOutbox, {"1"}).ok());
  ImportOne(*db_, "d");
  std::unique_ptr<OutboxRelay> restarted = NewRelay();  // it knows only Redis's note
  Result<OutboxRelay::Pass> pass = restarted->PublishPending();
  ASSERT_TRUE(pass.ok()) << pass.status().message();
  EXPECT_EQ(pass->published, 0) << "nothing goes out before the new epoch is committed";
  EXPECT_TRUE(pass->more_pending);
  ASSERT_FALSE(pass->new_epoch.empty());
  const store::OutboxPosition head = Head();
  EXPECT_EQ(head.epoch, pass->new_epoch);
  EXPECT_NE(head.epoch, before);
  EXPECT_EQ(head.epoch_start, 1) << "the new epoch's ids start with the update taken again";

  pass = restarted->PublishPending();
  EXPECT_EQ(pass->published, 1);
  EXPECT_TRUE(pass->new_epoch.empty());
  const nlohmann::json update = NextPublished();
  EXPECT_EQ(update["sequence"], 2);
  EXPECT_EQ(update["epoch"], head.epoch) << "published under the new epoch, under the MAC";
  EXPECT_EQ(update["nodes"][0]["id"], "d");
}

// The relay that published remembers it even when Redis lost its note; and a rewind past the
// last id (no update taken again yet) is found as soon as one is.
TEST_F(RelayEpochTest, TheRelayThatPublishedFindsTheRewindWithoutRedisNote) {
  for (const char* id : {"a", "b", "c"}) ImportOne(*db_, id);
  std::unique_ptr<OutboxRelay> relay = NewRelay();
  ASSERT_EQ(relay->PublishPending()->published, 3);
  ASSERT_TRUE(client_->Set(kPublishedMarkKey, "not a note").ok());
  ASSERT_TRUE(db_->Execute(kRewindOutbox, {"0"}).ok());
  ImportOne(*db_, "d");
  Result<OutboxRelay::Pass> pass = relay->PublishPending();
  ASSERT_TRUE(pass.ok());
  EXPECT_FALSE(pass->new_epoch.empty());
  EXPECT_EQ(Head().epoch_start, 0);
}

// Publishing again what went out (the mark of the batch did not commit), pruning, a database reset
// under a new epoch: none of them is a rewind.
TEST_F(RelayEpochTest, RepeatsPrunedRowsAndResetsStartNoEpoch) {
  for (const char* id : {"a", "b", "c"}) ImportOne(*db_, id);
  const std::string epoch = Head().epoch;
  ASSERT_EQ(NewRelay()->PublishPending()->published, 3);
  ASSERT_TRUE(db_->Execute(kUnpublish, {"2"}).ok());
  Result<OutboxRelay::Pass> again = NewRelay()->PublishPending();
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->published, 2);
  EXPECT_TRUE(again->new_epoch.empty());

  ASSERT_TRUE(db_->Execute(kDeleteRow, {"3"}).ok());  // pruned
  ImportOne(*db_, "d");
  again = NewRelay()->PublishPending();
  EXPECT_EQ(again->published, 1);
  EXPECT_TRUE(again->new_epoch.empty());
  EXPECT_EQ(Head().epoch, epoch);

  // A reset: ids start over under a new epoch of its own; the note of the old one says nothing.
  Result<std::string> reset = store::StartOutboxEpoch(*db_, 0);
  ASSERT_TRUE(reset.ok());
  ASSERT_TRUE(db_->Execute(kRewindOutbox, {"0"}).ok());
  ImportOne(*db_, "e");
  again = NewRelay()->PublishPending();
  EXPECT_EQ(again->published, 1);
  EXPECT_TRUE(again->new_epoch.empty());
  EXPECT_EQ(Head().epoch, *reset);
}

TEST_F(DomainStoreTest, AnEpochCannotStartPastTheLastIdTaken) {
  ImportOne(*db_, "a");
  EXPECT_TRUE(store::StartOutboxEpoch(*db_, 1).ok());
  Result<std::string> beyond = store::StartOutboxEpoch(*db_, 2);
  ASSERT_FALSE(beyond.ok());
  EXPECT_NE(beyond.status().message().find("outbox_epoch_start_reached"), std::string::npos)
      << beyond.status().message();
}

}  // namespace
}  // namespace netgraph::domain
