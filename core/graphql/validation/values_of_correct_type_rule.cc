// Spec (September 2025) §5.6.1 Values of Correct Type, §5.6.2 Input Object Field Names, §5.6.4
// Input Object Required Fields, and the @oneOf input object checks.
#include <string>
#include <vector>

#include "core/graphql/language/printer.h"
#include "core/graphql/utilities/input_literal.h"
#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/utilities/suggestion_list.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

using ast::NodeKind;

// Literals that every type of their kind accepts, so that parsing them (and copying strings)
// can be skipped: strings for String and ID, anything for a custom scalar.
bool TriviallyAccepted(const NamedType& type, const ast::Value& value) {
  if (type.kind != TypeKind::kScalar) return false;
  if (!type.is_specified_scalar()) return true;
  return value.kind == NodeKind::kStringValue && (type.name == "String" || type.name == "ID");
}

const ast::ObjectField* LastFieldNamed(const ast::ObjectValue& object, std::string_view name) {
  const ast::ObjectField* found = nullptr;
  for (const ast::ObjectField* field : object.fields) {
    if (field->name.value == name) found = field;
  }
  return found;
}

}  // namespace

ValuesOfCorrectTypeRule::ValuesOfCorrectTypeRule(ValidationContext& context)
    : Rule(context,
           {NodeKind::kOperationDefinition, NodeKind::kListValue, NodeKind::kObjectValue,
            NodeKind::kObjectField, NodeKind::kNullValue, NodeKind::kEnumValue, NodeKind::kIntValue,
            NodeKind::kFloatValue, NodeKind::kStringValue, NodeKind::kBooleanValue}) {}

bool ValuesOfCorrectTypeRule::Enter(const ast::Node& node) {
  switch (node.kind) {
    case NodeKind::kOperationDefinition:
      operation_ = static_cast<const ast::OperationDefinition*>(&node);
      return true;
    case NodeKind::kListValue:
      // TypeInfo has entered the item type already: the list's own type is the parent's.
      if (type_info().parent_input_type().Nullable().is_list()) return true;
      CheckLeafValue(static_cast<const ast::Value&>(node));
      return false;
    case NodeKind::kObjectValue:
      return CheckObjectValue(static_cast<const ast::ObjectValue&>(node));
    case NodeKind::kObjectField: {
      const NamedType* parent = type_info().parent_input_type().named();
      if (type_info().input_type().valid() || parent == nullptr ||
          parent->kind != TypeKind::kInputObject) {
        return true;
      }
      std::string_view name = static_cast<const ast::ObjectField&>(node).name.value;
      std::vector<std::string_view> names;
      for (const InputValue& field : parent->input_fields) names.push_back(field.name);
      context().ReportError(StrCat({"Field \"", name, "\" is not defined by type \"", parent->name,
                                    "\".", DidYouMean(SuggestionList(name, names))}),
                            {node.offset});
      return true;
    }
    case NodeKind::kNullValue: {
      TypeRef type = type_info().input_type();
      if (type.is_non_null()) {
        context().ReportError(
            StrCat({"Expected value of type \"", type.ToString(), "\", found null."}),
            {node.offset});
      }
      return true;
    }
    default:
      CheckLeafValue(static_cast<const ast::Value&>(node));
      return true;
  }
}

// graphql-js's isValidValueNode: a literal where a scalar or enum is expected, or a list or
// object literal where neither a list nor an input object is.
void ValuesOfCorrectTypeRule::CheckLeafValue(const ast::Value& value) {
  TypeRef location_type = type_info().input_type();
  if (!location_type.valid()) return;
  const NamedType& type = *location_type.named();
  if (!IsLeafType(type)) {
    context().ReportError(StrCat({"Expected value of type \"", location_type.ToString(),
                                  "\", found ", Print(value), "."}),
                          {value.offset});
    return;
  }
  if (TriviallyAccepted(type, value)) return;
  LeafLiteral parsed = ParseLeafLiteral(type, value, nullptr);
  if (!parsed.value) context().ReportError(std::move(parsed.error), {value.offset});
}

bool ValuesOfCorrectTypeRule::CheckObjectValue(const ast::ObjectValue& object) {
  const NamedType* type = type_info().input_type().named();
  if (type == nullptr || type->kind != TypeKind::kInputObject) {
    CheckLeafValue(object);
    return false;
  }
  for (const InputValue& field : type->input_fields) {
    if (!field.is_required() || LastFieldNamed(object, field.name) != nullptr) continue;
    context().ReportError(StrCat({"Field \"", type->name, ".", field.name, "\" of required type \"",
                                  field.type.ToString(), "\" was not provided."}),
                          {object.offset});
  }
  if (type->one_of) CheckOneOf(object, *type);
  return true;
}

void ValuesOfCorrectTypeRule::CheckOneOf(const ast::ObjectValue& object, const NamedType& type) {
  // The distinct keys, each with its last value.
  const ast::ObjectField* only = nullptr;
  for (const ast::ObjectField* field : object.fields) {
    if (only != nullptr && field->name.value != only->name.value) {
      context().ReportError(
          StrCat({"OneOf Input Object \"", type.name, "\" must specify exactly one key."}),
          {object.offset});
      return;
    }
    only = field;
  }
  if (only == nullptr) {
    context().ReportError(
        StrCat({"OneOf Input Object \"", type.name, "\" must specify exactly one key."}),
        {object.offset});
    return;
  }
  if (only->value->kind == NodeKind::kNullValue) {
    context().ReportError(
        StrCat({"Field \"", type.name, ".", only->name.value, "\" must be non-null."}),
        {object.offset});
    return;
  }
  const auto* variable = only->value->As<ast::Variable>();
  if (variable == nullptr || operation_ == nullptr) return;
  // The variable's definition in the last operation entered (the last of that name), as
  // graphql-js looks it up. graphql-js fails with a TypeError when there is none; the variable
  // is then reported undefined by NoUndefinedVariables instead.
  const ast::VariableDefinition* definition = nullptr;
  for (const ast::VariableDefinition* candidate : operation_->variable_definitions) {
    if (candidate->variable->name.value == variable->name.value) definition = candidate;
  }
  if (definition == nullptr || definition->type->kind == NodeKind::kNonNullType) return;
  context().ReportError(
      StrCat({"Variable \"", variable->name.value,
              "\" must be non-nullable to be used for OneOf Input Object \"", type.name, "\"."}),
      {object.offset});
}

}  // namespace netgraph::graphql
