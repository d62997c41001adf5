// Files that hold secrets (the treasury keypair, the update signing key): as ssh does for private
// keys, a secret that other users can read, or that another user could have written, is refused
// rather than used. The file must belong to the process's user and give no access to group or
// others (mode 0600 or 0400).
#ifndef NETGRAPH_CORE_CRYPTO_PRIVATE_FILE_H_
#define NETGRAPH_CORE_CRYPTO_PRIVATE_FILE_H_

#include <filesystem>
#include <string_view>

#include "core/status.h"

namespace netgraph::crypto {

// Checks the open file `fd` (so the file checked is the file read); `what` names it in the
// message ("keypair file", "update signing key file"), which says how to fix it.
Status CheckPrivateFile(int fd, const std::filesystem::path& path, std::string_view what);

// The same for the file at `path`; a file that cannot be opened is left to its reader to report.
Status CheckPrivateFile(const std::filesystem::path& path, std::string_view what);

}  // namespace netgraph::crypto

#endif  // NETGRAPH_CORE_CRYPTO_PRIVATE_FILE_H_
