#include "ws/update.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/graphql/engine.h"

namespace netgraph::ws {
namespace {

constexpr std::size_t kLimit = 256 * 1024;

TEST(ParseUpdateTest, ReadsAnObjectAndThePublisherSequence) {
  Result<PublishedUpdate> update =
      ParseUpdate(R"({"nodes":[],"links":[],"metadata":{"nodeCount":0},"sequence":41})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(update->event["metadata"]["nodeCount"], 0);
  EXPECT_EQ(update->publisher_sequence, 41);
}

TEST(ParseUpdateTest, ReadsWhenThePublisherAppendedIt) {
  Result<PublishedUpdate> update =
      ParseUpdate(R"({"sequence":41,"appendedAt":1795253401250000,"nodes":[]})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(update->appended_unix_us, 1795253401250000);
  // Not an integer: not said.
  update = ParseUpdate(R"({"sequence":41,"appendedAt":"yesterday"})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_FALSE(update->appended_unix_us.has_value());
}

TEST(ParseUpdateTest, ASequenceThatIsNotAnIntegerIsNotOne) {
  Result<PublishedUpdate> update = ParseUpdate(R"({"nodes":[],"sequence":"41"})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_FALSE(update->publisher_sequence.has_value());
}

TEST(ParseUpdateTest, RefusesWhatIsNotAJsonObject) {
  EXPECT_FALSE(ParseUpdate("not json", kLimit).ok());
  EXPECT_FALSE(ParseUpdate("[1,2]", kLimit).ok());
  EXPECT_FALSE(ParseUpdate("", kLimit).ok());
}

// Published messages get the limits of client JSON: deep nesting would overflow the stack of the
// recursive walks that follow (Value::FromJson), a huge message the process's memory.
TEST(ParseUpdateTest, RefusesWhatNestsTooDeepOrIsTooLarge) {
  const std::size_t depth = 100000;
  std::string deep = R"({"nodes":)" + std::string(depth, '[') + std::string(depth, ']') + "}";
  Result<PublishedUpdate> too_deep = ParseUpdate(deep, deep.size());
  ASSERT_FALSE(too_deep.ok());
  EXPECT_NE(too_deep.status().message().find("deeper"), std::string::npos);

  std::string at_limit = R"({"nodes":)" + std::string(63, '[') + std::string(63, ']') + "}";
  EXPECT_TRUE(ParseUpdate(at_limit, at_limit.size()).ok()) << "64 levels, the object included";

  const std::string update = R"({"nodes":[],"sequence":1})";
  EXPECT_TRUE(ParseUpdate(update, update.size()).ok());
  Result<PublishedUpdate> too_large = ParseUpdate(update, update.size() - 1);
  ASSERT_FALSE(too_large.ok());
  EXPECT_NE(too_large.status().message().find("exceeds"), std::string::npos);
}

TEST(StampExtensionsTest, AddsExtensionsToAResult) {
  graphql::ExecutionResult result{true, R"({"a":1})", {}};
  nlohmann::json stamped =
      nlohmann::json::parse(result.Body(StampExtensions(UpdateStamp{3, std::nullopt})));
  EXPECT_EQ(stamped, nlohmann::json::parse(R"({"data":{"a":1},"extensions":{"sequence":3}})"));
}

TEST(StampExtensionsTest, CarriesThePublisherSequence) {
  graphql::ExecutionResult result{true, "null", R"([{"message":"x"}])"};
  nlohmann::json stamped = nlohmann::json::parse(result.Body(StampExtensions(UpdateStamp{3, 99})));
  EXPECT_EQ(stamped["extensions"],
            nlohmann::json::parse(R"({"sequence":3,"publisherSequence":99})"));
  EXPECT_EQ(stamped["errors"][0]["message"], "x");
  EXPECT_TRUE(stamped["data"].is_null());
}

TEST(ParseUpdateTest, ReadsTheEpochAndBoundsIt) {
  Result<PublishedUpdate> update = ParseUpdate(R"({"sequence":3,"epoch":"e-1"})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(update->epoch, "e-1");
  EXPECT_TRUE(ParseUpdate(R"({"sequence":3,"epoch":7})", kLimit)->epoch.empty());
  const std::string long_epoch(kMaxEpochBytes + 1, 'e');
  EXPECT_FALSE(ParseUpdate(R"({"sequence":3,"epoch":")" + long_epoch + "\"}", kLimit).ok());
}

TEST(SequencerTest, CountsUpdatesOneByOne) {
  Sequencer sequencer;
  EXPECT_EQ(sequencer.Deliver(std::nullopt).sequence, 1);
  EXPECT_EQ(sequencer.Deliver(std::nullopt).sequence, 2);
  UpdateStamp third = sequencer.Deliver(17);
  EXPECT_EQ(third.sequence, 3);
  EXPECT_EQ(third.publisher_sequence, 17);
}

TEST(SequencerTest, SkipsOneAfterAPossibleLoss) {
  Sequencer sequencer;
  sequencer.Deliver(std::nullopt);
  sequencer.MarkPossibleLoss();
  EXPECT_EQ(sequencer.Deliver(std::nullopt).sequence, 3);
  EXPECT_EQ(sequencer.Deliver(std::nullopt).sequence, 4);
}

TEST(SequencerTest, PlacesPublisherNumbersAfterTheLastDelivered) {
  Sequencer sequencer;
  EXPECT_EQ(sequencer.PlaceOf(7), Sequencer::Place::kNext) << "the first one seen";
  sequencer.Follow("a", 6);
  sequencer.Deliver(7);
  EXPECT_EQ(sequencer.PlaceOf(8), Sequencer::Place::kNext);
  EXPECT_EQ(sequencer.PlaceOf(7), Sequencer::Place::kRepeat);
  EXPECT_EQ(sequencer.PlaceOf(3), Sequencer::Place::kRepeat);
  EXPECT_EQ(sequencer.PlaceOf(9), Sequencer::Place::kAfterGap);
  EXPECT_EQ(sequencer.Deliver(8).sequence, 2) << "consecutive numbers are no loss";
}

TEST(SequencerTest, FollowingANewEpochFromItsStartSkipsOne) {
  Sequencer sequencer;
  sequencer.Follow("a", 5000);
  EXPECT_EQ(sequencer.PlaceOf(1), Sequencer::Place::kRepeat);
  EXPECT_EQ(sequencer.Deliver(5001).sequence, 1) << "the first epoch followed is no loss";
  // A restored database's new epoch starts after 4000: the ids after it are new.
  sequencer.Follow("b", 4000);
  EXPECT_EQ(sequencer.epoch(), "b");
  EXPECT_EQ(sequencer.PlaceOf(4000), Sequencer::Place::kRepeat);
  EXPECT_EQ(sequencer.PlaceOf(4001), Sequencer::Place::kNext);
  EXPECT_EQ(sequencer.PlaceOf(4002), Sequencer::Place::kAfterGap);
  EXPECT_EQ(sequencer.Deliver(4001).sequence, 3) << "clients resynchronise";
  sequencer.Follow("b", 4001);
  EXPECT_EQ(sequencer.Deliver(4002).sequence, 4) << "following the same epoch again is no loss";
}

}  // namespace
}  // namespace netgraph::ws
