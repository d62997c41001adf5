#include "core/crypto/private_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

namespace netgraph::crypto {

Status CheckPrivateFile(int fd, const std::filesystem::path& path, std::string_view what) {
  const std::string named = std::string(what) + " " + path.string();
  struct stat info {};
  if (::fstat(fd, &info) != 0) {
    return Status::FailedPrecondition("cannot stat " + named + ": " + std::strerror(errno));
  }
  if (info.st_uid != ::geteuid()) {
    return Status::FailedPrecondition(named + " is owned by uid " + std::to_string(info.st_uid) +
                                      ", not by this process's user (uid " +
                                      std::to_string(::geteuid()) +
                                      "); chown it to the service user");
  }
  if ((info.st_mode & 077) != 0) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(info.st_mode & 07777));
    return Status::FailedPrecondition(named + " is accessible by group or others (mode " + mode +
                                      "); it holds a secret key: chmod 600 it");
  }
  return Status::Ok();
}

Status CheckPrivateFile(const std::filesystem::path& path, std::string_view what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Ok();
  Status checked = CheckPrivateFile(fd, path, what);
  ::close(fd);
  return checked;
}

}  // namespace netgraph::crypto
