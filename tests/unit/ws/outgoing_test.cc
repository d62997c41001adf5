#include "ws/outgoing.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

namespace netgraph::ws {
namespace {

TEST(OutgoingMessageTest, CopiesHeadSharedPayloadAndTail) {
  OutgoingMessage message;
  message.head = "<";
  message.shared = std::make_shared<const std::string>("payload");
  message.tail = ">";
  ASSERT_EQ(message.size(), 9u);
  std::vector<unsigned char> out(message.size());
  message.CopyTo(out.data());
  EXPECT_EQ(std::string(out.begin(), out.end()), "<payload>");
}

TEST(OutgoingQueueTest, KeepsOrderAndCountsBytes) {
  OutgoingQueue queue({10, 1000});
  ASSERT_TRUE(queue.Push(OutgoingMessage::Text("one")));
  ASSERT_TRUE(queue.Push(OutgoingMessage::Text("three")));
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue.bytes(), 8u);
  EXPECT_EQ(queue.front().head, "one");
  queue.Pop();
  EXPECT_EQ(queue.front().head, "three");
  EXPECT_EQ(queue.bytes(), 5u);
  queue.Clear();
  EXPECT_TRUE(queue.empty());
  EXPECT_EQ(queue.bytes(), 0u);
}

TEST(OutgoingQueueTest, RefusesPastTheMessageLimit) {
  OutgoingQueue queue({2, 1000});
  EXPECT_TRUE(queue.Push(OutgoingMessage::Text("a")));
  EXPECT_TRUE(queue.Push(OutgoingMessage::Text("b")));
  EXPECT_FALSE(queue.Push(OutgoingMessage::Text("c")));
  EXPECT_EQ(queue.size(), 2u);
  EXPECT_EQ(queue.bytes(), 2u);
}

TEST(OutgoingQueueTest, RefusesPastTheByteLimit) {
  OutgoingQueue queue({100, 10});
  EXPECT_TRUE(queue.Push(OutgoingMessage::Text("123456")));
  EXPECT_FALSE(queue.Push(OutgoingMessage::Text("12345")));
  EXPECT_TRUE(queue.Push(OutgoingMessage::Text("1234")));
  EXPECT_EQ(queue.bytes(), 10u);
}

TEST(OutgoingQueueTest, SharedPayloadsCountTowardTheBytes) {
  OutgoingQueue queue({100, 10});
  OutgoingMessage message;
  message.shared = std::make_shared<const std::string>(std::string(8, 'x'));
  EXPECT_TRUE(queue.Push(message));
  EXPECT_FALSE(queue.Push(message));
}

TEST(OutgoingQueueTest, AnEmptyQueueTakesOneMessageOfAnySize) {
  OutgoingQueue queue({1, 4});
  EXPECT_TRUE(queue.Push(OutgoingMessage::Text(std::string(100, 'x'))));
  EXPECT_FALSE(queue.Push(OutgoingMessage::Text("x")));
}

}  // namespace
}  // namespace netgraph::ws
