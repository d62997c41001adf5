#include "ws/messages.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

namespace netgraph::ws {
namespace {

std::string Text(const OutgoingMessage& message) {
  std::string text(message.size(), '\0');
  message.CopyTo(reinterpret_cast<unsigned char*>(text.data()));
  return text;
}

TEST(MessagesTest, Envelopes) {
  EXPECT_EQ(Text(Message("connection_ack")), R"({"type":"connection_ack"})");
  EXPECT_EQ(Text(Message("pong", {{"a", 1}})), R"({"type":"pong","payload":{"a":1}})");
  EXPECT_EQ(Text(OperationMessage("complete", "7")), R"({"id":"7","type":"complete"})");
  EXPECT_EQ(Text(OperationMessage("error", "7", std::string_view(R"([{"message":"m"}])"))),
            R"({"id":"7","type":"error","payload":[{"message":"m"}]})");
}

TEST(MessagesTest, SharedPayloadIsNotCopied) {
  SharedText payload = std::make_shared<const std::string>(R"({"data":{}})");
  OutgoingMessage message = OperationMessage("next", "a\"b", payload);
  EXPECT_EQ(message.shared.get(), payload.get());
  EXPECT_EQ(nlohmann::json::parse(Text(message)),
            nlohmann::json::parse(R"({"id":"a\"b","type":"next","payload":{"data":{}}})"));
}

TEST(MessagesTest, CloseReasonsFitTheFrame) {
  EXPECT_EQ(LimitCloseReason("short", "fallback"), "short");
  EXPECT_EQ(LimitCloseReason(std::string(124, 'x'), "fallback"), "fallback");
  EXPECT_EQ(LimitCloseReason(std::string(123, 'x'), "fallback").size(), 123u);
}

TEST(MessagesTest, ParseIncomingRefusesDeepNesting) {
  EXPECT_FALSE(ParseIncoming(R"({"a":[1,{"b":2}]})").is_discarded());
  EXPECT_TRUE(ParseIncoming("{oops").is_discarded());
  EXPECT_TRUE(ParseIncoming(std::string(65, '[') + std::string(65, ']')).is_discarded());
  // Brackets inside strings do not count.
  EXPECT_FALSE(ParseIncoming(R"({"s":")" + std::string(100, '[') + R"("})").is_discarded());
}

// A parsed request takes many times its text: the bounds on queued requests count this.
TEST(MessagesTest, JsonHeldBytesCountsWhatTheParsedValueTakes) {
  EXPECT_EQ(JsonHeldBytes(nlohmann::json()), sizeof(nlohmann::json));
  EXPECT_EQ(JsonHeldBytes(nlohmann::json(7)), sizeof(nlohmann::json));
  // 2,000 bytes of text, 1,000 numbers of 16 bytes each.
  std::string text = "[0";
  for (int i = 1; i < 1000; ++i) text += ",0";
  text += "]";
  nlohmann::json numbers = ParseIncoming(text);
  EXPECT_GE(JsonHeldBytes(numbers), 1000 * sizeof(nlohmann::json));
  EXPECT_GT(JsonHeldBytes(numbers), 7 * text.size());
  // Long strings and keys count by their capacity; members by their nodes.
  const std::string long_text(5000, 'x');
  nlohmann::json object = {{"k", long_text}, {std::string(40, 'y'), 1}};
  EXPECT_GT(JsonHeldBytes(object), 5000 + 40 + 2 * sizeof(nlohmann::json));
  EXPECT_LT(JsonHeldBytes(object), 5000 + 40 + 1024);
  // Nested values count in full (a copy's array has no spare capacity).
  nlohmann::json nested = {{"a", {{"b", numbers}}}};
  EXPECT_GT(JsonHeldBytes(nested), 1000 * sizeof(nlohmann::json) + 2 * 64);
}

TEST(MessagesTest, MebibytesText) {
  EXPECT_EQ(MebibytesText(2 * 1024 * 1024), "2.0 MiB");
  EXPECT_EQ(MebibytesText(3 * 1024 * 1024 / 2), "1.5 MiB");
  EXPECT_EQ(MebibytesText(1000), "0.0 MiB");
}

}  // namespace
}  // namespace netgraph::ws
