// A reference to a GraphQL type as written in a field, argument or variable: a named type inside
// any number of List and Non-Null wrappers, e.g. [Int!]!. A small value (no allocation) that
// compares with == (graphql-js's isEqualType) and unwraps one level at a time like graphql-js's
// ofType.
//
// Layout: levels 0..list_depth, outermost first; levels below list_depth are lists and the last
// level is the named type. Bit i of non_null_bits says level i is wrapped in Non-Null. A TypeRef
// holds at most kMaxListDepth lists (the parser refuses deeper list types).
#ifndef NETGRAPH_CORE_GRAPHQL_TYPE_TYPE_REF_H_
#define NETGRAPH_CORE_GRAPHQL_TYPE_TYPE_REF_H_

#include <cstdint>
#include <string>

namespace netgraph::graphql {

class NamedType;

class TypeRef {
 public:
  static constexpr int kMaxListDepth = 63;

  TypeRef() = default;  // invalid: refers to no type
  explicit TypeRef(const NamedType* named) : named_(named) {}

  bool valid() const { return named_ != nullptr; }
  // The innermost named type (graphql-js's getNamedType).
  const NamedType* named() const { return named_; }

  bool is_non_null() const { return (non_null_bits_ & 1) != 0; }
  bool is_list() const { return !is_non_null() && list_depth_ > 0; }
  // Neither Non-Null nor List: the named type itself.
  bool is_named() const { return !is_non_null() && list_depth_ == 0; }

  // One wrapper less: the nullable type of a Non-Null, the item type of a List. Invalid for a
  // named type.
  TypeRef OfType() const {
    TypeRef inner = *this;
    if (is_non_null()) {
      inner.non_null_bits_ &= ~std::uint64_t{1};
    } else if (list_depth_ > 0) {
      inner.non_null_bits_ >>= 1;
      --inner.list_depth_;
    } else {
      return TypeRef();
    }
    return inner;
  }
  // The type without an outer Non-Null (graphql-js's getNullableType).
  TypeRef Nullable() const { return is_non_null() ? OfType() : *this; }

  // Wrapped in a List, or in a Non-Null (a Non-Null stays as it is). Invalid past the depth limit.
  TypeRef ListOf() const {
    if (!valid() || list_depth_ >= kMaxListDepth) return TypeRef();
    TypeRef outer = *this;
    outer.non_null_bits_ <<= 1;
    ++outer.list_depth_;
    return outer;
  }
  TypeRef NonNullOf() const {
    TypeRef outer = *this;
    outer.non_null_bits_ |= 1;
    return outer;
  }

  // How the type is written: "[Int!]!" (graphql-js's String(type), used by inspect()).
  std::string ToString() const;

  friend bool operator==(const TypeRef& a, const TypeRef& b) {
    return a.named_ == b.named_ && a.non_null_bits_ == b.non_null_bits_ &&
           a.list_depth_ == b.list_depth_;
  }
  friend bool operator!=(const TypeRef& a, const TypeRef& b) { return !(a == b); }

 private:
  const NamedType* named_ = nullptr;
  std::uint64_t non_null_bits_ = 0;
  std::uint8_t list_depth_ = 0;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_TYPE_TYPE_REF_H_
