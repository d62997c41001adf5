#include "fcgi/http/entity_tag.h"

#include <gtest/gtest.h>

namespace netgraph::fcgi {
namespace {

const std::string kDigest = "0123456789abcdef0123456789abcdef";

TEST(EntityTag, NamesTheRepresentationAndTheDigest) {
  EXPECT_EQ(EntityTag('j', kDigest), "\"j-" + kDigest + "\"");
  EXPECT_NE(EntityTag('j', kDigest), EntityTag('g', kDigest));
}

TEST(IfNoneMatchNames, MatchesTheTagItselfOrAStar) {
  const std::string tag = EntityTag('j', kDigest);
  EXPECT_TRUE(IfNoneMatchNames(tag, tag));
  EXPECT_TRUE(IfNoneMatchNames("  " + tag + " ", tag));
  EXPECT_TRUE(IfNoneMatchNames("*", tag));
  EXPECT_FALSE(IfNoneMatchNames(EntityTag('g', kDigest), tag));
  EXPECT_FALSE(IfNoneMatchNames("", tag));
}

TEST(IfNoneMatchNames, ComparesWeakly) {
  const std::string tag = EntityTag('j', kDigest);
  EXPECT_TRUE(IfNoneMatchNames("W/" + tag, tag));
  EXPECT_TRUE(IfNoneMatchNames(tag, "W/" + tag));
}

TEST(IfNoneMatchNames, FindsTheTagInAList) {
  const std::string tag = EntityTag('g', kDigest);
  EXPECT_TRUE(IfNoneMatchNames("\"other\", W/\"x,y\" ," + tag, tag));
  EXPECT_TRUE(IfNoneMatchNames(", ," + tag + ",", tag));
  EXPECT_FALSE(IfNoneMatchNames("\"other\", W/\"x,y\"", tag));
}

TEST(IfNoneMatchNames, AMalformedListMatchesNothing) {
  const std::string tag = EntityTag('j', kDigest);
  EXPECT_FALSE(IfNoneMatchNames(tag + " junk", tag));
  EXPECT_FALSE(IfNoneMatchNames(tag + " " + tag, tag));  // no comma between
  EXPECT_FALSE(IfNoneMatchNames("j-" + kDigest, tag));   // unquoted
  EXPECT_FALSE(IfNoneMatchNames(tag + ", \"open", tag));
  EXPECT_FALSE(IfNoneMatchNames("\"a b\", " + tag, tag));  // a space inside a tag
  EXPECT_FALSE(IfNoneMatchNames("*, " + tag, tag));
}

}  // namespace
}  // namespace netgraph::fcgi
