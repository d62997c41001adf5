#include "core/graphql/utilities/type_info.h"

namespace netgraph::graphql {

namespace {

using ast::NodeKind;

const InputValue* FindInputValue(const std::vector<InputValue>& values, std::string_view name) {
  for (const InputValue& value : values) {
    if (value.name == name) return &value;
  }
  return nullptr;
}

}  // namespace

TypeInfo::TypeInfo(const Schema& schema) : schema_(schema) {}

void TypeInfo::Enter(const ast::Node& node) {
  switch (node.kind) {
    case NodeKind::kSelectionSet: {
      const NamedType* named = type().named();
      parent_type_stack_.push_back(named != nullptr && IsCompositeType(*named) ? named : nullptr);
      break;
    }
    case NodeKind::kField: {
      const NamedType* parent = parent_type();
      const Field* field =
          parent == nullptr
              ? nullptr
              : schema_.FieldDef(*parent, static_cast<const ast::Field&>(node).name.value);
      field_def_stack_.push_back(field);
      type_stack_.push_back(field == nullptr ? TypeRef() : field->type);
      break;
    }
    case NodeKind::kDirective:
      directive_ = schema_.FindDirective(static_cast<const ast::Directive&>(node).name.value);
      break;
    case NodeKind::kOperationDefinition: {
      const NamedType* root =
          schema_.RootType(static_cast<const ast::OperationDefinition&>(node).operation);
      type_stack_.push_back(root != nullptr && root->kind == TypeKind::kObject ? TypeRef(root)
                                                                               : TypeRef());
      break;
    }
    case NodeKind::kInlineFragment:
    case NodeKind::kFragmentDefinition: {
      const ast::NamedType* condition =
          node.kind == NodeKind::kInlineFragment
              ? static_cast<const ast::InlineFragment&>(node).type_condition
              : static_cast<const ast::FragmentDefinition&>(node).type_condition;
      TypeRef output =
          condition != nullptr ? TypeFromAst(schema_, *condition) : TypeRef(type().named());
      type_stack_.push_back(IsOutputType(output) ? output : TypeRef());
      break;
    }
    case NodeKind::kVariableDefinition: {
      TypeRef input = TypeFromAst(schema_, *static_cast<const ast::VariableDefinition&>(node).type);
      input_type_stack_.push_back(IsInputType(input) ? input : TypeRef());
      break;
    }
    case NodeKind::kArgument: {
      // An argument of an unknown directive is looked up in the field's, as graphql-js does.
      const std::vector<InputValue>* definitions = directive_ != nullptr ? &directive_->arguments
                                                   : field_def() != nullptr
                                                       ? &field_def()->arguments
                                                       : nullptr;
      argument_ =
          definitions == nullptr
              ? nullptr
              : FindInputValue(*definitions, static_cast<const ast::Argument&>(node).name.value);
      has_default_stack_.push_back(argument_ != nullptr && argument_->default_value.has_value());
      input_type_stack_.push_back(
          argument_ != nullptr && IsInputType(argument_->type) ? argument_->type : TypeRef());
      break;
    }
    case NodeKind::kListValue: {
      TypeRef list = input_type().Nullable();
      TypeRef item = list.is_list() ? list.OfType() : list;
      has_default_stack_.push_back(false);
      input_type_stack_.push_back(IsInputType(item) ? item : TypeRef());
      break;
    }
    case NodeKind::kObjectField: {
      const NamedType* object = input_type().named();
      const InputValue* field =
          object == nullptr
              ? nullptr
              : object->FindInputField(static_cast<const ast::ObjectField&>(node).name.value);
      has_default_stack_.push_back(field != nullptr && field->default_value.has_value());
      input_type_stack_.push_back(field != nullptr && IsInputType(field->type) ? field->type
                                                                               : TypeRef());
      break;
    }
    case NodeKind::kEnumValue: {
      const NamedType* enum_type = input_type().named();
      enum_value_ = enum_type == nullptr
                        ? nullptr
                        : enum_type->FindEnumValue(static_cast<const ast::EnumValue&>(node).value);
      break;
    }
    default:
      break;
  }
}

void TypeInfo::Leave(const ast::Node& node) {
  switch (node.kind) {
    case NodeKind::kSelectionSet:
      parent_type_stack_.pop_back();
      break;
    case NodeKind::kField:
      field_def_stack_.pop_back();
      type_stack_.pop_back();
      break;
    case NodeKind::kDirective:
      directive_ = nullptr;
      break;
    case NodeKind::kOperationDefinition:
    case NodeKind::kInlineFragment:
    case NodeKind::kFragmentDefinition:
      type_stack_.pop_back();
      break;
    case NodeKind::kVariableDefinition:
      input_type_stack_.pop_back();
      break;
    case NodeKind::kArgument:
      argument_ = nullptr;
      has_default_stack_.pop_back();
      input_type_stack_.pop_back();
      break;
    case NodeKind::kListValue:
    case NodeKind::kObjectField:
      has_default_stack_.pop_back();
      input_type_stack_.pop_back();
      break;
    case NodeKind::kEnumValue:
      enum_value_ = nullptr;
      break;
    default:
      break;
  }
}

}  // namespace netgraph::graphql
