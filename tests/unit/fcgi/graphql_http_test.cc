#include "fcgi/http/graphql_http.h"

#include <gtest/gtest.h>

namespace netgraph::fcgi {
namespace {

using Media = ResponseMediaType;

TEST(NegotiateMediaType, NoAcceptHeaderMeansJson) {
  EXPECT_EQ(NegotiateMediaType(false, ""), Media::kJson);
  EXPECT_EQ(NegotiateMediaType(true, ""), Media::kJson);
}

TEST(NegotiateMediaType, WildcardsMeanJson) {
  EXPECT_EQ(NegotiateMediaType(true, "*/*"), Media::kJson);
  EXPECT_EQ(NegotiateMediaType(true, "application/*"), Media::kJson);
}

TEST(NegotiateMediaType, GraphQLResponseJsonWhenPreferred) {
  EXPECT_EQ(NegotiateMediaType(true, "application/graphql-response+json"),
            Media::kGraphQLResponseJson);
  EXPECT_EQ(NegotiateMediaType(true, "application/graphql-response+json, application/json;q=0.9"),
            Media::kGraphQLResponseJson);
}

TEST(NegotiateMediaType, QValuesDecide) {
  EXPECT_EQ(NegotiateMediaType(true, "application/graphql-response+json;q=0.5, application/json"),
            Media::kJson);
  EXPECT_EQ(
      NegotiateMediaType(true, "application/json;q=0.1, application/graphql-response+json;q=0.2"),
      Media::kGraphQLResponseJson);
}

TEST(NegotiateMediaType, EqualQualityKeepsTheClientsOrder) {
  EXPECT_EQ(NegotiateMediaType(true, "application/json, application/graphql-response+json"),
            Media::kJson);
}

TEST(NegotiateMediaType, ParametersAndCaseAreTolerated) {
  EXPECT_EQ(NegotiateMediaType(true, "Application/JSON; charset=utf-8"), Media::kJson);
  EXPECT_EQ(NegotiateMediaType(true, "text/html, application/graphql-response+json ; q=0.8"),
            Media::kGraphQLResponseJson);
}

TEST(NegotiateMediaType, NothingAcceptableIsRefused) {
  EXPECT_EQ(NegotiateMediaType(true, "text/html"), std::nullopt);
  EXPECT_EQ(NegotiateMediaType(true, "application/json;q=0"), std::nullopt);
}

TEST(DecodeFormComponent, DecodesPlusAndPercentEscapes) {
  EXPECT_EQ(DecodeFormComponent("%7B+__typename+%7D"), "{ __typename }");
  EXPECT_EQ(DecodeFormComponent("a%2Bb%3d"), "a+b=");
  EXPECT_EQ(DecodeFormComponent("Run%F0%9F%8F%83"), "Run\xF0\x9F\x8F\x83");
  EXPECT_EQ(DecodeFormComponent(""), "");
}

TEST(DecodeFormComponent, RejectsBrokenEscapes) {
  EXPECT_EQ(DecodeFormComponent("%"), std::nullopt);
  EXPECT_EQ(DecodeFormComponent("%4"), std::nullopt);
  EXPECT_EQ(DecodeFormComponent("%zz"), std::nullopt);
  EXPECT_EQ(DecodeFormComponent("abc%2"), std::nullopt);
}

}  // namespace
}  // namespace netgraph::fcgi
