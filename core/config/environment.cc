#include "core/config/environment.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string_view>
#include <utility>

#include "core/config/known_settings.h"

extern char** environ;

namespace netgraph::config {

namespace {

// Defined by core/config/CMakeLists.txt: the package's /etc/netgraph/netgraph.env, or empty.
constexpr std::string_view kDefaultConfigFile = NETGRAPH_DEFAULT_CONFIG_FILE;

std::optional<std::string> ProcessVariable(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

bool IsVariableName(const std::string& name) {
  if (name.empty() || std::isdigit(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
  });
}

std::string Trim(const std::string& text) {
  const std::size_t b = text.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  return text.substr(b, text.find_last_not_of(" \t\r") - b + 1);
}

// The names of the process environment's variables.
std::vector<std::string> EnvironmentNames() {
  std::vector<std::string> names;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    names.emplace_back(text.substr(0, text.find('=')));
  }
  return names;
}

// `value` with the password of a URL's user information ("redis://:secret@host") or of a libpq
// keyword ("password=secret") replaced by "****": --print-config's output gets pasted into tickets.
std::string MaskSecrets(std::string value) {
  const std::size_t scheme = value.find("://");
  if (scheme != std::string::npos) {
    const std::size_t start = scheme + 3;
    const std::size_t end = value.find_first_of("/?#", start);
    const std::size_t at = value.rfind('@', end == std::string::npos ? value.size() : end);
    if (at != std::string::npos && at > start) {
      const std::size_t colon = value.find(':', start);
      if (colon != std::string::npos && colon < at)
        value.replace(colon + 1, at - colon - 1, "****");
    }
  }
  for (std::size_t at = value.find("password="); at != std::string::npos;
       at = value.find("password=", at + 1)) {
    const std::size_t start = at + 9;
    const std::size_t end = value.find_first_of(" &", start);
    value.replace(start, (end == std::string::npos ? value.size() : end) - start, "****");
  }
  return value;
}

}  // namespace

Environment::Environment() {
  const std::optional<std::string> named = ProcessVariable("NETGRAPH_CONFIG_FILE");
  if (named && !named->empty()) {
    ReadFile(*named, true);
  } else if (!kDefaultConfigFile.empty()) {
    ReadFile(std::string(kDefaultConfigFile), false);
  }
  ReportUnknownNames(EnvironmentNames());
}

void Environment::ReportUnknownNames(const std::vector<std::string>& environment_names) {
  auto report = [this](const std::string& name, const std::string& where) {
    const NearestSetting nearest = Nearest(name);
    warnings_.push_back(name + " (" + where + ") is not a netgraph setting and is ignored; " +
                        (nearest.edits <= kLikelySlip ? "did you mean " : "the nearest is ") +
                        std::string(nearest.name) + "?");
  };
  for (const auto& [name, value] : file_values_) {
    if (!IsKnownName(name)) report(name, file_ + ":" + std::to_string(value.line));
  }
  for (const std::string& name : environment_names) {
    if (name.rfind("NETGRAPH_", 0) == 0 && !IsKnownName(name) &&
        Nearest(name).edits <= kLikelySlip) {
      report(name, "environment");
    }
  }
}

Environment::Found Environment::Value(const std::string& name) const {
  if (lookup_) return {lookup_(name), "environment"};
  if (std::optional<std::string> value = ProcessVariable(name)) return {value, "environment"};
  auto in_file = file_values_.find(name);
  if (in_file == file_values_.end()) return {std::nullopt, "default"};
  return {in_file->second.value, file_ + ":" + std::to_string(in_file->second.line)};
}

void Environment::Note(const std::string& name, const Found& found, const std::string& used) {
  const bool given = found.value && !found.value->empty();
  readings_[name] = Reading{name, MaskSecrets(used), given ? found.source : "default"};
}

std::vector<Reading> Environment::readings() const {
  std::vector<Reading> all;
  for (const auto& [name, reading] : readings_) all.push_back(reading);
  return all;
}

void Environment::ReadFile(const std::string& path, bool must_exist) {
  errno = 0;
  std::ifstream in(path);
  if (!in) {
    if (must_exist || errno != ENOENT) {
      problems_.push_back("NETGRAPH_CONFIG_FILE: cannot read " + path + ": " +
                          std::strerror(errno));
    }
    return;
  }
  file_ = path;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    const std::size_t equals = line.find('=');
    const std::string name = equals == std::string::npos ? line : Trim(line.substr(0, equals));
    if (equals == std::string::npos || !IsVariableName(name)) {
      problems_.push_back(path + ":" + std::to_string(number) + ": not a KEY=value line");
      continue;
    }
    std::string value = Trim(line.substr(equals + 1));
    if (value.size() >= 2 && (value.front() == '"' || value.front() == '\'') &&
        value.back() == value.front()) {
      value = value.substr(1, value.size() - 2);
    }
    file_values_[name] = FileValue{std::move(value), number};
  }
}

Environment::Environment(Lookup lookup) : lookup_(std::move(lookup)) {}

std::string Environment::String(const std::string& name, const std::string& fallback) {
  const Found found = Value(name);
  std::string used = found.value && !found.value->empty() ? *found.value : fallback;
  Note(name, found, used);
  return used;
}

std::int64_t Environment::Int(const std::string& name, std::int64_t fallback, std::int64_t min,
                              std::int64_t max) {
  const Found found = Value(name);
  const std::optional<std::string>& value = found.value;
  Note(name, found, value && !value->empty() ? *value : std::to_string(fallback));
  if (!value || value->empty()) return fallback;
  errno = 0;
  char* end = nullptr;
  long long parsed = std::strtoll(value->c_str(), &end, 10);
  if (errno != 0 || end == value->c_str() || *end != '\0' || parsed < min || parsed > max) {
    problems_.push_back(name + " must be an integer from " + std::to_string(min) + " to " +
                        std::to_string(max) + ", not '" + *value + "'");
    return fallback;
  }
  return parsed;
}

std::int64_t Environment::RenamedInt(const std::string& name, const std::string& old_name,
                                     std::int64_t old_scale, std::int64_t fallback,
                                     std::int64_t min, std::int64_t max) {
  const std::optional<std::string> value = Value(name).value;
  const std::optional<std::string> old_value = Value(old_name).value;
  if ((value && !value->empty()) || !old_value || old_value->empty()) {
    if (old_value && !old_value->empty()) {
      warnings_.push_back(old_name + " is ignored: " + name + " is set (remove " + old_name + ")");
    }
    return Int(name, fallback, min, max);
  }
  warnings_.push_back(old_name + " is deprecated and goes away in the next release: set " + name +
                      " instead");
  // Bounds in the old unit, rounded inwards, so the scaled value stays within [min, max].
  const std::int64_t old_min = (min + old_scale - 1) / old_scale;
  const std::int64_t old_max = max / old_scale;
  const std::size_t problems_before = problems_.size();
  const std::int64_t old = Int(old_name, 0, old_min, old_max);
  const std::int64_t used = problems_.size() == problems_before ? old * old_scale : fallback;
  const std::string from = readings_[old_name].source + ", as " + old_name;
  readings_.erase(old_name);
  Note(name, Found{std::to_string(used), from}, std::to_string(used));
  return used;
}

bool Environment::Bool(const std::string& name, bool fallback) {
  const Found found = Value(name);
  const std::optional<std::string>& value = found.value;
  Note(name, found, value && !value->empty() ? *value : (fallback ? "on" : "off"));
  if (!value || value->empty()) return fallback;
  const std::string& v = *value;
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  problems_.push_back(name + " must be true or false, not '" + v + "'");
  return fallback;
}

std::string Environment::OneOf(const std::string& name, const std::vector<std::string>& allowed,
                               const std::string& fallback) {
  std::string value = String(name, fallback);
  if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return value;
  std::string choices;
  for (const std::string& choice : allowed) choices += (choices.empty() ? "" : ", ") + choice;
  problems_.push_back(name + " must be one of " + choices + ", not '" + value + "'");
  return fallback;
}

std::vector<std::string> Environment::List(const std::string& name, const std::string& fallback) {
  std::vector<std::string> items;
  std::istringstream in(String(name, fallback));
  std::string item;
  while (std::getline(in, item, ',')) {
    std::size_t b = item.find_first_not_of(" \t");
    std::size_t e = item.find_last_not_of(" \t/");
    if (b != std::string::npos && e != std::string::npos && e >= b) {
      items.push_back(item.substr(b, e - b + 1));
    }
  }
  return items;
}

Status Environment::status() const {
  if (problems_.empty()) return Status::Ok();
  std::string message = "bad configuration: ";
  for (std::size_t i = 0; i < problems_.size(); ++i) {
    if (i > 0) message += "; ";
    message += problems_[i];
  }
  return Status::InvalidArgument(std::move(message));
}

}  // namespace netgraph::config
