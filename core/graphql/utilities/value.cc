#include "core/graphql/utilities/value.h"

#include <limits>
#include <nlohmann/json.hpp>

namespace netgraph::graphql {

namespace {

const Value::List& EmptyList() {
  static const Value::List kEmpty;
  return kEmpty;
}

const Value::Object& EmptyObject() {
  static const Value::Object kEmpty;
  return kEmpty;
}

bool ObjectsEqual(const Value::Object& a, const Value::Object& b) {
  if (a.size() != b.size()) return false;
  // Usually both objects list their fields in the same order; field order does not matter for
  // equality, so fall back to lookups when it differs.
  bool same_order = true;
  for (std::size_t i = 0; i < a.size() && same_order; ++i) {
    same_order = a[i].first == b[i].first;
  }
  if (same_order) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!(a[i].second == b[i].second)) return false;
    }
    return true;
  }
  for (const auto& [key, value] : a) {
    const Value* other = nullptr;
    for (const auto& [other_key, other_value] : b) {
      if (other_key == key) {
        other = &other_value;
        break;
      }
    }
    if (other == nullptr || !(value == *other)) return false;
  }
  return true;
}

}  // namespace

Value Value::Boolean(bool b) {
  Value v;
  v.kind_ = Kind::kBoolean;
  v.scalar_.b = b;
  return v;
}

Value Value::Int(std::int64_t i) {
  Value v;
  v.kind_ = Kind::kInt;
  v.scalar_.i = i;
  return v;
}

Value Value::Float(double d) {
  Value v;
  v.kind_ = Kind::kFloat;
  v.scalar_.d = d;
  return v;
}

Value Value::String(std::string s) {
  Value v;
  v.kind_ = Kind::kString;
  v.string_ = std::move(s);
  return v;
}

Value Value::MakeList(List items) {
  Value v;
  v.kind_ = Kind::kList;
  v.shared_ = std::make_shared<const List>(std::move(items));
  return v;
}

Value Value::MakeObject(Object fields) {
  Value v;
  v.kind_ = Kind::kObject;
  v.shared_ = std::make_shared<const Object>(std::move(fields));
  return v;
}

const Value::List& Value::as_list() const {
  return kind_ == Kind::kList ? *static_cast<const List*>(shared_.get()) : EmptyList();
}

const Value::Object& Value::as_object() const {
  return kind_ == Kind::kObject ? *static_cast<const Object*>(shared_.get()) : EmptyObject();
}

const Value* Value::Find(std::string_view key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& [name, value] : as_object()) {
    if (name == key) return &value;
  }
  return nullptr;
}

bool operator==(const Value& a, const Value& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case Value::Kind::kNull:
      return true;
    case Value::Kind::kBoolean:
      return a.scalar_.b == b.scalar_.b;
    case Value::Kind::kInt:
      return a.scalar_.i == b.scalar_.i;
    case Value::Kind::kFloat:
      return a.scalar_.d == b.scalar_.d;
    case Value::Kind::kString:
      return a.string_ == b.string_;
    case Value::Kind::kList:
      return a.shared_ == b.shared_ || a.as_list() == b.as_list();
    case Value::Kind::kObject:
      return a.shared_ == b.shared_ || ObjectsEqual(a.as_object(), b.as_object());
    case Value::Kind::kHost:
      return *a.host_type_ == *b.host_type_ && a.shared_.get() == b.shared_.get();
  }
  return false;
}

Value Value::FromJson(const nlohmann::json& json) {
  switch (json.type()) {
    case nlohmann::json::value_t::boolean:
      return Boolean(json.get<bool>());
    case nlohmann::json::value_t::number_integer:
      return Int(json.get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: {
      auto u = json.get<std::uint64_t>();
      if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) {
        return Int(static_cast<std::int64_t>(u));
      }
      return Float(static_cast<double>(u));
    }
    case nlohmann::json::value_t::number_float:
      return Float(json.get<double>());
    case nlohmann::json::value_t::string:
      return String(json.get<std::string>());
    case nlohmann::json::value_t::array: {
      List items;
      items.reserve(json.size());
      for (const nlohmann::json& item : json) items.push_back(FromJson(item));
      return MakeList(std::move(items));
    }
    case nlohmann::json::value_t::object: {
      Object fields;
      fields.reserve(json.size());
      for (const auto& [key, item] : json.items()) fields.emplace_back(key, FromJson(item));
      return MakeObject(std::move(fields));
    }
    case nlohmann::json::value_t::null:
    case nlohmann::json::value_t::binary:
    case nlohmann::json::value_t::discarded:
      break;
  }
  return Value();
}

nlohmann::json Value::ToJson() const {
  switch (kind_) {
    case Kind::kNull:
    case Kind::kHost:
      return nullptr;
    case Kind::kBoolean:
      return scalar_.b;
    case Kind::kInt:
      return scalar_.i;
    case Kind::kFloat:
      return scalar_.d;
    case Kind::kString:
      return string_;
    case Kind::kList: {
      nlohmann::json array = nlohmann::json::array();
      for (const Value& item : as_list()) array.push_back(item.ToJson());
      return array;
    }
    case Kind::kObject: {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& [key, value] : as_object()) object[key] = value.ToJson();
      return object;
    }
  }
  return nullptr;
}

}  // namespace netgraph::graphql
