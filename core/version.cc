#include "core/version.h"

namespace netgraph {

// NETGRAPH_BUILD_VERSION and NETGRAPH_BUILD_COMMIT are defined for this file only
// (core/CMakeLists.txt), so a new commit recompiles one file rather than the tree.
std::string_view ReleaseVersion() { return NETGRAPH_BUILD_VERSION; }

std::string_view BuildCommit() { return NETGRAPH_BUILD_COMMIT; }

}  // namespace netgraph
