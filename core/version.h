// The release this binary was built from: the version in the top-level CMakeLists.txt's project()
// and the git commit of the source tree at configure time. Every binary's --version, /health and
// the build-info metric of both daemons show them.
#ifndef NETGRAPH_CORE_VERSION_H_
#define NETGRAPH_CORE_VERSION_H_

#include <string_view>

namespace netgraph {

// The release, e.g. "0.1.0".
std::string_view ReleaseVersion();
// The commit (12 hex digits), or "unknown" when the tree was not a git checkout.
std::string_view BuildCommit();
// Both, as semantic versioning writes build metadata: "0.1.0+g1a2b3c4d5e6f" ("0.1.0" without a
// commit).
std::string_view Version();

}  // namespace netgraph

#endif  // NETGRAPH_CORE_VERSION_H_
