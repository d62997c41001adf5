// What graphql-js's TypeInfo knows at each point of a walk over an executable document: the type
// of the current field, the composite type whose fields are being selected, the field, directive
// and argument definitions in scope, and the input type a value literal must have. Feed it every
// node a walk enters and leaves (Enter before the node's visitors run, Leave after them, as
// graphql-js's visitWithTypeInfo does); the accessors answer for the node last entered.
//
// Unknown names give "nothing" (an invalid TypeRef, a null pointer), as graphql-js's undefined.
// Like graphql-js, an argument of a directive the schema does not define is looked up in the
// enclosing field's arguments.
#ifndef NETGRAPH_CORE_GRAPHQL_UTILITIES_TYPE_INFO_H_
#define NETGRAPH_CORE_GRAPHQL_UTILITIES_TYPE_INFO_H_

#include "core/graphql/language/ast.h"
#include "core/graphql/type/schema.h"
#include "core/graphql/type/type_ref.h"
#include "core/graphql/utilities/small_stack.h"

namespace netgraph::graphql {

class TypeInfo {
 public:
  explicit TypeInfo(const Schema& schema);

  void Enter(const ast::Node& node);
  void Leave(const ast::Node& node);

  // The output type of the current field, operation root or fragment (getType).
  TypeRef type() const { return Top(type_stack_); }
  // The composite type whose selection set is being walked (getParentType).
  const NamedType* parent_type() const {
    return parent_type_stack_.empty() ? nullptr : parent_type_stack_.back();
  }
  // The type a value literal at this point must have (getInputType), and the input type that
  // encloses it: the list or input object type around an item or field (getParentInputType).
  TypeRef input_type() const { return Top(input_type_stack_); }
  TypeRef parent_input_type() const {
    return input_type_stack_.size() > 1 ? input_type_stack_[input_type_stack_.size() - 2]
                                        : TypeRef();
  }
  // The definition of the current field (getFieldDef), meta fields included.
  const Field* field_def() const {
    return field_def_stack_.empty() ? nullptr : field_def_stack_.back();
  }
  // Whether the argument or input field at this point has a default value (graphql-js's
  // getDefaultValue() !== undefined); list items never have one.
  bool has_default_value() const {
    return !has_default_stack_.empty() && has_default_stack_.back();
  }
  const Directive* directive() const { return directive_; }
  const InputValue* argument() const { return argument_; }
  const EnumValue* enum_value() const { return enum_value_; }

 private:
  static constexpr std::size_t kInlineDepth = 16;
  template <typename T>
  using Stack = SmallStack<T, kInlineDepth>;

  static TypeRef Top(const Stack<TypeRef>& stack) {
    return stack.empty() ? TypeRef() : stack.back();
  }

  const Schema& schema_;
  Stack<TypeRef> type_stack_;
  Stack<const NamedType*> parent_type_stack_;
  Stack<TypeRef> input_type_stack_;
  Stack<const Field*> field_def_stack_;
  Stack<bool> has_default_stack_;
  const Directive* directive_ = nullptr;
  const InputValue* argument_ = nullptr;
  const EnumValue* enum_value_ = nullptr;
};

}  // namespace netgraph::graphql

#endif  // NETGRAPH_CORE_GRAPHQL_UTILITIES_TYPE_INFO_H_
