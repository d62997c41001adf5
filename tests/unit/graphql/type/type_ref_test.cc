#include "core/graphql/type/type_ref.h"

#include <gtest/gtest.h>

#include "core/graphql/type/schema.h"

namespace netgraph::graphql {
namespace {

TEST(TypeRefTest, WrapsAndUnwraps) {
  NamedType named;
  named.name = "T";
  TypeRef type = TypeRef(&named).NonNullOf().ListOf().ListOf().NonNullOf();
  EXPECT_EQ(type.ToString(), "[[T!]]!");
  EXPECT_TRUE(type.is_non_null());
  EXPECT_FALSE(type.is_list());
  TypeRef nullable = type.Nullable();
  EXPECT_TRUE(nullable.is_list());
  EXPECT_EQ(nullable.ToString(), "[[T!]]");
  EXPECT_EQ(nullable.OfType().ToString(), "[T!]");
  EXPECT_EQ(nullable.OfType().OfType().ToString(), "T!");
  EXPECT_EQ(nullable.OfType().OfType().OfType().ToString(), "T");
  EXPECT_TRUE(nullable.OfType().OfType().OfType().is_named());
  EXPECT_FALSE(TypeRef(&named).OfType().valid());
  EXPECT_EQ(type.named(), &named);
  EXPECT_EQ(TypeRef(&named).NonNullOf().NonNullOf(), TypeRef(&named).NonNullOf());

  TypeRef deep(&named);
  for (int i = 0; i < TypeRef::kMaxListDepth; ++i) deep = deep.ListOf().NonNullOf();
  EXPECT_TRUE(deep.valid());
  EXPECT_FALSE(deep.ListOf().valid());
  for (int i = 0; i < TypeRef::kMaxListDepth; ++i) deep = deep.OfType().OfType();
  EXPECT_EQ(deep, TypeRef(&named));
}

}  // namespace
}  // namespace netgraph::graphql
