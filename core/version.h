// The release this binary was built from: the version in the top-level CMakeLists.txt's project(),
// followed by "+g<commit>" when the source tree was a git checkout at configure time (semantic
// versioning's build metadata), e.g. "0.1.0+g1a2b3c4". Every binary's --version and /health show
// it.
#ifndef NETGRAPH_CORE_VERSION_H_
#define NETGRAPH_CORE_VERSION_H_

#include <string_view>

namespace netgraph {

std::string_view Version();

}  // namespace netgraph

#endif  // NETGRAPH_CORE_VERSION_H_
