// JwksKeySet with a fake fetch and a fake clock: which answers replace the keys and which are
// refused (the last good set stays), and when it fetches at all. Fetching over HTTPS is tested
// through the real stack (tests/integration/jwks-url.test.mjs).
#include "core/auth/jwks_key_set.h"

#include <gtest/gtest.h>

#include <deque>

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

}  // namespace
}  // namespace netgraph::auth
