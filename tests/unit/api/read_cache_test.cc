// The read cache's rules (core/api/read_cache.h) with a generation counter in memory.
#include "core/api/read_cache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>

#include "tests/unit/api/counting_generation.h"

namespace netgraph::api {
namespace {

using graphql::Value;
using std::chrono::seconds;
using testing::CountingGeneration;

class ReadCacheTest : public ::testing::Test {
 protected:
  // The answer for `key`, counting the reads that reached "the database".
  std::string Get(ReadCache& cache, const std::string& key,
                  std::optional<ReadCache::Clock::time_point> valid_until = std::nullopt,
                  ReadCache::Clock::time_point now = kNow) {
    Result<Value> value = cache.Get(key, now, [&]() -> Result<ReadCache::Fresh> {
      ++reads;
      return ReadCache::Fresh{Value::String(key + "#" + std::to_string(reads)), valid_until};
    });
    EXPECT_TRUE(value.ok());
    return value.ok() ? value->as_string() : std::string();
  }

  static constexpr ReadCache::Clock::time_point kNow = ReadCache::Clock::time_point(seconds(1000));
  CountingGeneration generation;
  int reads = 0;
};

TEST_F(ReadCacheTest, KeepsTheDigestOfAnAnswerAndPeeksAtItWithoutReading) {
  ReadCache cache(8, 1 << 20);
  cache.Attach(&generation);
  EXPECT_EQ(cache.Peek("k", kNow), std::nullopt);
  const auto read = [&]() -> Result<ReadCache::Fresh> {
    ++reads;
    return ReadCache::Fresh{Value::String("answer"), kNow + seconds(10),
                            "d" + std::to_string(reads)};
  };
  std::string digest;
  ASSERT_TRUE(cache.Get("k", kNow, read, &digest).ok());
  EXPECT_EQ(digest, "d1");
  digest.clear();
  ASSERT_TRUE(cache.Get("k", kNow, read, &digest).ok());
  EXPECT_EQ(digest, "d1") << "from memory";
  EXPECT_EQ(cache.Peek("k", kNow + seconds(9)), "d1");
  EXPECT_EQ(cache.Peek("k", kNow + seconds(10)), std::nullopt) << "no longer valid";
  EXPECT_EQ(cache.Peek("other", kNow), std::nullopt);
  generation.Advance();
  EXPECT_EQ(cache.Peek("k", kNow), std::nullopt) << "read at an older generation";
  EXPECT_EQ(reads, 1);
}

TEST_F(ReadCacheTest, AnswersFromMemoryUntilTheGenerationAdvances) {
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  EXPECT_EQ(Get(cache, "a"), "a#1");
  EXPECT_EQ(Get(cache, "a"), "a#1");
  EXPECT_EQ(reads, 1);
  generation.Advance();
  EXPECT_EQ(Get(cache, "a"), "a#2");
  EXPECT_EQ(Get(cache, "a"), "a#2");
  EXPECT_EQ(reads, 2);
}

TEST_F(ReadCacheTest, CountsItsHitsAndMisses) {
  const std::uint64_t hits = kReadCacheHits.Read();
  const std::uint64_t misses = kReadCacheMisses.Read();
  ReadCache off(4, 1 << 20);
  Get(off, "a");
  EXPECT_EQ(kReadCacheMisses.Read(), misses) << "off: not a cache";
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  for (int i = 0; i < 3; ++i) Get(cache, "a");
  generation.Advance();
  Get(cache, "a");
  EXPECT_EQ(kReadCacheHits.Read(), hits + 2);
  EXPECT_EQ(kReadCacheMisses.Read(), misses + 2);
}

TEST_F(ReadCacheTest, AnAnswerReadWhileTheGenerationAdvancesIsNotKeptAsCurrent) {
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  // A change commits (and advances the generation) while the database is being read.
  Result<Value> racing = cache.Get("a", kNow, [&]() -> Result<ReadCache::Fresh> {
    generation.Advance();
    return ReadCache::Fresh{Value::String("before the change"), std::nullopt};
  });
  ASSERT_TRUE(racing.ok());
  EXPECT_EQ(Get(cache, "a"), "a#1") << "read again at the new generation";
}

TEST_F(ReadCacheTest, AnAnswerThatChangesWithTimeIsReadAgainFromThatInstant) {
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  const auto until = kNow + seconds(5);
  EXPECT_EQ(Get(cache, "a", until), "a#1");
  EXPECT_EQ(Get(cache, "a", until, kNow + seconds(4)), "a#1");
  EXPECT_EQ(Get(cache, "a", std::nullopt, until), "a#2");
  EXPECT_EQ(Get(cache, "a", std::nullopt, until + seconds(100)), "a#2");
}

TEST_F(ReadCacheTest, KeepsAtMostItsCapacityDroppingTheLeastRecentlyUsed) {
  ReadCache cache(2, 1 << 20);
  cache.Attach(&generation);
  Get(cache, "a");
  Get(cache, "b");
  Get(cache, "a");  // b is now the least recently used
  Get(cache, "c");
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(reads, 3);
  EXPECT_EQ(Get(cache, "a"), "a#1");
  EXPECT_EQ(Get(cache, "b"), "b#4");
}

TEST_F(ReadCacheTest, KeepsAtMostItsBytesAndNothingLargerThanThem) {
  const std::size_t one = ReadCache::EntryBytes("a", Value::String("a#1"));
  ReadCache cache(16, 2 * one);
  cache.Attach(&generation);
  Get(cache, "a");
  Get(cache, "b");
  Get(cache, "c");  // a goes: three do not fit
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_LE(cache.bytes(), 2 * one);
  EXPECT_EQ(Get(cache, "c"), "c#3");
  EXPECT_EQ(Get(cache, "a"), "a#4");

  ReadCache small(16, one - 1);
  small.Attach(&generation);
  EXPECT_EQ(Get(small, "a"), "a#5");
  EXPECT_EQ(Get(small, "a"), "a#6") << "too large to keep";
  EXPECT_EQ(small.size(), 0u);
}

// A key is held as long as its answer: a small answer under a large key counts as large.
TEST_F(ReadCacheTest, CountsTheBytesOfTheKeysToo) {
  ReadCache cache(16, 16 * 1024);
  cache.Attach(&generation);
  auto small = [&](const std::string& key) {
    return cache.Get(key, kNow, [&]() -> Result<ReadCache::Fresh> {
      ++reads;
      return ReadCache::Fresh{Value::String("small"), std::nullopt};
    });
  };
  const std::string large(64 * 1024, 'k');
  ASSERT_TRUE(small(large).ok());
  ASSERT_TRUE(small(large).ok());
  EXPECT_EQ(reads, 2) << "a key larger than the bound is not kept";
  EXPECT_EQ(cache.size(), 0u);

  const std::string medium(6 * 1024, 'm');
  ASSERT_TRUE(small(medium + "1").ok());
  ASSERT_TRUE(small(medium + "2").ok());
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_GE(cache.bytes(), 2 * medium.size());
  ASSERT_TRUE(small(medium + "3").ok());  // three such keys do not fit in 16 KiB
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_LE(cache.bytes(), 16u * 1024);
}

TEST_F(ReadCacheTest, ReportsWhatItHoldsAsAGauge) {
  ReadCache cache(16, 1 << 20);
  cache.Attach(&generation);
  Get(cache, "a");
  Get(cache, std::string(1000, 'b'));
  EXPECT_GT(cache.bytes(), 1000u);
  EXPECT_EQ(kReadCacheBytes.Read(), cache.bytes());
  generation.Advance();
  Get(cache, "a");
  EXPECT_EQ(cache.size(), 1u);
  EXPECT_EQ(kReadCacheBytes.Read(), cache.bytes());
}

TEST_F(ReadCacheTest, CountsTheMemoryOfNestedAnswers) {
  const Value node = Value::MakeObject({{"id", Value::String(std::string(100, 'x'))}});
  const Value list = Value::MakeList({node, node, node});
  EXPECT_GE(ReadCache::ApproximateBytes(node), 100 + 2 * sizeof(Value));
  EXPECT_GE(ReadCache::ApproximateBytes(list), 3 * ReadCache::ApproximateBytes(node));
}

TEST_F(ReadCacheTest, ErrorsAreNotKept) {
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  Result<Value> failed = cache.Get("a", kNow, []() -> Result<ReadCache::Fresh> {
    return Status::Unavailable("the database is down");
  });
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(Get(cache, "a"), "a#1");
}

// A whole answer built from the answers of its fields (a GraphQL response from networkGraph and
// investmentData): `inner_until` is when the inner answer "a" stops being valid.
class NestedReadCacheTest : public ReadCacheTest {
 protected:
  std::string GetOuter(
      ReadCache& cache, ReadCache::Clock::time_point now,
      std::optional<ReadCache::Clock::time_point> inner_until,
      const std::function<void()>& before_inner = [] {}) {
    Result<Value> value = cache.Get("outer", now, [&]() -> Result<ReadCache::Fresh> {
      ++outer_reads;
      before_inner();
      return ReadCache::Fresh{Value::String("[" + Get(cache, "a", inner_until, now) + "]"),
                              std::nullopt};
    });
    EXPECT_TRUE(value.ok());
    return value.ok() ? value->as_string() : std::string();
  }
  int outer_reads = 0;
};

TEST_F(NestedReadCacheTest, AnAnswerBuiltFromOthersIsValidUntilTheEarliestOfThem) {
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  const auto until = kNow + seconds(5);
  EXPECT_EQ(GetOuter(cache, kNow, until), "[a#1]");
  EXPECT_EQ(GetOuter(cache, kNow + seconds(4), until), "[a#1]");
  EXPECT_EQ(outer_reads, 1);
  // The inner answer is due again at `until`, so the outer one is too, though it named no instant.
  EXPECT_EQ(GetOuter(cache, until, std::nullopt), "[a#2]");
  EXPECT_EQ(outer_reads, 2);
}

TEST_F(NestedReadCacheTest, OnlyTheOutermostReadCountsAsAHitOrAMiss) {
  const std::uint64_t hits = kReadCacheHits.Read();
  const std::uint64_t misses = kReadCacheMisses.Read();
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  GetOuter(cache, kNow, std::nullopt);  // a miss, with its inner miss not counted
  GetOuter(cache, kNow, std::nullopt);  // a hit
  generation.Advance();
  Get(cache, "a");  // read whole again elsewhere: a miss; then the outer one misses, its inner hits
  GetOuter(cache, kNow, std::nullopt);
  EXPECT_EQ(kReadCacheHits.Read(), hits + 1);
  EXPECT_EQ(kReadCacheMisses.Read(), misses + 3);
}

TEST_F(NestedReadCacheTest, AReadThatThrowsLeavesTheCacheCountingAsBefore) {
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  EXPECT_THROW(
      cache.Get("outer", kNow,
                []() -> Result<ReadCache::Fresh> { throw std::runtime_error("resolver"); }),
      std::runtime_error);
  const std::uint64_t misses = kReadCacheMisses.Read();
  Get(cache, "a");
  EXPECT_EQ(kReadCacheMisses.Read(), misses + 1) << "counted: outermost";
}

TEST_F(NestedReadCacheTest, AnOuterAnswerFromMemoryLimitsItsOwnReaderToo) {
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  const auto until = kNow + seconds(5);
  EXPECT_EQ(GetOuter(cache, kNow, until), "[a#1]");
  // A third level reading "outer" from memory learns its instant as well.
  Result<Value> outermost = cache.Get("outermost", kNow, [&]() -> Result<ReadCache::Fresh> {
    return ReadCache::Fresh{Value::String(GetOuter(cache, kNow, until)), std::nullopt};
  });
  ASSERT_TRUE(outermost.ok());
  int outermost_reads = 0;
  Result<Value> later = cache.Get("outermost", until, [&]() -> Result<ReadCache::Fresh> {
    ++outermost_reads;
    return ReadCache::Fresh{Value::String("again"), std::nullopt};
  });
  ASSERT_TRUE(later.ok());
  EXPECT_EQ(outermost_reads, 1);
}

TEST_F(NestedReadCacheTest, AnAnswerThatUsedANewerGenerationIsHandedOutButNotKept) {
  ReadCache cache(4, 1 << 20);
  cache.Attach(&generation);
  // A change commits after the outer read began and before its field is read: the outer answer
  // may mix data from before and after, so it must not be kept under either generation.
  EXPECT_EQ(GetOuter(cache, kNow, std::nullopt, [&] { generation.Advance(); }), "[a#1]");
  EXPECT_EQ(GetOuter(cache, kNow, std::nullopt), "[a#1]");
  EXPECT_EQ(outer_reads, 2) << "read again, though the generation did not move since";
  EXPECT_EQ(GetOuter(cache, kNow, std::nullopt), "[a#1]");
  EXPECT_EQ(outer_reads, 2) << "kept once read at one generation";
}

TEST_F(ReadCacheTest, WithoutAGenerationEveryGetReads) {
  ReadCache cache(4, 1 << 20);
  EXPECT_FALSE(cache.enabled());
  EXPECT_EQ(Get(cache, "a"), "a#1");
  EXPECT_EQ(Get(cache, "a"), "a#2");
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
}  // namespace netgraph::api
