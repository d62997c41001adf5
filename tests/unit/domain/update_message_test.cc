#include "core/domain/update_message.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>

namespace netgraph::domain {
namespace {

constexpr std::size_t kLimit = 256 * 1024;

TEST(UpdateMessageParseTest, ReadsAnObjectAndThePublisherSequence) {
  Result<UpdateMessage> update = UpdateMessage::Parse(
      R"({"nodes":[],"links":[],"metadata":{"nodeCount":0},"sequence":41})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(update->event["metadata"]["nodeCount"], 0);
  EXPECT_EQ(update->sequence, 41);
  // The message's own members are not the event's.
  EXPECT_FALSE(update->event.contains("sequence"));
}

TEST(UpdateMessageParseTest, ReadsWhenThePublisherAppendedIt) {
  Result<UpdateMessage> update =
      UpdateMessage::Parse(R"({"sequence":41,"appendedAt":1795253401250000,"nodes":[]})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(update->appended_unix_us, 1795253401250000);
  // Not an integer: not said.
  update = UpdateMessage::Parse(R"({"sequence":41,"appendedAt":"yesterday"})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_FALSE(update->appended_unix_us.has_value());
}

TEST(UpdateMessageParseTest, ASequenceThatIsNotAnIntegerIsNotOne) {
  Result<UpdateMessage> update = UpdateMessage::Parse(R"({"nodes":[],"sequence":"41"})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_FALSE(update->sequence.has_value());
}

TEST(UpdateMessageParseTest, RefusesWhatIsNotAJsonObject) {
  for (const char* text : {"not json", "[1,2]", ""}) {
    Result<UpdateMessage> refused = UpdateMessage::Parse(text, kLimit);
    ASSERT_FALSE(refused.ok()) << text;
    EXPECT_TRUE(refused.status().IsInvalidArgument()) << text;
  }
}

// Published messages get the limits of client JSON: deep nesting would overflow the stack of the
// recursive walks that follow (Value::FromJson), a huge message the process's memory.
TEST(UpdateMessageParseTest, RefusesWhatNestsTooDeepOrIsTooLarge) {
  const std::size_t depth = 100000;
  std::string deep = R"({"nodes":)" + std::string(depth, '[') + std::string(depth, ']') + "}";
  Result<UpdateMessage> too_deep = UpdateMessage::Parse(deep, deep.size());
  ASSERT_FALSE(too_deep.ok());
  EXPECT_TRUE(too_deep.status().IsInvalidArgument());
  EXPECT_NE(too_deep.status().message().find("deeper"), std::string::npos);

  std::string at_limit = R"({"nodes":)" + std::string(63, '[') + std::string(63, ']') + "}";
  EXPECT_TRUE(UpdateMessage::Parse(at_limit, at_limit.size()).ok())
      << "64 levels, the object included";

  const std::string update = R"({"nodes":[],"sequence":1})";
  EXPECT_TRUE(UpdateMessage::Parse(update, update.size()).ok());
  Result<UpdateMessage> too_large = UpdateMessage::Parse(update, update.size() - 1);
  ASSERT_FALSE(too_large.ok());
  EXPECT_TRUE(too_large.status().IsResourceExhausted());
}

TEST(UpdateMessageParseTest, ReadsTheEpochAndBoundsIt) {
  Result<UpdateMessage> update = UpdateMessage::Parse(R"({"sequence":3,"epoch":"e-1"})", kLimit);
  ASSERT_TRUE(update.ok());
  EXPECT_EQ(update->epoch, "e-1");
  EXPECT_TRUE(UpdateMessage::Parse(R"({"sequence":3,"epoch":7})", kLimit)->epoch.empty());
  const std::string long_epoch(kMaxEpochBytes + 1, 'e');
  Result<UpdateMessage> refused =
      UpdateMessage::Parse(R"({"sequence":3,"epoch":")" + long_epoch + "\"}", kLimit);
  ASSERT_FALSE(refused.ok());
  EXPECT_TRUE(refused.status().IsInvalidArgument());
}

TEST(UpdateMessageWriteTest, WritesTheNumberFirstThenTheEpochTheAppendTimeAndTheEvent) {
  UpdateMessage message;
  message.sequence = 7;
  message.epoch = "e-2";
  message.appended_unix_us = 1795253401250000;
  message.event = {{"nodes", nlohmann::json::array()}, {"metadata", {{"nodeCount", 0}}}};
  EXPECT_EQ(message.Write(), R"({"sequence":7,"epoch":"e-2","appendedAt":1795253401250000,)"
                             R"("metadata":{"nodeCount":0},"nodes":[]})");
}

TEST(UpdateMessageWriteTest, LeavesOutWhatIsNotSaid) {
  UpdateMessage message;
  EXPECT_EQ(message.Write(), "{}");
  message.event = {{"n", nullptr}};
  EXPECT_EQ(message.Write(), R"({"n":null})");
  message.sequence = 1;
  EXPECT_EQ(message.Write(), R"({"sequence":1,"n":null})");
}

// What one end writes the other reads as it was written, and what a reader got it writes again
// unchanged: the relay re-writes a stored message with the epoch it publishes under.
TEST(UpdateMessageWriteTest, WhatIsWrittenParsesBackAndWritesTheSame) {
  UpdateMessage message;
  message.sequence = 12;
  message.epoch = "3f1c0e2a-epoch";
  message.appended_unix_us = 5;
  message.event = {{"links", nlohmann::json::array()}, {"label", "\"quoted\" \\ text"}};
  const std::string text = message.Write();
  Result<UpdateMessage> read = UpdateMessage::Parse(text, kLimit);
  ASSERT_TRUE(read.ok()) << read.status().message();
  EXPECT_EQ(read->sequence, 12);
  EXPECT_EQ(read->epoch, "3f1c0e2a-epoch");
  EXPECT_EQ(read->appended_unix_us, 5);
  EXPECT_EQ(read->event, message.event);
  EXPECT_EQ(read->Write(), text);
}

// An event naming one of the message's members does not override it.
TEST(UpdateMessageWriteTest, TheEventCannotSayTheMessagesOwnMembers) {
  UpdateMessage message;
  message.sequence = 3;
  message.event = {{"sequence", 99}, {"epoch", "other"}, {"n", 1}};
  EXPECT_EQ(message.Write(), R"({"sequence":3,"n":1})");
}

}  // namespace
}  // namespace netgraph::domain
