#include "core/graphql/type/schema_printer.h"

#include <optional>
#include <string_view>
#include <vector>

#include "core/graphql/language/block_string.h"
#include "core/graphql/language/printer.h"
#include "core/graphql/utilities/input_literal.h"

namespace netgraph::graphql {

namespace {

std::string Str(std::string_view text) { return std::string(text); }

// A description above a definition; inside a block, indented, with a blank line before it
// unless it comes first.
std::string PrintDescription(const std::optional<std::string_view>& description,
                             const std::string& indentation = "", bool first_in_block = true) {
  if (!description) return {};
  std::string block = IsPrintableAsBlockString(*description) ? PrintBlockString(*description)
                                                             : PrintString(*description);
  std::string result = !indentation.empty() && !first_in_block ? "\n" + indentation : indentation;
  for (char c : block) {
    result += c;
    if (c == '\n') result += indentation;
  }
  return result + "\n";
}

std::string PrintDeprecated(const std::optional<std::string_view>& reason) {
  if (!reason) return {};
  if (*reason == kDefaultDeprecationReason) return " @deprecated";
  return " @deprecated(reason: " + PrintString(*reason) + ")";
}

std::string PrintInputValue(const InputValue& value) {
  std::string result = Str(value.name) + ": " + value.type.ToString();
  if (value.default_value) {
    if (std::optional<std::string> literal =
            PrintValueAsLiteral(*value.default_value, value.type)) {
      result += " = " + *literal;
    }
  }
  return result + PrintDeprecated(value.deprecation_reason);
}

std::string PrintArguments(const std::vector<InputValue>& arguments,
                           const std::string& indentation = "") {
  if (arguments.empty()) return {};
  bool any_description = false;
  for (const InputValue& argument : arguments) any_description |= argument.description.has_value();
  std::string result = "(";
  if (!any_description) {
    for (std::size_t i = 0; i < arguments.size(); ++i) {
      if (i > 0) result += ", ";
      result += PrintInputValue(arguments[i]);
    }
    return result + ")";
  }
  result += "\n";
  for (std::size_t i = 0; i < arguments.size(); ++i) {
    if (i > 0) result += "\n";
    result += PrintDescription(arguments[i].description, "  " + indentation, i == 0) + "  " +
              indentation + PrintInputValue(arguments[i]);
  }
  return result + "\n" + indentation + ")";
}

std::string PrintBlock(const std::vector<std::string>& items) {
  if (items.empty()) return {};
  std::string result = " {\n";
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) result += "\n";
    result += items[i];
  }
  return result + "\n}";
}

std::string PrintImplementedInterfaces(const NamedType& type) {
  if (type.interfaces.empty()) return {};
  std::string result = " implements ";
  for (std::size_t i = 0; i < type.interfaces.size(); ++i) {
    if (i > 0) result += " & ";
    result += Str(type.interfaces[i]->name);
  }
  return result;
}

std::string PrintFields(const NamedType& type) {
  std::vector<std::string> fields;
  for (std::size_t i = 0; i < type.fields.size(); ++i) {
    const Field& field = type.fields[i];
    fields.push_back(PrintDescription(field.description, "  ", i == 0) + "  " + Str(field.name) +
                     PrintArguments(field.arguments, "  ") + ": " + field.type.ToString() +
                     PrintDeprecated(field.deprecation_reason));
  }
  return PrintBlock(fields);
}

std::string PrintType(const NamedType& type) {
  std::string result = PrintDescription(type.description);
  switch (type.kind) {
    case TypeKind::kScalar:
      result += "scalar " + Str(type.name);
      if (type.specified_by_url) {
        result += " @specifiedBy(url: " + PrintString(*type.specified_by_url) + ")";
      }
      return result;
    case TypeKind::kObject:
      return result + "type " + Str(type.name) + PrintImplementedInterfaces(type) +
             PrintFields(type);
    case TypeKind::kInterface:
      return result + "interface " + Str(type.name) + PrintImplementedInterfaces(type) +
             PrintFields(type);
    case TypeKind::kUnion: {
      result += "union " + Str(type.name);
      for (std::size_t i = 0; i < type.members.size(); ++i) {
        result += (i == 0 ? " = " : " | ") + Str(type.members[i]->name);
      }
      return result;
    }
    case TypeKind::kEnum: {
      std::vector<std::string> values;
      for (std::size_t i = 0; i < type.enum_values.size(); ++i) {
        const EnumValue& value = type.enum_values[i];
        values.push_back(PrintDescription(value.description, "  ", i == 0) + "  " +
                         Str(value.name) + PrintDeprecated(value.deprecation_reason));
      }
      return result + "enum " + Str(type.name) + PrintBlock(values);
    }
    case TypeKind::kInputObject: {
      std::vector<std::string> fields;
      for (std::size_t i = 0; i < type.input_fields.size(); ++i) {
        const InputValue& field = type.input_fields[i];
        fields.push_back(PrintDescription(field.description, "  ", i == 0) + "  " +
                         PrintInputValue(field));
      }
      return result + "input " + Str(type.name) + (type.one_of ? " @oneOf" : "") +
             PrintBlock(fields);
    }
  }
  return result;
}

std::string PrintDirective(const Directive& directive) {
  std::string result = PrintDescription(directive.description) + "directive @" +
                       Str(directive.name) + PrintArguments(directive.arguments) +
                       (directive.repeatable ? " repeatable" : "") + " on ";
  for (std::size_t i = 0; i < directive.locations.size(); ++i) {
    if (i > 0) result += " | ";
    result += Str(DirectiveLocationName(directive.locations[i]));
  }
  return result;
}

// The schema definition, unless the roots use the common names and there is no description.
std::optional<std::string> PrintSchemaDefinition(const Schema& schema) {
  auto named = [](const NamedType* type, std::string_view name) {
    return type == nullptr || type->name == name;
  };
  if (!schema.description() && named(schema.query_type(), "Query") &&
      named(schema.mutation_type(), "Mutation") &&
      named(schema.subscription_type(), "Subscription")) {
    return std::nullopt;
  }
  std::string operations;
  auto add = [&operations](std::string_view operation, const NamedType* type) {
    if (type == nullptr) return;
    if (!operations.empty()) operations += "\n";
    operations += "  " + Str(operation) + ": " + Str(type->name);
  };
  add("query", schema.query_type());
  add("mutation", schema.mutation_type());
  add("subscription", schema.subscription_type());
  return PrintDescription(schema.description()) + "schema {\n" + operations + "\n}";
}

}  // namespace

std::string PrintSchema(const Schema& schema) {
  std::vector<std::string> parts;
  if (std::optional<std::string> definition = PrintSchemaDefinition(schema)) {
    parts.push_back(std::move(*definition));
  }
  for (const Directive* directive : schema.directives()) {
    if (!IsSpecifiedDirectiveName(directive->name)) {
      parts.push_back(PrintDirective(*directive));
    }
  }
  for (const NamedType* type : schema.types()) {
    if (type->is_specified_scalar() || type->is_introspection()) continue;
    parts.push_back(PrintType(*type));
  }
  std::string result;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) result += "\n\n";
    result += parts[i];
  }
  return result;
}

}  // namespace netgraph::graphql
