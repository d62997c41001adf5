// The release this binary was built from (cmake/ReleaseVersion.cmake): the nearest release tag and
// the commits since it, as the Debian package's version says it, and the git commit of the source
// tree at configure time. Every binary's --version, /health and the build-info metric of both
// daemons show them.
#ifndef NETGRAPH_CORE_VERSION_H_
#define NETGRAPH_CORE_VERSION_H_

#include <string_view>

namespace netgraph {

// The release, e.g. "0.2.0" at the tag v0.2.0, "0.2.0+5.g1a2b3c4d5e6f" five commits after it.
std::string_view ReleaseVersion();
// The commit (12 hex digits), or "unknown" when the tree was not a git checkout.
std::string_view BuildCommit();
// What --version and /health print: the release, which names the commit unless it is a tag's.
inline std::string_view Version() { return ReleaseVersion(); }

}  // namespace netgraph

#endif  // NETGRAPH_CORE_VERSION_H_
