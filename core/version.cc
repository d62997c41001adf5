#include "core/version.h"

namespace netgraph {

// NETGRAPH_VERSION is defined for this file only (core/CMakeLists.txt), so a new commit recompiles
// one file rather than the tree.
std::string_view Version() { return NETGRAPH_VERSION; }

}  // namespace netgraph
