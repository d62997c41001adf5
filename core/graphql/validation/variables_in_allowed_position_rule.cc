// Spec (September 2025) §5.8.5 All Variable Usages Are Allowed.
#include <string>

#include "core/graphql/utilities/str_cat.h"
#include "core/graphql/validation/rules.h"

namespace netgraph::graphql {

namespace {

// graphql-js's allowedVariableUsage: a nullable variable may stand where a non-null value is
// expected when the variable or the location has a default value.
bool IsAllowedUsage(const Schema& schema, TypeRef variable_type,
                    const ast::VariableDefinition& definition, const VariableUsage& usage) {
  if (usage.type.is_non_null() && !variable_type.is_non_null()) {
    const bool has_non_null_default = definition.default_value != nullptr &&
                                      definition.default_value->kind != ast::NodeKind::kNullValue;
    if (!has_non_null_default && !usage.has_default_value) return false;
    return IsTypeSubTypeOf(schema, variable_type, usage.type.OfType());
  }
  return IsTypeSubTypeOf(schema, variable_type, usage.type);
}

}  // namespace

void VariablesInAllowedPositionRule::Leave(const ast::Node& node) {
  const auto& operation = static_cast<const ast::OperationDefinition&>(node);
  for (const VariableUsage& usage : context().RecursiveVariableUsages(operation)) {
    std::string_view name = usage.node->name.value;
    const ast::VariableDefinition* definition = nullptr;  // the last of that name
    for (const ast::VariableDefinition* candidate : operation.variable_definitions) {
      if (candidate->variable->name.value == name) definition = candidate;
    }
    if (definition == nullptr || !usage.type.valid()) continue;
    TypeRef variable_type = TypeFromAst(schema(), *definition->type);
    if (!variable_type.valid()) continue;
    if (!IsAllowedUsage(schema(), variable_type, *definition, usage)) {
      context().ReportError(
          StrCat({"Variable \"$", name, "\" of type \"", variable_type.ToString(),
                  "\" used in position expecting type \"", usage.type.ToString(), "\"."}),
          {definition->offset, usage.node->offset});
    }
    // Only a bare input object type counts here: graphql-js's isInputObjectType is false for a
    // Non-Null or List of one.
    const NamedType* parent = usage.parent_type.is_named() ? usage.parent_type.named() : nullptr;
    if (parent != nullptr && parent->kind == TypeKind::kInputObject && parent->one_of &&
        !variable_type.is_non_null()) {
      context().ReportError(
          StrCat({"Variable \"$", name, "\" is of type \"", variable_type.ToString(),
                  "\" but must be non-nullable to be used for OneOf Input Object \"", parent->name,
                  "\"."}),
          {definition->offset, usage.node->offset});
    }
  }
}

}  // namespace netgraph::graphql
