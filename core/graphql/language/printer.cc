#include "core/graphql/language/printer.h"

#include <cstdio>
#include <initializer_list>
#include <vector>

#include "core/graphql/language/block_string.h"
#include "core/graphql/language/utf8.h"

namespace netgraph::graphql {

namespace {

using namespace ast;  // NOLINT: this file prints every node kind

constexpr std::size_t kMaxLineLength = 80;

// graphql-js's printer helpers. `Join` skips empty parts.
std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string result;
  bool first = true;
  for (const std::string& part : parts) {
    if (part.empty()) continue;
    if (!first) result += separator;
    result += part;
    first = false;
  }
  return result;
}

std::string Join(std::initializer_list<std::string> parts, std::string_view separator) {
  return Join(std::vector<std::string>(parts), separator);
}

std::string Wrap(std::string_view start, const std::string& text, std::string_view end = {}) {
  if (text.empty()) return {};
  std::string result(start);
  result += text;
  result += end;
  return result;
}

std::string Indent(const std::string& text) {
  if (text.empty()) return {};
  std::string result = "  ";
  for (char c : text) {
    result += c;
    if (c == '\n') result += "  ";
  }
  return result;
}

std::string Block(const std::vector<std::string>& items) {
  return Wrap("{\n", Indent(Join(items, "\n")), "\n}");
}

bool HasMultilineItems(const std::vector<std::string>& items) {
  for (const std::string& item : items) {
    if (item.find('\n') != std::string::npos) return true;
  }
  return false;
}

template <typename T>
std::vector<std::string> PrintAll(const List<const T*>& nodes) {
  std::vector<std::string> printed;
  printed.reserve(nodes.size());
  for (const T* node : nodes) printed.push_back(Print(*node));
  return printed;
}

std::string PrintOptional(const Node* node) {
  return node == nullptr ? std::string() : Print(*node);
}

std::string PrintDirectives(const List<const Directive*>& directives) {
  return Join(PrintAll(directives), " ");
}

std::string PrintArgumentDefinitions(const List<const InputValueDefinition*>& arguments) {
  std::vector<std::string> printed = PrintAll(arguments);
  if (HasMultilineItems(printed)) return Wrap("(\n", Indent(Join(printed, "\n")), "\n)");
  return Wrap("(", Join(printed, ", "), ")");
}

std::string WithDescription(const StringValue* description, const std::string& text) {
  return Wrap("", PrintOptional(description), "\n") + text;
}

// A type definition's text, after its description; extensions have none.
std::string WithTypeDescription(const TypeDefinition& definition, const std::string& text) {
  return definition.is_extension() ? text : WithDescription(definition.description, text);
}

std::string PrintImplementing(std::string keyword, const ImplementingTypeDefinition& n) {
  std::string text = Join({std::move(keyword), std::string(n.name.value),
                           Wrap("implements ", Join(PrintAll(n.interfaces), " & ")),
                           PrintDirectives(n.directives), Block(PrintAll(n.fields))},
                          " ");
  return WithTypeDescription(n, text);
}

}  // namespace

std::string PrintString(std::string_view value) {
  std::string result = "\"";
  result.reserve(value.size() + 2);
  for (std::size_t i = 0; i < value.size(); ++i) {
    const auto c = static_cast<unsigned char>(value[i]);
    char32_t control = 0;
    bool escape = false;
    if (c < 0x20 || c == 0x7F) {
      control = c;
      escape = true;
    } else if (c == 0xC2 && i + 1 < value.size() &&
               static_cast<unsigned char>(value[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(value[i + 1]) <= 0x9F) {
      control = static_cast<unsigned char>(value[++i]);  // U+0080-U+009F
      escape = true;
    }
    if (!escape) {
      if (c == '"') {
        result += "\\\"";
      } else if (c == '\\') {
        result += "\\\\";
      } else {
        result += static_cast<char>(c);
      }
      continue;
    }
    switch (control) {
      case '\b':
        result += "\\b";
        break;
      case '\t':
        result += "\\t";
        break;
      case '\n':
        result += "\\n";
        break;
      case '\f':
        result += "\\f";
        break;
      case '\r':
        result += "\\r";
        break;
      default: {
        char buffer[8];
        std::snprintf(buffer, sizeof buffer, "\\u%04X", static_cast<unsigned>(control));
        result += buffer;
      }
    }
  }
  result += '"';
  return result;
}

std::string Print(const Document& document) {
  std::vector<std::string> definitions;
  for (const Definition* definition : document.definitions()) {
    definitions.push_back(Print(*definition));
  }
  return Join(definitions, "\n\n");
}

std::string Print(const Node& node) {
  switch (node.kind) {
    case NodeKind::kOperationDefinition: {
      const auto& n = static_cast<const OperationDefinition&>(node);
      std::string variables = Wrap("(", Join(PrintAll(n.variable_definitions), ", "), ")");
      std::string prefix =
          Join({std::string(OperationTypeName(n.operation)),
                Join({std::string(n.name.value), variables}, ""), PrintDirectives(n.directives)},
               " ");
      // An anonymous query without variables or directives uses the short form.
      return (prefix == "query" ? std::string() : prefix + " ") + Print(*n.selection_set);
    }
    case NodeKind::kVariableDefinition: {
      const auto& n = static_cast<const VariableDefinition&>(node);
      return Print(*n.variable) + ": " + Print(*n.type) +
             Wrap(" = ", PrintOptional(n.default_value)) + Wrap(" ", PrintDirectives(n.directives));
    }
    case NodeKind::kSelectionSet:
      return Block(PrintAll(static_cast<const SelectionSet&>(node).selections));
    case NodeKind::kField: {
      const auto& n = static_cast<const Field&>(node);
      std::string prefix = Wrap("", std::string(n.alias.value), ": ") + std::string(n.name.value);
      std::vector<std::string> arguments = PrintAll(n.arguments);
      std::string arguments_line = prefix + Wrap("(", Join(arguments, ", "), ")");
      if (utf8::Utf16Length(arguments_line) > kMaxLineLength) {
        arguments_line = prefix + Wrap("(\n", Indent(Join(arguments, "\n")), "\n)");
      }
      return Join({arguments_line, PrintDirectives(n.directives), PrintOptional(n.selection_set)},
                  " ");
    }
    case NodeKind::kArgument: {
      const auto& n = static_cast<const Argument&>(node);
      return std::string(n.name.value) + ": " + Print(*n.value);
    }
    case NodeKind::kFragmentSpread: {
      const auto& n = static_cast<const FragmentSpread&>(node);
      return "..." + std::string(n.name.value) + Wrap(" ", PrintDirectives(n.directives));
    }
    case NodeKind::kInlineFragment: {
      const auto& n = static_cast<const InlineFragment&>(node);
      return Join({"...", Wrap("on ", PrintOptional(n.type_condition)),
                   PrintDirectives(n.directives), Print(*n.selection_set)},
                  " ");
    }
    case NodeKind::kFragmentDefinition: {
      const auto& n = static_cast<const FragmentDefinition&>(node);
      return "fragment " + std::string(n.name.value) + " on " + Print(*n.type_condition) + " " +
             Wrap("", PrintDirectives(n.directives), " ") + Print(*n.selection_set);
    }
    case NodeKind::kVariable:
      return "$" + std::string(static_cast<const Variable&>(node).name.value);
    case NodeKind::kIntValue:
      return std::string(static_cast<const IntValue&>(node).value);
    case NodeKind::kFloatValue:
      return std::string(static_cast<const FloatValue&>(node).value);
    case NodeKind::kStringValue: {
      const auto& n = static_cast<const StringValue&>(node);
      return n.block ? PrintBlockString(n.value) : PrintString(n.value);
    }
    case NodeKind::kBooleanValue:
      return static_cast<const BooleanValue&>(node).value ? "true" : "false";
    case NodeKind::kNullValue:
      return "null";
    case NodeKind::kEnumValue:
      return std::string(static_cast<const EnumValue&>(node).value);
    case NodeKind::kListValue:
      return "[" + Join(PrintAll(static_cast<const ListValue&>(node).values), ", ") + "]";
    case NodeKind::kObjectValue:
      return "{" + Join(PrintAll(static_cast<const ObjectValue&>(node).fields), ", ") + "}";
    case NodeKind::kObjectField: {
      const auto& n = static_cast<const ObjectField&>(node);
      return std::string(n.name.value) + ": " + Print(*n.value);
    }
    case NodeKind::kDirective: {
      const auto& n = static_cast<const Directive&>(node);
      return "@" + std::string(n.name.value) + Wrap("(", Join(PrintAll(n.arguments), ", "), ")");
    }
    case NodeKind::kNamedType:
      return std::string(static_cast<const NamedType&>(node).name.value);
    case NodeKind::kListType:
      return "[" + Print(*static_cast<const ListType&>(node).type) + "]";
    case NodeKind::kNonNullType:
      return Print(*static_cast<const NonNullType&>(node).type) + "!";
    case NodeKind::kSchemaDefinition:
    case NodeKind::kSchemaExtension: {
      const auto& n = static_cast<const SchemaDefinition&>(node);
      bool extension = node.kind == NodeKind::kSchemaExtension;
      std::string text = Join({extension ? "extend schema" : "schema",
                               PrintDirectives(n.directives), Block(PrintAll(n.operation_types))},
                              " ");
      return extension ? text : WithDescription(n.description, text);
    }
    case NodeKind::kOperationTypeDefinition: {
      const auto& n = static_cast<const OperationTypeDefinition&>(node);
      return std::string(OperationTypeName(n.operation)) + ": " + Print(*n.type);
    }
    case NodeKind::kScalarTypeDefinition:
    case NodeKind::kScalarTypeExtension: {
      const auto& n = static_cast<const ScalarTypeDefinition&>(node);
      return WithTypeDescription(n, Join({n.is_extension() ? "extend scalar" : "scalar",
                                          std::string(n.name.value), PrintDirectives(n.directives)},
                                         " "));
    }
    case NodeKind::kObjectTypeDefinition:
      return PrintImplementing("type", static_cast<const ImplementingTypeDefinition&>(node));
    case NodeKind::kObjectTypeExtension:
      return PrintImplementing("extend type", static_cast<const ImplementingTypeDefinition&>(node));
    case NodeKind::kInterfaceTypeDefinition:
      return PrintImplementing("interface", static_cast<const ImplementingTypeDefinition&>(node));
    case NodeKind::kInterfaceTypeExtension:
      return PrintImplementing("extend interface",
                               static_cast<const ImplementingTypeDefinition&>(node));
    case NodeKind::kFieldDefinition: {
      const auto& n = static_cast<const FieldDefinition&>(node);
      return WithDescription(
          n.description, std::string(n.name.value) + PrintArgumentDefinitions(n.arguments) + ": " +
                             Print(*n.type) + Wrap(" ", PrintDirectives(n.directives)));
    }
    case NodeKind::kInputValueDefinition: {
      const auto& n = static_cast<const InputValueDefinition&>(node);
      return WithDescription(n.description, Join({std::string(n.name.value) + ": " + Print(*n.type),
                                                  Wrap("= ", PrintOptional(n.default_value)),
                                                  PrintDirectives(n.directives)},
                                                 " "));
    }
    case NodeKind::kUnionTypeDefinition:
    case NodeKind::kUnionTypeExtension: {
      const auto& n = static_cast<const UnionTypeDefinition&>(node);
      std::string text =
          Join({n.is_extension() ? "extend union" : "union", std::string(n.name.value),
                PrintDirectives(n.directives), Wrap("= ", Join(PrintAll(n.types), " | "))},
               " ");
      return WithTypeDescription(n, text);
    }
    case NodeKind::kEnumTypeDefinition:
    case NodeKind::kEnumTypeExtension: {
      const auto& n = static_cast<const EnumTypeDefinition&>(node);
      std::string text = Join({n.is_extension() ? "extend enum" : "enum", std::string(n.name.value),
                               PrintDirectives(n.directives), Block(PrintAll(n.values))},
                              " ");
      return WithTypeDescription(n, text);
    }
    case NodeKind::kEnumValueDefinition: {
      const auto& n = static_cast<const EnumValueDefinition&>(node);
      return WithDescription(n.description,
                             Join({std::string(n.name.value), PrintDirectives(n.directives)}, " "));
    }
    case NodeKind::kInputObjectTypeDefinition:
    case NodeKind::kInputObjectTypeExtension: {
      const auto& n = static_cast<const InputObjectTypeDefinition&>(node);
      std::string text =
          Join({n.is_extension() ? "extend input" : "input", std::string(n.name.value),
                PrintDirectives(n.directives), Block(PrintAll(n.fields))},
               " ");
      return WithTypeDescription(n, text);
    }
    case NodeKind::kDirectiveDefinition: {
      const auto& n = static_cast<const DirectiveDefinition&>(node);
      std::vector<std::string> locations;
      for (const Name& location : n.locations) locations.emplace_back(location.value);
      return WithDescription(n.description, "directive @" + std::string(n.name.value) +
                                                PrintArgumentDefinitions(n.arguments) +
                                                (n.repeatable ? " repeatable" : "") + " on " +
                                                Join(locations, " | "));
    }
  }
  return {};
}

}  // namespace netgraph::graphql
