#include "ws/update.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/graphql/engine.h"

namespace netgraph::ws {
namespace {

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
