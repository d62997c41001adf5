#include "fcgi/fastcgi/record.h"

#include <gtest/gtest.h>

#include <string>

namespace netgraph::fcgi::fastcgi {
namespace {

std::string Begin(std::uint16_t id, bool keep) {
  std::string out;
  AppendRecords(&out, kBeginRequest, id,
                std::string("\0\1", 2) + (keep ? '\1' : '\0') + std::string(5, '\0'));
  return out;
}

std::string Params(std::uint16_t id) {
  std::string pairs;
  AppendNameValuePair(&pairs, "REQUEST_METHOD", "POST");
  AppendNameValuePair(&pairs, "LONG", std::string(300, 'x'));
  std::string out;
  AppendRecords(&out, kParams, id, pairs);
  AppendRecords(&out, kParams, id, "");
  return out;
}

TEST(RequestAssemblerTest, AssemblesARequestFedOneByteAtATime) {
  std::string stream = Begin(1, true) + Params(1);
  AppendRecords(&stream, kStdin, 1, "body");
  AppendRecords(&stream, kStdin, 1, "");
  RequestAssembler assembler(Limits{});
  std::string input;
  std::string replies;
  RequestAssembler::Progress progress = RequestAssembler::Progress::kNeedMore;
  for (char byte : stream) {
    ASSERT_EQ(progress, RequestAssembler::Progress::kNeedMore);
    input.push_back(byte);
    progress = assembler.Consume(input, &replies);
  }
  ASSERT_EQ(progress, RequestAssembler::Progress::kReady);
  EXPECT_TRUE(replies.empty());
  const Request& request = assembler.request();
  EXPECT_EQ(request.id, 1);
  EXPECT_TRUE(request.keep_connection);
  ASSERT_EQ(request.params.size(), 2u);
  EXPECT_EQ(request.params[0].first, "REQUEST_METHOD");
  EXPECT_EQ(request.params[0].second, "POST");
  EXPECT_EQ(request.params[1].second, std::string(300, 'x'));
  EXPECT_EQ(request.body, "body");
  assembler.Next();
  EXPECT_FALSE(assembler.in_request());
}

TEST(RequestAssemblerTest, RefusesASecondRequestOnTheConnection) {
  std::string input = Begin(1, true) + Begin(2, true);
  RequestAssembler assembler(Limits{});
  std::string replies;
  EXPECT_EQ(assembler.Consume(input, &replies), RequestAssembler::Progress::kNeedMore);
  std::string expected;
  AppendEndRequest(&expected, 2, 0, kCantMultiplex);
  EXPECT_EQ(replies, expected);
}

TEST(RequestAssemblerTest, FailsOnParamsBeyondTheLimitAndOnBadVersions) {
  Limits limits;
  limits.max_params_bytes = 100;
  std::string input = Begin(1, false) + Params(1);
  RequestAssembler assembler(limits);
  std::string replies;
  EXPECT_EQ(assembler.Consume(input, &replies), RequestAssembler::Progress::kFailed);
  std::string garbage = "GET / HTTP/1.1\r\n";
  RequestAssembler other(Limits{});
  EXPECT_EQ(other.Consume(garbage, &replies), RequestAssembler::Progress::kFailed);
}

TEST(RequestAssemblerTest, DropsABodyBeyondTheLimitButCompletesTheRequest) {
  Limits limits;
  limits.max_stdin_bytes = 4;
  std::string input = Begin(1, true) + Params(1);
  AppendRecords(&input, kStdin, 1, "too long");
  AppendRecords(&input, kStdin, 1, "");
  RequestAssembler assembler(limits);
  std::string replies;
  ASSERT_EQ(assembler.Consume(input, &replies), RequestAssembler::Progress::kReady);
  EXPECT_TRUE(assembler.request().body_too_large);
  EXPECT_TRUE(assembler.request().body.empty());
}

TEST(ResponseFramesTest, SplitsTheStreamIntoRecordsEndedByEndRequest) {
  const std::string head = "Status: 200 OK\r\n\r\n";
  const std::string body(70000, 'b');
  ResponseFrames frames(7, {head, body});
  std::string wire;
  for (const iovec& segment : frames.segments())
    wire.append(static_cast<const char*>(segment.iov_base), segment.iov_len);
  std::string expected;
  AppendRecords(&expected, kStdout, 7, head + body);
  AppendRecords(&expected, kStdout, 7, "");
  AppendEndRequest(&expected, 7, 0, kRequestComplete);
  EXPECT_EQ(wire, expected);
}

}  // namespace
}  // namespace netgraph::fcgi::fastcgi
