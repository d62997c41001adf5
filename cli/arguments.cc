#include "cli/arguments.h"

#include <cerrno>
#include <cstdlib>
#include <utility>

namespace netgraph::cli {

Arguments::Arguments(std::vector<std::string> words)
    : words_(std::move(words)), used_(words_.size(), false) {}

std::optional<std::string> Arguments::Option(std::string_view name) {
  const std::string flag = "--" + std::string(name);
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (used_[i]) continue;
    if (words_[i] == flag) {
      used_[i] = true;
      if (i + 1 >= words_.size()) {
        problems_.push_back(flag + " needs a value");
        return std::nullopt;
      }
      used_[i + 1] = true;
      return words_[i + 1];
    }
    if (words_[i].rfind(flag + "=", 0) == 0) {
      used_[i] = true;
      return words_[i].substr(flag.size() + 1);
    }
  }
  return std::nullopt;
}

bool Arguments::Flag(std::string_view name) {
  const std::string flag = "--" + std::string(name);
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (!used_[i] && words_[i] == flag) {
      used_[i] = true;
      return true;
    }
  }
  return false;
}

std::vector<std::string> Arguments::Positionals() {
  std::vector<std::string> positionals;
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (used_[i]) continue;
    // "-" alone means standard input; other dash words are unknown options.
    if (words_[i].size() > 1 && words_[i][0] == '-') continue;
    used_[i] = true;
    positionals.push_back(words_[i]);
  }
  return positionals;
}

Status Arguments::Finish() {
  for (std::size_t i = 0; i < words_.size(); ++i) {
    if (!used_[i]) problems_.push_back("unexpected argument: " + words_[i]);
  }
  if (problems_.empty()) return Status::Ok();
  std::string message;
  for (const std::string& p : problems_) message += (message.empty() ? "" : "; ") + p;
  return Status::InvalidArgument(message);
}

std::optional<long long> ParseInteger(std::string_view text) {
  std::string copy(text);
  errno = 0;
  char* end = nullptr;
  long long value = std::strtoll(copy.c_str(), &end, 10);
  if (copy.empty() || errno != 0 || *end != '\0') return std::nullopt;
  return value;
}

}  // namespace netgraph::cli
