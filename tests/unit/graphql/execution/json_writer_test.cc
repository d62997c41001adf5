#include "core/graphql/execution/json_writer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

namespace netgraph::graphql::json {
namespace {

std::string Quoted(std::string_view text) { return Quote(text); }

TEST(JsonWriterTest, EscapesAsJsonStringify) {
  EXPECT_EQ(Quoted("plain"), "\"plain\"");
  EXPECT_EQ(Quoted("a\"b\\c"), "\"a\\\"b\\\\c\"");
  EXPECT_EQ(Quoted("\b\f\n\r\t"), "\"\\b\\f\\n\\r\\t\"");
  EXPECT_EQ(Quoted(std::string("\x00\x01\x1f", 3)), "\"\\u0000\\u0001\\u001f\"");
  // DEL, U+2028 and non-ASCII characters stay as they are.
  EXPECT_EQ(Quoted("\x7f\xe2\x80\xa8\xc3\xa9\xf0\x9f\x98\x80"),
            "\"\x7f\xe2\x80\xa8\xc3\xa9\xf0\x9f\x98\x80\"");
  EXPECT_EQ(Quoted(""), "\"\"");
}

TEST(JsonWriterTest, ReplacesMalformedUtf8) {
  // A lone continuation byte, a truncated sequence, an overlong encoding, a UTF-16 surrogate and a
  // byte that never occurs in UTF-8: each maximal malformed subpart becomes one U+FFFD.
  EXPECT_EQ(Quoted("a\x80z"), "\"a\xef\xbf\xbdz\"");
  EXPECT_EQ(Quoted("\xe2\x82"), "\"\xef\xbf\xbd\"");
  EXPECT_EQ(Quoted("\xc0\xaf"), "\"\xef\xbf\xbd\xef\xbf\xbd\"");
  EXPECT_EQ(Quoted("\xed\xa0\x80"), "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
  EXPECT_EQ(Quoted("\xff"), "\"\xef\xbf\xbd\"");
}

TEST(JsonWriterTest, ArbitraryBytesAlwaysMakeValidJson) {
  std::string all_bytes;
  for (int byte = 0; byte < 256; ++byte) all_bytes.push_back(static_cast<char>(byte));
  const std::string quoted = Quoted(all_bytes + all_bytes.substr(100));
  nlohmann::json parsed = nlohmann::json::parse(quoted, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded());
  EXPECT_EQ(parsed.get<std::string>().substr(0, 128), all_bytes.substr(0, 128));
}

TEST(JsonWriterTest, WritesNumbersAsJavaScript) {
  ResponseBuffer out;
  AppendInt(-42, &out);
  out.Append(' ');
  AppendNumber(1.5, &out);
  out.Append(' ');
  AppendNumber(1e21, &out);
  out.Append(' ');
  AppendNumber(1e-7, &out);
  out.Append(' ');
  AppendNumber(-0.0, &out);
  out.Append(' ');
  AppendNumber(std::numeric_limits<double>::quiet_NaN(), &out);
  out.Append(' ');
  AppendNumber(std::numeric_limits<double>::infinity(), &out);
  EXPECT_EQ(out.view(), "-42 1.5 1e+21 1e-7 0 null null");
}

TEST(JsonWriterTest, WritesValuesInFieldOrder) {
  Value value = Value::MakeObject(
      {{"z", Value::Int(1)},
       {"a", Value::MakeList({Value(), Value::Boolean(true), Value::Float(2.25)})},
       {"m", Value::String("x")},
       {"h", Value::Host<int>(std::make_shared<const int>(3))}});
  ResponseBuffer out(1);  // grows as it goes
  AppendValue(value, &out);
  EXPECT_EQ(out.Release(), R"({"z":1,"a":[null,true,2.25],"m":"x","h":null})");
}

TEST(JsonWriterTest, WritesErrorsInGraphqlJsOrder) {
  std::vector<Error> errors;
  errors.push_back(Error{"plain", {}, {}, {}});
  errors.push_back(Error{"full",
                         {{1, 2}, {3, 4}},
                         Value::MakeList({Value::String("a"), Value::Int(0)}),
                         Value::MakeObject({{"code", Value::String("X")}})});
  errors.push_back(Error{"empty extensions", {}, {}, Value::MakeObject({})});
  EXPECT_EQ(ErrorsList(errors),
            R"([{"message":"plain"},)"
            R"({"message":"full","locations":[{"line":1,"column":2},{"line":3,"column":4}],)"
            R"("path":["a",0],"extensions":{"code":"X"}},{"message":"empty extensions"}])");
}

}  // namespace
}  // namespace netgraph::graphql::json
