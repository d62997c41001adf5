#include "core/config/environment.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>
#include <utility>

namespace netgraph::config {

Environment::Environment()
    : lookup_([](const std::string& name) -> std::optional<std::string> {
        const char* value = std::getenv(name.c_str());
        if (value == nullptr) return std::nullopt;
        return std::string(value);
      }) {}

Environment::Environment(Lookup lookup) : lookup_(std::move(lookup)) {}

std::string Environment::String(const std::string& name, const std::string& fallback) {
  std::optional<std::string> value = lookup_(name);
  return value && !value->empty() ? *value : fallback;
}

std::int64_t Environment::Int(const std::string& name, std::int64_t fallback, std::int64_t min,
                              std::int64_t max) {
  std::optional<std::string> value = lookup_(name);
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
  std::optional<std::string> value = lookup_(name);
  std::optional<std::string> old_value = lookup_(old_name);
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
  return problems_.size() == problems_before ? old * old_scale : fallback;
}

bool Environment::Bool(const std::string& name, bool fallback) {
  std::optional<std::string> value = lookup_(name);
  if (!value || value->empty()) return fallback;
  const std::string& v = *value;
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  problems_.push_back(name + " must be true or false, not '" + v + "'");
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
  return Status::Error(std::move(message));
}

}  // namespace netgraph::config
