// A GraphQL value: what resolvers return and what arguments and variables coerce to.
//
// Lists and objects are immutable once built and shared by reference count, so a resolver can hand
// out part of a cached tree (say, an in-memory graph snapshot) without copying it. A `Host` value
// carries a typed C++ object for resolvers that prefer typed parents to field maps.
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_VALUE_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_VALUE_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <typeinfo>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace netgraph::graphql {

class Value {
 public:
  enum class Kind : std::uint8_t { kNull, kBoolean, kInt, kFloat, kString, kList, kObject, kHost };
  using List = std::vector<Value>;
  // Fields keep their insertion order: it is the order a serialised object shows.
  using Object = std::vector<std::pair<std::string, Value>>;

  Value() = default;  // null
  static Value Boolean(bool b);
  static Value Int(std::int64_t i);
  static Value Float(double d);
  static Value String(std::string s);
  static Value MakeList(List items);
  static Value MakeObject(Object fields);
  // Wraps a typed object. Only the resolver pair that produces and consumes it knows T.
  template <typename T>
  static Value Host(std::shared_ptr<const T> object) {
    Value v;
    v.kind_ = Kind::kHost;
    v.host_type_ = &typeid(T);
    v.shared_ = std::move(object);
    return v;
  }

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool as_bool() const { return scalar_.b; }
  std::int64_t as_int() const { return scalar_.i; }
  double as_float() const { return scalar_.d; }
  // Int and Float both read as a double.
  double as_number() const {
    return kind_ == Kind::kInt ? static_cast<double>(scalar_.i) : scalar_.d;
  }
  const std::string& as_string() const { return string_; }
  const List& as_list() const;
  const Object& as_object() const;
  // The wrapped object when this is a Host value of exactly type T, otherwise nullptr.
  template <typename T>
  const T* host() const {
    return kind_ == Kind::kHost && *host_type_ == typeid(T) ? static_cast<const T*>(shared_.get())
                                                            : nullptr;
  }

  // The field named `key` of an object, or nullptr (also for non-objects).
  const Value* Find(std::string_view key) const;

  // Structural equality; Host values are equal when they wrap the same object.
  friend bool operator==(const Value& a, const Value& b);

  // JSON conversion. Integers that fit in 64 bits become Int, other numbers Float. Host values
  // serialise as null: they are never part of a response.
  // Conversion, comparison, serialisation and destruction recurse once per nesting level, so JSON
  // from outside must have its depth bounded before it gets here: every caller parses it with
  // api::ParseClientJson (core/api/client_json.h, 64 levels), Redis messages included
  // (ws/update.h).
  static Value FromJson(const nlohmann::json& json);
  nlohmann::json ToJson() const;

 private:
  Kind kind_ = Kind::kNull;
  union {
    bool b;
    std::int64_t i;
    double d;
  } scalar_{};
  std::string string_;
  const std::type_info* host_type_ = nullptr;
  std::shared_ptr<const void> shared_;  // List, Object or the Host object
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_VALUE_H_
