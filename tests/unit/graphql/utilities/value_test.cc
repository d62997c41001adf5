#include "core/graphql/utilities/value.h"

#include <gtest/gtest.h>

#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

namespace netgraph::graphql {
namespace {

struct Point {
  int x;
};

TEST(ValueTest, ScalarsKeepKindAndContent) {
  EXPECT_TRUE(Value().is_null());
  EXPECT_EQ(Value::Boolean(true).kind(), Value::Kind::kBoolean);
  EXPECT_TRUE(Value::Boolean(true).as_bool());
  EXPECT_EQ(Value::Int(-7).as_int(), -7);
  EXPECT_DOUBLE_EQ(Value::Float(2.5).as_float(), 2.5);
  EXPECT_DOUBLE_EQ(Value::Int(3).as_number(), 3.0);
  EXPECT_EQ(Value::String("hé").as_string(), "hé");
}

TEST(ValueTest, ListsAndObjectsKeepOrderAndShareStorage) {
  Value list = Value::MakeList({Value::Int(1), Value::String("a")});
  ASSERT_EQ(list.as_list().size(), 2u);
  EXPECT_EQ(list.as_list()[1].as_string(), "a");
  Value copy = list;  // shares the list
  EXPECT_EQ(&copy.as_list(), &list.as_list());

  Value object = Value::MakeObject({{"b", Value::Int(1)}, {"a", Value::Int(2)}});
  ASSERT_EQ(object.as_object().size(), 2u);
  EXPECT_EQ(object.as_object()[0].first, "b");
  ASSERT_NE(object.Find("a"), nullptr);
  EXPECT_EQ(object.Find("a")->as_int(), 2);
  EXPECT_EQ(object.Find("c"), nullptr);
  EXPECT_EQ(Value::Int(1).Find("a"), nullptr);
  EXPECT_TRUE(Value::Int(1).as_list().empty());
  EXPECT_TRUE(Value::Int(1).as_object().empty());
}

TEST(ValueTest, EqualityIsStructural) {
  EXPECT_EQ(Value(), Value());
  EXPECT_NE(Value::Int(1), Value::Float(1.0));
  EXPECT_EQ(Value::MakeList({Value::Int(1)}), Value::MakeList({Value::Int(1)}));
  EXPECT_NE(Value::MakeList({Value::Int(1)}), Value::MakeList({Value::Int(2)}));
  Value a = Value::MakeObject({{"x", Value::Int(1)}, {"y", Value::String("s")}});
  Value b = Value::MakeObject({{"y", Value::String("s")}, {"x", Value::Int(1)}});
  EXPECT_EQ(a, b);  // field order does not matter
  EXPECT_NE(a, Value::MakeObject({{"x", Value::Int(1)}}));
  EXPECT_NE(a, Value::MakeObject({{"x", Value::Int(1)}, {"z", Value::String("s")}}));
}

TEST(ValueTest, HostValuesWrapTypedObjects) {
  auto point = std::make_shared<const Point>(Point{4});
  Value host = Value::Host(point);
  EXPECT_EQ(host.kind(), Value::Kind::kHost);
  ASSERT_NE(host.host<Point>(), nullptr);
  EXPECT_EQ(host.host<Point>()->x, 4);
  EXPECT_EQ(host.host<int>(), nullptr);
  EXPECT_EQ(Value::Int(1).host<Point>(), nullptr);
  EXPECT_EQ(host, Value::Host(point));
  EXPECT_NE(host, Value::Host(std::make_shared<const Point>(Point{4})));
  EXPECT_TRUE(host.ToJson().is_null());
}

TEST(ValueTest, ConvertsFromJson) {
  auto json = nlohmann::json::parse(
      R"({"i": 42, "big": 18446744073709551615, "f": 1.5, "s": "x", "b": false, "n": null,
          "l": [1, [2]], "o": {"k": "v"}})");
  Value value = Value::FromJson(json);
  ASSERT_EQ(value.kind(), Value::Kind::kObject);
  EXPECT_EQ(value.Find("i")->kind(), Value::Kind::kInt);
  EXPECT_EQ(value.Find("i")->as_int(), 42);
  EXPECT_EQ(value.Find("big")->kind(), Value::Kind::kFloat);
  EXPECT_DOUBLE_EQ(value.Find("big")->as_float(), 18446744073709551615.0);
  EXPECT_EQ(value.Find("f")->kind(), Value::Kind::kFloat);
  EXPECT_EQ(value.Find("s")->as_string(), "x");
  EXPECT_FALSE(value.Find("b")->as_bool());
  EXPECT_TRUE(value.Find("n")->is_null());
  EXPECT_EQ(value.Find("l")->as_list()[1].as_list()[0].as_int(), 2);
  EXPECT_EQ(value.Find("o")->Find("k")->as_string(), "v");
  EXPECT_EQ(Value::FromJson(nlohmann::json(std::numeric_limits<std::int64_t>::min())).as_int(),
            std::numeric_limits<std::int64_t>::min());
}

TEST(ValueTest, RoundTripsThroughJson) {
  Value value = Value::MakeObject(
      {{"a", Value::MakeList({Value::Int(1), Value::Float(0.5), Value::Boolean(true), Value()})},
       {"b", Value::String("t")}});
  nlohmann::json json = value.ToJson();
  EXPECT_EQ(json, nlohmann::json::parse(R"({"a": [1, 0.5, true, null], "b": "t"})"));
  EXPECT_EQ(Value::FromJson(json), value);
}

}  // namespace
}  // namespace netgraph::graphql
