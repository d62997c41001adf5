#include "core/auth/authorization_header.h"

#include <gtest/gtest.h>

namespace netgraph::auth {
namespace {

TEST(BearerTokenTest, TakesTheTokenWhateverTheSchemeCase) {
  for (const char* header :
       {"Bearer abc.def.ghi", "bearer abc.def.ghi", "BEARER abc.def.ghi", "Bearer   abc.def.ghi"}) {
    Result<std::string_view> token = BearerToken(header);
    ASSERT_TRUE(token.ok()) << header << ": " << token.status().message();
    EXPECT_EQ(*token, "abc.def.ghi");
  }
}

TEST(BearerTokenTest, RejectsOtherForms) {
  for (const char* header :
       {"", "Bearer", "Bearer ", "Bearer    ", "Bearerabc", "Basic dXNlcjpwdw==", "Token abc",
        " Bearer abc", "Bearer abc def", "Bearer abc\tdef", "Bearer\tabc"}) {
    EXPECT_FALSE(BearerToken(header).ok()) << "'" << header << "'";
  }
}

TEST(BearerTokenTest, NamesTheProblem) {
  EXPECT_EQ(BearerToken("Basic abc").status().message(),
            "Authorization header is not 'Bearer <token>'");
  EXPECT_EQ(BearerToken("Bearer  ").status().message(), "Authorization header has no bearer token");
}

}  // namespace
}  // namespace netgraph::auth
