// A file compiled into the binary at build time (cmake/Embed.cmake): SQL migrations, the schema.
#ifndef NETGRAPH_CORE_EMBEDDED_FILE_H_
#define NETGRAPH_CORE_EMBEDDED_FILE_H_

#include <string_view>

namespace netgraph {

struct EmbeddedFile {
  std::string_view name;     // file name without directory
  std::string_view content;  // the file's bytes
};

}  // namespace netgraph

#endif  // NETGRAPH_CORE_EMBEDDED_FILE_H_
