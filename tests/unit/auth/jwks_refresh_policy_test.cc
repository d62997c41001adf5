#include "core/auth/internal/jwks_refresh_policy.h"

#include <gtest/gtest.h>

namespace netgraph::auth {
namespace {

using std::chrono::seconds;
using TimePoint = JwksRefreshPolicy::TimePoint;

const TimePoint kStart{seconds(1000)};

TEST(MaxAgeOfTest, ReadsMaxAgeAmongOtherDirectives) {
  EXPECT_EQ(MaxAgeOf("max-age=300"), seconds(300));
  EXPECT_EQ(MaxAgeOf(" public, Max-Age=86400 , must-revalidate"), seconds(86400));
  EXPECT_EQ(MaxAgeOf("public, max-age=\"120\""), seconds(120));
  EXPECT_EQ(MaxAgeOf("max-age=0"), seconds(0));
}

TEST(MaxAgeOfTest, NoStoreAndNoCacheMeanZero) {
  EXPECT_EQ(MaxAgeOf("no-store"), seconds(0));
  EXPECT_EQ(MaxAgeOf("max-age=600, no-cache"), seconds(0));
}

TEST(MaxAgeOfTest, IgnoresWhatIsNotAValidMaxAge) {
  EXPECT_EQ(MaxAgeOf(""), std::nullopt);
  EXPECT_EQ(MaxAgeOf("public"), std::nullopt);
  EXPECT_EQ(MaxAgeOf("max-age=-5"), std::nullopt);
  EXPECT_EQ(MaxAgeOf("max-age=ten"), std::nullopt);
  EXPECT_EQ(MaxAgeOf("max-age="), std::nullopt);
  EXPECT_EQ(MaxAgeOf("s-maxage=10"), std::nullopt);
  // Absurdly long numbers are clamped, not overflowed.
  EXPECT_GT(MaxAgeOf("max-age=99999999999999999999999999"), seconds(86400));
}

TEST(JwksRefreshPolicyTest, TheFirstFetchIsDueAtOnce) {
  JwksRefreshPolicy policy(seconds(60), seconds(3600));
  EXPECT_TRUE(policy.FetchDue(kStart));
}

TEST(JwksRefreshPolicyTest, FollowsMaxAgeWithinTheBounds) {
  struct Case {
    std::optional<seconds> max_age;
    seconds kept;
  };
  for (const Case& c : {Case{seconds(300), seconds(300)}, Case{seconds(5), seconds(60)},
                        Case{seconds(0), seconds(60)}, Case{seconds(86400), seconds(3600)},
                        Case{std::nullopt, seconds(3600)}}) {
    JwksRefreshPolicy policy(seconds(60), seconds(3600));
    policy.FetchStarted(kStart);
    policy.FetchSucceeded(kStart, c.max_age);
    EXPECT_FALSE(policy.FetchDue(kStart + c.kept - seconds(1))) << c.kept.count();
    EXPECT_TRUE(policy.FetchDue(kStart + c.kept)) << c.kept.count();
    EXPECT_EQ(policy.next_fetch(), kStart + c.kept);
  }
}

TEST(JwksRefreshPolicyTest, RetriesAFailedFetchAfterTheMinimumInterval) {
  JwksRefreshPolicy policy(seconds(60), seconds(3600));
  policy.FetchStarted(kStart);
  policy.FetchSucceeded(kStart, seconds(600));
  const TimePoint expiry = kStart + seconds(600);
  policy.FetchStarted(expiry);
  policy.FetchFailed(expiry);
  EXPECT_FALSE(policy.FetchDue(expiry + seconds(1)));
  EXPECT_FALSE(policy.FetchDue(expiry + seconds(59)));
  EXPECT_TRUE(policy.FetchDue(expiry + seconds(60)));
}

TEST(JwksRefreshPolicyTest, UnknownKidsFetchEarlyAtMostOncePerMinimumInterval) {
  JwksRefreshPolicy policy(seconds(60), seconds(3600));
  policy.FetchStarted(kStart);
  policy.FetchSucceeded(kStart, seconds(3600));

  // Within the minimum interval of the last fetch, an unknown kid waits.
  policy.NoteUnknownKid();
  EXPECT_FALSE(policy.FetchDue(kStart + seconds(30)));
  // Once it is over, the kid noted earlier is enough.
  EXPECT_TRUE(policy.FetchDue(kStart + seconds(60)));
  policy.FetchStarted(kStart + seconds(60));
  policy.FetchSucceeded(kStart + seconds(60), seconds(3600));
  EXPECT_FALSE(policy.FetchDue(kStart + seconds(61)));

  // A flood of forged kids: one fetch per interval, however many arrive.
  int fetches = 0;
  for (int second = 61; second < 61 + 600; ++second) {
    policy.NoteUnknownKid();
    const TimePoint now = kStart + seconds(second);
    if (policy.FetchDue(now)) {
      ++fetches;
      policy.FetchStarted(now);
      policy.FetchSucceeded(now, seconds(3600));
    }
  }
  EXPECT_EQ(fetches, 10);
}

TEST(JwksRefreshPolicyTest, AnUnknownKidAfterAFailedFetchWaitsToo) {
  JwksRefreshPolicy policy(seconds(10), seconds(100));
  policy.FetchStarted(kStart);
  policy.FetchFailed(kStart);
  policy.NoteUnknownKid();
  EXPECT_FALSE(policy.FetchDue(kStart + seconds(9)));
  EXPECT_TRUE(policy.FetchDue(kStart + seconds(10)));
}

TEST(JwksRefreshPolicyTest, AFetchAnswersTheUnknownKidsNotedBeforeIt) {
  JwksRefreshPolicy policy(seconds(10), seconds(100));
  policy.FetchStarted(kStart);
  policy.FetchSucceeded(kStart, std::nullopt);
  policy.NoteUnknownKid();
  policy.FetchStarted(kStart + seconds(10));
  policy.FetchSucceeded(kStart + seconds(10), std::nullopt);
  EXPECT_FALSE(policy.FetchDue(kStart + seconds(25)));
  EXPECT_TRUE(policy.FetchDue(kStart + seconds(110)));
}

// What the background thread sleeps until (JwksKeySet::RefreshInBackground).
TEST(JwksRefreshPolicyTest, NextDueIsTheScheduleOrTheRateLimitedUnknownKid) {
  JwksRefreshPolicy policy(seconds(10), seconds(100));
  EXPECT_EQ(policy.NextDue(kStart), kStart) << "the first fetch is due at once";
  policy.FetchStarted(kStart);
  policy.FetchSucceeded(kStart, seconds(60));
  EXPECT_EQ(policy.NextDue(kStart + seconds(1)), kStart + seconds(60));
  policy.NoteUnknownKid();
  EXPECT_EQ(policy.NextDue(kStart + seconds(1)), kStart + seconds(10));
  EXPECT_EQ(policy.NextDue(kStart + seconds(12)), kStart + seconds(12)) << "due now";
  policy.FetchStarted(kStart + seconds(12));
  policy.FetchFailed(kStart + seconds(12));
  EXPECT_EQ(policy.NextDue(kStart + seconds(13)), kStart + seconds(22));
}

}  // namespace
}  // namespace netgraph::auth
