#include "ws/handshake.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace netgraph::ws {
namespace {

TEST(SubprotocolTest, FindsOurNamesInAList) {
  SubprotocolOffer both = ParseSubprotocols("graphql-ws, graphql-transport-ws");
  EXPECT_TRUE(both.transport_ws);
  EXPECT_TRUE(both.legacy_ws);
  EXPECT_TRUE(both.any);
  SubprotocolOffer one = ParseSubprotocols("graphql-transport-ws");
  EXPECT_TRUE(one.transport_ws);
  EXPECT_FALSE(one.legacy_ws);
}

TEST(SubprotocolTest, OtherNamesAreNotOurs) {
  SubprotocolOffer other = ParseSubprotocols("mqtt,  graphql-transport-ws-v2 ,graphql");
  EXPECT_TRUE(other.any);
  EXPECT_FALSE(other.transport_ws);
  EXPECT_FALSE(other.legacy_ws);
}

TEST(SubprotocolTest, AnEmptyHeaderOffersNothing) {
  EXPECT_FALSE(ParseSubprotocols("").any);
  EXPECT_FALSE(ParseSubprotocols(" , ").any);
}

TEST(OriginTest, AnEmptyAllowListAllowsAll) {
  EXPECT_TRUE(OriginAllowed({}, "https://evil.example"));
}

TEST(OriginTest, OnlyListedOriginsIgnoringCase) {
  std::vector<std::string> allowed = {"https://app.example", "http://localhost:3000"};
  EXPECT_TRUE(OriginAllowed(allowed, "https://app.example"));
  EXPECT_TRUE(OriginAllowed(allowed, "HTTPS://APP.example"));
  EXPECT_TRUE(OriginAllowed(allowed, "http://localhost:3000"));
  EXPECT_FALSE(OriginAllowed(allowed, "https://app.example.evil"));
  EXPECT_FALSE(OriginAllowed(allowed, "http://localhost:3001"));
}

TEST(OriginTest, ClientsWithoutOriginAreNotBrowsers) {
  EXPECT_TRUE(OriginAllowed({"https://app.example"}, ""));
}

TEST(ClientAddressTest, NginxOnTheUnixSocketNamesTheClient) {
  const std::vector<std::string> trusted{"127.0.0.1", "::1"};
  EXPECT_EQ(ClientAddress("", "203.0.113.9", trusted), "203.0.113.9");
  EXPECT_EQ(ClientAddress("", "2001:db8::1", trusted), "2001:db8::1");
  EXPECT_EQ(ClientAddress("127.0.0.1", "203.0.113.9", trusted), "203.0.113.9");
  EXPECT_EQ(ClientAddress("", "", trusted), "-");
}

TEST(ClientAddressTest, AnUntrustedPeerCannotChooseItsAddress) {
  const std::vector<std::string> trusted{"127.0.0.1"};
  EXPECT_EQ(ClientAddress("198.51.100.4", "203.0.113.9", trusted), "198.51.100.4");
  EXPECT_EQ(ClientAddress("198.51.100.4", "", {}), "198.51.100.4");
}

TEST(ClientAddressTest, OnlyTheHopTheProxyAddedCounts) {
  const std::vector<std::string> trusted{"127.0.0.1"};
  // The client wrote 10.0.0.1 itself; nginx appended what it saw.
  EXPECT_EQ(ClientAddress("", "10.0.0.1, 203.0.113.9", trusted), "203.0.113.9");
  EXPECT_EQ(ClientAddress("127.0.0.1", "10.0.0.1,203.0.113.9 ", trusted), "203.0.113.9");
}

TEST(ClientAddressTest, AHeaderThatIsNotAnAddressIsIgnored) {
  const std::vector<std::string> trusted{"127.0.0.1"};
  EXPECT_EQ(ClientAddress("127.0.0.1", "203.0.113.9, unknown", trusted), "127.0.0.1");
  EXPECT_EQ(ClientAddress("", "evil\nlog line", trusted), "-");
  EXPECT_FALSE(IsIpAddress("localhost"));
  EXPECT_TRUE(IsIpAddress("::1"));
}

}  // namespace
}  // namespace netgraph::ws
