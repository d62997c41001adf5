#include "core/graphql/execution/leaf_serializer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "core/graphql/type/build_schema.h"

namespace netgraph::graphql {
namespace {

class LeafSerializerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::vector<Error> errors;
    schema_ = BuildSchema(
        "scalar Date enum Color { RED GREEN } "
        "type Query { i: Int f: Float s: String b: Boolean id: ID c: Color d: Date }",
        &errors);
    ASSERT_NE(schema_, nullptr);
  }

  // The JSON written for `value` as a `type_name` result, or "error: <message>".
  std::string Serialize(std::string_view type_name, const Value& value) {
    const NamedType* type = schema_->FindType(type_name);
    ResponseBuffer out;
    Status serialized = SerializeLeaf(*type, LeafKindOf(*type), value, &out);
    if (!serialized.ok()) {
      EXPECT_TRUE(serialized.IsInvalidArgument());
      EXPECT_EQ(out.size(), 0u);
      return "error: " + serialized.message();
    }
    return out.Release();
  }

  std::unique_ptr<const Schema> schema_;
};

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInfinity = std::numeric_limits<double>::infinity();

TEST_F(LeafSerializerTest, Int) {
  EXPECT_EQ(Serialize("Int", Value::Int(-7)), "-7");
  EXPECT_EQ(Serialize("Int", Value::Float(3.0)), "3");
  EXPECT_EQ(Serialize("Int", Value::Float(-0.0)), "0");
  EXPECT_EQ(Serialize("Int", Value::Boolean(true)), "1");
  EXPECT_EQ(Serialize("Int", Value::String("12")), "12");
  EXPECT_EQ(Serialize("Int", Value::String(" 1e3 ")), "1000");
  EXPECT_EQ(Serialize("Int", Value::Float(1.5)),
            "error: Int cannot represent non-integer value: 1.5");
  EXPECT_EQ(Serialize("Int", Value::String("")),
            "error: Int cannot represent non-integer value: \"\"");
  EXPECT_EQ(Serialize("Int", Value::String("1x")),
            "error: Int cannot represent non-integer value: \"1x\"");
  EXPECT_EQ(Serialize("Int", Value::Int(2147483648)),
            "error: Int cannot represent non 32-bit signed integer value: 2147483648");
  EXPECT_EQ(Serialize("Int", Value::Float(-3e9)),
            "error: Int cannot represent non 32-bit signed integer value: -3000000000");
  EXPECT_EQ(Serialize("Int", Value::Float(kNaN)),
            "error: Int cannot represent non-integer value: NaN");
  EXPECT_EQ(Serialize("Int", Value::MakeList({Value::Int(1)})),
            "error: Int cannot represent non-integer value: [1]");
}

TEST_F(LeafSerializerTest, Float) {
  EXPECT_EQ(Serialize("Float", Value::Float(0.1)), "0.1");
  EXPECT_EQ(Serialize("Float", Value::Int(5)), "5");
  EXPECT_EQ(Serialize("Float", Value::Float(1e21)), "1e+21");
  EXPECT_EQ(Serialize("Float", Value::Boolean(false)), "0");
  EXPECT_EQ(Serialize("Float", Value::String("2.5")), "2.5");
  EXPECT_EQ(Serialize("Float", Value::Float(kNaN)),
            "error: Float cannot represent non numeric value: NaN");
  EXPECT_EQ(Serialize("Float", Value::Float(-kInfinity)),
            "error: Float cannot represent non numeric value: -Infinity");
  EXPECT_EQ(Serialize("Float", Value::String("Infinity")),
            "error: Float cannot represent non numeric value: \"Infinity\"");
  EXPECT_EQ(Serialize("Float", Value::MakeObject({{"a", Value::Int(1)}})),
            "error: Float cannot represent non numeric value: { a: 1 }");
}

TEST_F(LeafSerializerTest, String) {
  EXPECT_EQ(Serialize("String", Value::String("a\"b")), "\"a\\\"b\"");
  EXPECT_EQ(Serialize("String", Value::Boolean(true)), "\"true\"");
  EXPECT_EQ(Serialize("String", Value::Int(12)), "\"12\"");
  EXPECT_EQ(Serialize("String", Value::Float(1.5e-7)), "\"1.5e-7\"");
  EXPECT_EQ(Serialize("String", Value::Float(kInfinity)),
            "error: String cannot represent value: Infinity");
  EXPECT_EQ(Serialize("String", Value::MakeList({})), "error: String cannot represent value: []");
}

TEST_F(LeafSerializerTest, Boolean) {
  EXPECT_EQ(Serialize("Boolean", Value::Boolean(false)), "false");
  EXPECT_EQ(Serialize("Boolean", Value::Int(2)), "true");
  EXPECT_EQ(Serialize("Boolean", Value::Float(0.0)), "false");
  EXPECT_EQ(Serialize("Boolean", Value::String("true")),
            "error: Boolean cannot represent a non boolean value: \"true\"");
  EXPECT_EQ(Serialize("Boolean", Value::Float(kNaN)),
            "error: Boolean cannot represent a non boolean value: NaN");
}

TEST_F(LeafSerializerTest, Id) {
  EXPECT_EQ(Serialize("ID", Value::String("abc")), "\"abc\"");
  EXPECT_EQ(Serialize("ID", Value::Int(42)), "\"42\"");
  EXPECT_EQ(Serialize("ID", Value::Float(42.0)), "\"42\"");
  EXPECT_EQ(Serialize("ID", Value::Float(4.2)), "error: ID cannot represent value: 4.2");
  EXPECT_EQ(Serialize("ID", Value::Boolean(true)), "error: ID cannot represent value: true");
}

TEST_F(LeafSerializerTest, EnumByName) {
  EXPECT_EQ(Serialize("Color", Value::String("GREEN")), "\"GREEN\"");
  EXPECT_EQ(Serialize("Color", Value::String("green")),
            "error: Enum \"Color\" cannot represent value: \"green\"");
  EXPECT_EQ(Serialize("Color", Value::Int(0)), "error: Enum \"Color\" cannot represent value: 0");
}

TEST_F(LeafSerializerTest, CustomScalarPassesValuesThrough) {
  EXPECT_EQ(Serialize("Date", Value::String("2026-11-21T09:30:00Z")), "\"2026-11-21T09:30:00Z\"");
  EXPECT_EQ(
      Serialize("Date", Value::MakeObject({{"y", Value::Int(2026)}, {"f", Value::Float(kNaN)}})),
      "{\"y\":2026,\"f\":null}");
}

TEST(JsStringToNumberTest, ReadsNumbersAsJavaScriptNumber) {
  EXPECT_EQ(JsStringToNumber(""), 0.0);
  EXPECT_EQ(JsStringToNumber(" \t\n"), 0.0);
  EXPECT_EQ(JsStringToNumber("\xc2\xa0 12 \xe2\x80\xa8"), 12.0);
  EXPECT_EQ(JsStringToNumber("-1.5e2"), -150.0);
  EXPECT_EQ(JsStringToNumber("+.5"), 0.5);
  EXPECT_EQ(JsStringToNumber("5."), 5.0);
  EXPECT_EQ(JsStringToNumber("0x1F"), 31.0);
  EXPECT_EQ(JsStringToNumber("0b101"), 5.0);
  EXPECT_EQ(JsStringToNumber("0o17"), 15.0);
  EXPECT_EQ(JsStringToNumber("-Infinity"), -kInfinity);
  EXPECT_EQ(JsStringToNumber("1e999"), kInfinity);
  EXPECT_FALSE(JsStringToNumber("-0x1"));
  EXPECT_FALSE(JsStringToNumber("1e"));
  EXPECT_FALSE(JsStringToNumber("."));
  EXPECT_FALSE(JsStringToNumber("inf"));
  EXPECT_FALSE(JsStringToNumber("NaN"));
  EXPECT_FALSE(JsStringToNumber("1 2"));
  EXPECT_FALSE(JsStringToNumber("0x"));
}

}  // namespace
}  // namespace netgraph::graphql
