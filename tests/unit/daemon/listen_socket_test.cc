// Where a daemon may listen (daemon/listen_socket.h): a unix socket or the loopback interface,
// never an address other hosts reach.
#include "daemon/listen_socket.h"

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <string>

namespace netgraph::daemon {
namespace {

TEST(CheckListenAddressTest, AcceptsUnixSocketsAndLoopbackAddresses) {
  for (const std::string address :
       {"/run/netgraph/fcgi.sock", "127.0.0.1:9000", "127.8.9.10:9000", ":9000", "[::1]:9000",
        "::1:9000", "[::ffff:127.0.0.1]:9000", "localhost:9000"}) {
    const Status checked = CheckListenAddress("NETGRAPH_FCGI_LISTEN", address);
    EXPECT_TRUE(checked.ok()) << address << ": " << checked.message();
  }
}

TEST(CheckListenAddressTest, RefusesAddressesOtherHostsReach) {
  for (const std::string address : {"0.0.0.0:9000", "[::]:9000", "192.0.2.1:9000", "10.1.2.3:9000",
                                    "[2001:db8::1]:9000", "[::ffff:10.0.0.1]:9000"}) {
    const Status checked = CheckListenAddress("NETGRAPH_WS_LISTEN", address);
    EXPECT_TRUE(checked.IsInvalidArgument()) << address;
    EXPECT_NE(checked.message().find("NETGRAPH_WS_LISTEN=" + address), std::string::npos)
        << checked.message();
    EXPECT_NE(checked.message().find("reachable from other hosts"), std::string::npos)
        << checked.message();
  }
}

TEST(CheckListenAddressTest, RefusesWhatIsNoAddressNamingTheVariable) {
  for (const std::string address : {"fcgi.sock", "", "127.0.0.1:no-port"}) {
    const Status checked = CheckListenAddress("NETGRAPH_FCGI_LISTEN", address);
    EXPECT_TRUE(checked.IsInvalidArgument()) << address;
    EXPECT_EQ(checked.message().rfind("NETGRAPH_FCGI_LISTEN: ", 0), 0u) << checked.message();
  }
}

TEST(OpenListenSocketTest, OpensABracketedIpv6Loopback) {
  Result<int> opened = OpenListenSocket("[::1]:0", 16, 0660);
  if (!opened.ok() && opened.status().message().find("Cannot assign") != std::string::npos) {
    GTEST_SKIP() << "no IPv6 loopback here: " << opened.status().message();
  }
  ASSERT_TRUE(opened.ok()) << opened.status().message();
  sockaddr_storage bound{};
  socklen_t length = sizeof(bound);
  ASSERT_EQ(::getsockname(*opened, reinterpret_cast<sockaddr*>(&bound), &length), 0);
  EXPECT_EQ(bound.ss_family, AF_INET6);
  ::close(*opened);
}

}  // namespace
}  // namespace netgraph::daemon
