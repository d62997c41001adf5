// JwksKeySet with a fake fetch and a fake clock: which answers replace the keys and which are
// refused (the last good set stays), and when it fetches at all. Fetching over HTTPS is tested
// through the real stack (tests/integration/jwks-url.test.mjs).
#include "core/auth/jwks_key_set.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include "tests/unit/auth/test_crypto.h"

namespace netgraph::auth {
namespace {

using std::chrono::seconds;
using testing::EcKey;
using testing::OtherEcKey;
using testing::PublicJwk;

std::string JwksOf(std::initializer_list<nlohmann::json> keys) {
  return nlohmann::json{{"keys", nlohmann::json::array_t(keys)}}.dump();
}

class JwksKeySetTest : public ::testing::Test {
 protected:
  JwksKeySetTest() {
    config_.jwks_endpoint.url = "https://idp.test/jwks.json";
    config_.jwks_min_refresh = seconds(10);
    config_.jwks_max_refresh = seconds(300);
  }

  JwksKeySet KeySet() {
    return JwksKeySet(
        config_,
        [this]() -> Result<JwksDocument> {
          ++fetches_;
          Result<JwksDocument> answer = answers_.front();
          if (answers_.size() > 1) answers_.pop_front();
          return answer;
        },
        [this] { return now_; });
  }

  void Answer(std::string body, std::optional<seconds> max_age = std::nullopt) {
    answers_.push_back(JwksDocument{std::move(body), max_age});
  }
  void Fail(std::string reason) { answers_.push_back(Status::Unavailable(std::move(reason))); }

  static std::vector<std::string> Kids(const JwksKeySet& keys) {
    std::vector<std::string> kids;
    for (const VerificationKey& key : *keys.Current().keys) kids.push_back(key.kid.value_or(""));
    return kids;
  }

  AuthConfig config_;
  std::deque<Result<JwksDocument>> answers_;
  int fetches_ = 0;
  std::chrono::steady_clock::time_point now_{seconds(5000)};
};

TEST_F(JwksKeySetTest, HasNoKeysBeforeTheFirstFetch) {
  Answer(JwksOf({PublicJwk(EcKey(), "k1")}));
  JwksKeySet keys = KeySet();
  EXPECT_EQ(keys.Current().keys, nullptr);
  EXPECT_TRUE(keys.FetchDue());
  EXPECT_TRUE(keys.RefreshIfDue());
  EXPECT_EQ(Kids(keys), (std::vector<std::string>{"k1"}));
  EXPECT_EQ(fetches_, 1);
  EXPECT_FALSE(keys.FetchDue());
  EXPECT_FALSE(keys.RefreshIfDue());
  EXPECT_EQ(fetches_, 1);
}

TEST_F(JwksKeySetTest, ARotationReplacesTheSetAndItsGeneration) {
  Answer(JwksOf({PublicJwk(EcKey(), "k1")}), seconds(60));
  Answer(JwksOf({PublicJwk(EcKey(), "k1")}), seconds(60));
  Answer(JwksOf({PublicJwk(OtherEcKey(), "k2")}), seconds(60));
  JwksKeySet keys = KeySet();
  ASSERT_TRUE(keys.RefreshIfDue());
  const std::uint64_t first = keys.Current().generation;

  now_ += seconds(60);
  EXPECT_FALSE(keys.RefreshIfDue()) << "the same keys again: nothing changes";
  EXPECT_EQ(keys.Current().generation, first);
  EXPECT_EQ(fetches_, 2);

  now_ += seconds(60);
  EXPECT_TRUE(keys.RefreshIfDue());
  EXPECT_EQ(Kids(keys), (std::vector<std::string>{"k2"}));
  EXPECT_NE(keys.Current().generation, first);
}

TEST_F(JwksKeySetTest, ABadAnswerNeverReplacesAGoodSet) {
  Answer(JwksOf({PublicJwk(EcKey(), "k1")}), seconds(60));
  Fail("Could not connect to server");
  Answer("<html>502 Bad Gateway</html>");
  Answer(R"({"keys": "none"})");
  Answer(JwksOf({PublicJwk(testing::RsaKey(), "rsa-only")}));  // no key for ES256
  Answer(JwksOf({PublicJwk(OtherEcKey(), "k2")}));
  JwksKeySet keys = KeySet();
  ASSERT_TRUE(keys.RefreshIfDue());
  const JwksKeySet::Snapshot good = keys.Current();

  now_ += seconds(60);
  for (int attempt = 0; attempt < 4; ++attempt) {
    EXPECT_FALSE(keys.RefreshIfDue()) << attempt;
    EXPECT_EQ(keys.Current().keys, good.keys) << attempt;
    EXPECT_EQ(keys.Current().generation, good.generation) << attempt;
    // A failure is retried after the minimum interval, not before.
    now_ += seconds(9);
    EXPECT_FALSE(keys.FetchDue()) << attempt;
    now_ += seconds(1);
  }
  EXPECT_EQ(fetches_, 5);
  EXPECT_TRUE(keys.RefreshIfDue());
  EXPECT_EQ(Kids(keys), (std::vector<std::string>{"k2"}));
}

TEST_F(JwksKeySetTest, AProviderDownAtStartLeavesNoKeysUntilItAnswers) {
  Fail("Connection refused");
  Answer(JwksOf({PublicJwk(EcKey(), "k1")}));
  JwksKeySet keys = KeySet();
  EXPECT_FALSE(keys.RefreshIfDue());
  EXPECT_EQ(keys.Current().keys, nullptr);
  now_ += seconds(10);
  EXPECT_TRUE(keys.RefreshIfDue());
  EXPECT_EQ(Kids(keys), (std::vector<std::string>{"k1"}));
}

TEST_F(JwksKeySetTest, UnknownKidsFetchEarlyButRateLimited) {
  Answer(JwksOf({PublicJwk(EcKey(), "k1")}), seconds(300));
  JwksKeySet keys = KeySet();
  ASSERT_TRUE(keys.RefreshIfDue());
  // 100 tokens with forged kids, one every 0.3 s over 30 s: a fetch 10.2 s after the first
  // fetch and one 10 s after that (at 20.4 s), no more.
  for (int i = 1; i <= 100; ++i) {
    now_ =
        std::chrono::steady_clock::time_point(seconds(5000)) + i * std::chrono::milliseconds(300);
    keys.NoteUnknownKid();
    keys.RefreshIfDue();
  }
  EXPECT_EQ(fetches_, 1 + 2);
}

// The background thread (RefreshInBackground), with a fetch the test holds open as a slow
// provider would and the real clock: whoever reads the set or notes an unknown kid meanwhile goes
// on at once, and the thread fetches by itself when an unknown kid asks for it.
class BackgroundRefreshTest : public ::testing::Test {
 protected:
  BackgroundRefreshTest() {
    config_.jwks_endpoint.url = "https://idp.test/jwks.json";
    config_.jwks_min_refresh = seconds(1);
    config_.jwks_max_refresh = seconds(300);
  }

  // Serves `body` once the test opens the gate (at once while it is open).
  JwksKeySet::Fetch Provider() {
    return [this]() -> Result<JwksDocument> {
      std::unique_lock<std::mutex> lock(mutex_);
      ++fetches_;
      changed_.notify_all();
      changed_.wait(lock, [this] { return open_; });
      return JwksDocument{body_, seconds(300)};
    };
  }

  void Serve(std::string body, bool open) {
    std::lock_guard<std::mutex> lock(mutex_);
    body_ = std::move(body);
    open_ = open;
    changed_.notify_all();
  }

  // Waits (at most 30 s, a failure then) until at least `at_least` fetches have begun.
  void AwaitFetches(int at_least) {
    std::unique_lock<std::mutex> lock(mutex_);
    EXPECT_TRUE(changed_.wait_for(lock, seconds(30), [&] { return fetches_ >= at_least; }))
        << fetches_ << " fetches";
  }

  static std::vector<std::string> Kids(const JwksKeySet& keys) {
    std::vector<std::string> kids;
    JwksKeySet::Snapshot current = keys.Current();
    if (current.keys) {
      for (const VerificationKey& key : *current.keys) kids.push_back(key.kid.value_or(""));
    }
    return kids;
  }

  // Polls (at most 30 s) until the set holds `kids`.
  static bool AwaitKids(const JwksKeySet& keys, const std::vector<std::string>& kids) {
    const auto deadline = std::chrono::steady_clock::now() + seconds(30);
    while (Kids(keys) != kids) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
  }

  AuthConfig config_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::string body_;
  bool open_ = false;
  int fetches_ = 0;
};

TEST_F(BackgroundRefreshTest, ReadersNeverWaitForAFetchInFlight) {
  Serve(JwksOf({PublicJwk(EcKey(), "k1")}), /*open=*/false);
  JwksKeySet keys(config_, Provider());
  keys.RefreshInBackground();
  AwaitFetches(1);  // the thread's first fetch has begun, and hangs
  // Reading and noting unknown kids go on meanwhile (were they to wait, this test would hang).
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(keys.Current().keys, nullptr);
    keys.NoteUnknownKid();
  }
  Serve(JwksOf({PublicJwk(EcKey(), "k1")}), /*open=*/true);
  EXPECT_TRUE(AwaitKids(keys, {"k1"}));
}

TEST_F(BackgroundRefreshTest, AnUnknownKidWakesTheThreadWithinTheRateLimit) {
  Serve(JwksOf({PublicJwk(EcKey(), "k1")}), /*open=*/true);
  JwksKeySet keys(config_, Provider());
  keys.RefreshInBackground();
  ASSERT_TRUE(AwaitKids(keys, {"k1"}));
  // The provider rotates; max-age 300 s would keep the old set, but a token names the new kid.
  Serve(JwksOf({PublicJwk(OtherEcKey(), "k2")}), /*open=*/true);
  keys.NoteUnknownKid();
  EXPECT_TRUE(AwaitKids(keys, {"k2"}));
  std::lock_guard<std::mutex> lock(mutex_);
  EXPECT_EQ(fetches_, 2);
}

TEST_F(BackgroundRefreshTest, TheSetStopsItsThreadWhenItGoes) {
  Serve(JwksOf({PublicJwk(EcKey(), "k1")}), /*open=*/true);
  {
    JwksKeySet keys(config_, Provider());
    keys.RefreshInBackground();
    ASSERT_TRUE(AwaitKids(keys, {"k1"}));
  }  // joins the thread, asleep until the next fetch (300 s away)
  std::lock_guard<std::mutex> lock(mutex_);
  EXPECT_EQ(fetches_, 1);
}

}  // namespace
}  // namespace netgraph::auth
