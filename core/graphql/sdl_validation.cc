#include "core/graphql/sdl_validation.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "core/graphql/language/directive_location.h"
#include "core/graphql/language/printer.h"
#include "core/graphql/language/source_location.h"
#include "core/graphql/language/visitor.h"
#include "core/graphql/type/builtins.h"
#include "core/graphql/utilities/suggestion_list.h"

namespace netgraph::graphql {

namespace {

using ast::NodeKind;

// What the rules need to know of a directive, from BuiltinsSdl() or from the SDL.
struct DirectiveFacts {
  std::vector<DirectiveLocation> locations;
  std::vector<std::string_view> argument_names;
  // Non-Null arguments without a default, with their type as written.
  std::vector<std::pair<std::string_view, std::string>> required_arguments;
  bool repeatable = false;
};

DirectiveFacts FactsOf(const ast::DirectiveDefinition& definition) {
  DirectiveFacts facts;
  for (const ast::Name& location : definition.locations) {
    facts.locations.push_back(*DirectiveLocationFromName(location.value));  // checked by the parser
  }
  for (const ast::InputValueDefinition* argument : definition.arguments) {
    facts.argument_names.push_back(argument->name.value);
    if (argument->type->kind == NodeKind::kNonNullType && argument->default_value == nullptr) {
      facts.required_arguments.emplace_back(argument->name.value, Print(*argument->type));
    }
  }
  facts.repeatable = definition.repeatable;
  return facts;
}

bool IsTypeDefinitionKind(NodeKind kind) {
  switch (kind) {
    case NodeKind::kScalarTypeDefinition:
    case NodeKind::kObjectTypeDefinition:
    case NodeKind::kInterfaceTypeDefinition:
    case NodeKind::kUnionTypeDefinition:
    case NodeKind::kEnumTypeDefinition:
    case NodeKind::kInputObjectTypeDefinition:
      return true;
    default:
      return false;
  }
}

// The extension kind that may extend a definition kind.
NodeKind ExtensionKindOf(NodeKind definition_kind) {
  switch (definition_kind) {
    case NodeKind::kScalarTypeDefinition:
      return NodeKind::kScalarTypeExtension;
    case NodeKind::kObjectTypeDefinition:
      return NodeKind::kObjectTypeExtension;
    case NodeKind::kInterfaceTypeDefinition:
      return NodeKind::kInterfaceTypeExtension;
    case NodeKind::kUnionTypeDefinition:
      return NodeKind::kUnionTypeExtension;
    case NodeKind::kEnumTypeDefinition:
      return NodeKind::kEnumTypeExtension;
    default:
      return NodeKind::kInputObjectTypeExtension;
  }
}

std::string_view ExtensionKindWord(NodeKind extension_kind) {
  switch (extension_kind) {
    case NodeKind::kScalarTypeExtension:
      return "scalar";
    case NodeKind::kObjectTypeExtension:
      return "object";
    case NodeKind::kInterfaceTypeExtension:
      return "interface";
    case NodeKind::kUnionTypeExtension:
      return "union";
    case NodeKind::kEnumTypeExtension:
      return "enum";
    default:
      return "input object";
  }
}

std::string Quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

// All the rules in one visitor: at each node the rules run in graphql-js's rule order.
class SdlValidator : public ast::Visitor {
 public:
  SdlValidator(const ast::Document& sdl, const ast::Document& builtins) : lines_(sdl.source()) {
    for (const ast::Definition* definition : builtins.definitions()) {
      if (const auto* directive = definition->As<ast::DirectiveDefinition>()) {
        directives_[directive->name.value] = FactsOf(*directive);
      } else if (const auto* type = definition->As<ast::TypeDefinition>()) {
        if (type->name.value != kMetaFieldsTypeName)
          standard_type_names_.push_back(type->name.value);
      }
    }
    for (const ast::Definition* definition : sdl.definitions()) {
      if (const auto* directive = definition->As<ast::DirectiveDefinition>()) {
        directives_[directive->name.value] = FactsOf(*directive);
      } else if (IsTypeDefinitionKind(definition->kind)) {
        const auto* type = static_cast<const ast::TypeDefinition*>(definition);
        if (defined_types_.find(type->name.value) == defined_types_.end()) {
          defined_type_names_.push_back(type->name.value);
        }
        defined_types_[type->name.value] = type;
      }
    }
  }

  std::vector<Error> TakeErrors() { return std::move(errors_); }

  bool Enter(const ast::Node& node) override {
    // The rules in graphql-js's order; each looks at the node kinds it cares about.
    if (node.kind == NodeKind::kSchemaDefinition) CheckLoneSchemaDefinition(node);
    if (const auto* schema = node.As<ast::SchemaDefinition>()) CheckUniqueOperationTypes(*schema);
    const auto* type = node.As<ast::TypeDefinition>();
    if (type != nullptr) EnterTypeDefinition(*type);
    if (const auto* definition = node.As<ast::DirectiveDefinition>()) {
      CheckUniqueArgumentDefinitionNames("@" + std::string(definition->name.value),
                                         definition->arguments);
      CheckUniqueDirectiveName(*definition);
    }
    if (const auto* named_type = node.As<ast::NamedType>()) CheckKnownTypeName(*named_type);
    const auto* directive = node.As<ast::Directive>();
    if (directive != nullptr) CheckKnownDirective(*directive);
    CheckUniqueDirectivesPerLocation(node);
    if (type != nullptr && type->is_extension()) CheckPossibleTypeExtension(*type);
    if (directive != nullptr) {
      CheckKnownArgumentNamesOnDirective(*directive);
      CheckUniqueArgumentNames(directive->arguments);
    }
    if (const auto* field = node.As<ast::Field>()) CheckUniqueArgumentNames(field->arguments);
    if (node.kind == NodeKind::kObjectValue) input_field_scopes_.emplace_back();
    if (const auto* field = node.As<ast::ObjectField>()) CheckUniqueInputFieldName(*field);
    return true;
  }

  void Leave(const ast::Node& node) override {
    if (node.kind == NodeKind::kObjectValue) input_field_scopes_.pop_back();
    if (node.kind == NodeKind::kDirective) {
      CheckProvidedRequiredArguments(static_cast<const ast::Directive&>(node));
    }
  }

 private:
  void Report(std::string message, std::initializer_list<std::uint32_t> offsets) {
    Report(std::move(message), std::vector<std::uint32_t>(offsets));
  }
  void Report(std::string message, const std::vector<std::uint32_t>& offsets) {
    Error error{std::move(message), {}, {}, {}};
    for (std::uint32_t offset : offsets) error.locations.push_back(lines_.Locate(offset));
    errors_.push_back(std::move(error));
  }

  // The rules of graphql-js's order that precede UniqueDirectivesPerLocation at a type
  // definition or extension: type names, enum values, field names, argument names.
  void EnterTypeDefinition(const ast::TypeDefinition& type) {
    if (!type.is_extension()) CheckUniqueTypeName(type);
    if (const auto* enum_type = type.As<ast::EnumTypeDefinition>()) {
      CheckUniqueEnumValueNames(*enum_type);
    }
    if (const auto* input = type.As<ast::InputObjectTypeDefinition>()) {
      CheckUniqueFieldNames(type.name.value, input->fields);
    }
    if (const auto* implementing = type.As<ast::ImplementingTypeDefinition>()) {
      CheckUniqueFieldNames(type.name.value, implementing->fields);
      for (const ast::FieldDefinition* field : implementing->fields) {
        CheckUniqueArgumentDefinitionNames(
            std::string(type.name.value) + "." + std::string(field->name.value), field->arguments);
      }
    }
  }

  // LoneSchemaDefinitionRule
  void CheckLoneSchemaDefinition(const ast::Node& node) {
    if (schema_definitions_++ > 0)
      Report("Must provide only one schema definition.", {node.offset});
  }

  // UniqueOperationTypesRule
  void CheckUniqueOperationTypes(const ast::SchemaDefinition& schema) {
    for (const ast::OperationTypeDefinition* operation_type : schema.operation_types) {
      auto& known = operation_types_[static_cast<std::size_t>(operation_type->operation)];
      if (known != nullptr) {
        Report("There can be only one " +
                   std::string(ast::OperationTypeName(operation_type->operation)) +
                   " type in schema.",
               {known->offset, operation_type->offset});
      } else {
        known = operation_type;
      }
    }
  }

  // UniqueTypeNamesRule
  void CheckUniqueTypeName(const ast::TypeDefinition& type) {
    auto [it, inserted] = type_names_.emplace(type.name.value, type.name.offset);
    if (!inserted) {
      Report("There can be only one type named " + Quoted(type.name.value) + ".",
             {it->second, type.name.offset});
    }
  }

  // UniqueEnumValueNamesRule
  void CheckUniqueEnumValueNames(const ast::EnumTypeDefinition& type) {
    auto& known = enum_values_[type.name.value];
    for (const ast::EnumValueDefinition* value : type.values) {
      auto [it, inserted] = known.emplace(value->name.value, value->name.offset);
      if (!inserted) {
        Report("Enum value \"" + std::string(type.name.value) + "." +
                   std::string(value->name.value) + "\" can only be defined once.",
               {it->second, value->name.offset});
      }
    }
  }

  // UniqueFieldDefinitionNamesRule
  template <typename FieldList>
  void CheckUniqueFieldNames(std::string_view type_name, const FieldList& fields) {
    auto& known = field_names_[type_name];
    for (const auto* field : fields) {
      auto [it, inserted] = known.emplace(field->name.value, field->name.offset);
      if (!inserted) {
        Report("Field \"" + std::string(type_name) + "." + std::string(field->name.value) +
                   "\" can only be defined once.",
               {it->second, field->name.offset});
      }
    }
  }

  // Argument names repeated in a list, with the offsets of every occurrence, in the order the
  // names first appear (graphql-js's groupBy).
  template <typename Item>
  static std::vector<std::pair<std::string_view, std::vector<std::uint32_t>>> Repeated(
      const ast::List<const Item*>& items) {
    std::vector<std::pair<std::string_view, std::vector<std::uint32_t>>> groups;
    for (const Item* item : items) {
      auto group = std::find_if(groups.begin(), groups.end(),
                                [&](const auto& g) { return g.first == item->name.value; });
      if (group == groups.end()) {
        groups.push_back({item->name.value, {item->name.offset}});
      } else {
        group->second.push_back(item->name.offset);
      }
    }
    std::erase_if(groups, [](const auto& g) { return g.second.size() < 2; });
    return groups;
  }

  // UniqueArgumentDefinitionNamesRule
  void CheckUniqueArgumentDefinitionNames(const std::string& parent,
                                          const ast::List<const ast::InputValueDefinition*>& args) {
    for (const auto& [name, offsets] : Repeated(args)) {
      Report("Argument \"" + parent + "(" + std::string(name) + ":)\" can only be defined once.",
             offsets);
    }
  }

  // UniqueDirectiveNamesRule
  void CheckUniqueDirectiveName(const ast::DirectiveDefinition& definition) {
    auto [it, inserted] = directive_names_.emplace(definition.name.value, definition.name.offset);
    if (!inserted) {
      Report(
          "There can be only one directive named \"@" + std::string(definition.name.value) + "\".",
          {it->second, definition.name.offset});
    }
  }

  // KnownTypeNamesRule
  void CheckKnownTypeName(const ast::NamedType& type) {
    std::string_view name = type.name.value;
    if (defined_types_.count(name) != 0) return;
    // Type system definitions may use the standard types without defining them.
    const ast::Node* definition = ancestors().empty() ? &type : ancestors().front();
    const bool is_sdl = !static_cast<const ast::Definition*>(definition)->is_executable();
    const bool is_standard = std::find(standard_type_names_.begin(), standard_type_names_.end(),
                                       name) != standard_type_names_.end();
    if (is_sdl && is_standard) return;
    std::vector<std::string_view> options;
    if (is_sdl) options = standard_type_names_;
    options.insert(options.end(), defined_type_names_.begin(), defined_type_names_.end());
    Report("Unknown type " + Quoted(name) + "." + DidYouMean(SuggestionList(name, options)),
           {type.offset});
  }

  // KnownDirectivesRule
  void CheckKnownDirective(const ast::Directive& directive) {
    auto facts = directives_.find(directive.name.value);
    if (facts == directives_.end()) {
      Report("Unknown directive \"@" + std::string(directive.name.value) + "\".",
             {directive.offset});
      return;
    }
    std::optional<DirectiveLocation> location = DirectiveLocationAt(ancestors());
    const auto& locations = facts->second.locations;
    if (location && std::find(locations.begin(), locations.end(), *location) == locations.end()) {
      Report("Directive \"@" + std::string(directive.name.value) + "\" may not be used on " +
                 std::string(DirectiveLocationName(*location)) + ".",
             {directive.offset});
    }
  }

  // UniqueDirectivesPerLocationRule: a non-repeatable directive once per location; a type's
  // definition and extensions count as one location, and so do the schema's.
  void CheckUniqueDirectivesPerLocation(const ast::Node& node) {
    const ast::List<const ast::Directive*>* directives = ast::DirectivesOf(node);
    if (directives == nullptr) return;
    std::map<std::string_view, std::uint32_t> local;
    std::map<std::string_view, std::uint32_t>* seen = &local;
    if (node.kind == NodeKind::kSchemaDefinition || node.kind == NodeKind::kSchemaExtension) {
      seen = &schema_directives_;
    } else if (const auto* type = node.As<ast::TypeDefinition>()) {
      seen = &type_directives_[type->name.value];
    }
    for (const ast::Directive* directive : *directives) {
      auto facts = directives_.find(directive->name.value);
      if (facts == directives_.end() || facts->second.repeatable) continue;
      auto [it, inserted] = seen->emplace(directive->name.value, directive->offset);
      if (!inserted) {
        Report("The directive \"@" + std::string(directive->name.value) +
                   "\" can only be used once at this location.",
               {it->second, directive->offset});
      }
    }
  }

  // PossibleTypeExtensionsRule
  void CheckPossibleTypeExtension(const ast::TypeDefinition& extension) {
    std::string_view name = extension.name.value;
    auto definition = defined_types_.find(name);
    if (definition == defined_types_.end()) {
      Report("Cannot extend type " + Quoted(name) + " because it is not defined." +
                 DidYouMean(SuggestionList(name, defined_type_names_)),
             {extension.name.offset});
      return;
    }
    if (ExtensionKindOf(definition->second->kind) != extension.kind) {
      Report("Cannot extend non-" + std::string(ExtensionKindWord(extension.kind)) + " type " +
                 Quoted(name) + ".",
             {definition->second->offset, extension.offset});
    }
  }

  // KnownArgumentNamesOnDirectivesRule
  void CheckKnownArgumentNamesOnDirective(const ast::Directive& directive) {
    auto facts = directives_.find(directive.name.value);
    if (facts == directives_.end()) return;
    const std::vector<std::string_view>& known = facts->second.argument_names;
    for (const ast::Argument* argument : directive.arguments) {
      if (std::find(known.begin(), known.end(), argument->name.value) != known.end()) continue;
      Report("Unknown argument " + Quoted(argument->name.value) + " on directive \"@" +
                 std::string(directive.name.value) + "\"." +
                 DidYouMean(SuggestionList(argument->name.value, known)),
             {argument->offset});
    }
  }

  // UniqueArgumentNamesRule
  void CheckUniqueArgumentNames(const ast::List<const ast::Argument*>& arguments) {
    for (const auto& [name, offsets] : Repeated(arguments)) {
      Report("There can be only one argument named " + Quoted(name) + ".", offsets);
    }
  }

  // UniqueInputFieldNamesRule
  void CheckUniqueInputFieldName(const ast::ObjectField& field) {
    auto [it, inserted] = input_field_scopes_.back().emplace(field.name.value, field.name.offset);
    if (!inserted) {
      Report("There can be only one input field named " + Quoted(field.name.value) + ".",
             {it->second, field.name.offset});
    }
  }

  // ProvidedRequiredArgumentsOnDirectivesRule
  void CheckProvidedRequiredArguments(const ast::Directive& directive) {
    auto facts = directives_.find(directive.name.value);
    if (facts == directives_.end()) return;
    for (const auto& [name, type] : facts->second.required_arguments) {
      bool provided =
          std::any_of(directive.arguments.begin(), directive.arguments.end(),
                      [&name = name](const ast::Argument* a) { return a->name.value == name; });
      if (provided) continue;
      Report("Directive \"@" + std::string(directive.name.value) + "\" argument " + Quoted(name) +
                 " of type " + Quoted(type) + " is required, but it was not provided.",
             {directive.offset});
    }
  }

  LineIndex lines_;
  std::vector<Error> errors_;

  std::unordered_map<std::string_view, DirectiveFacts> directives_;
  std::vector<std::string_view> standard_type_names_;
  std::unordered_map<std::string_view, const ast::TypeDefinition*> defined_types_;
  std::vector<std::string_view> defined_type_names_;  // in order of first definition

  int schema_definitions_ = 0;
  const ast::OperationTypeDefinition* operation_types_[3] = {nullptr, nullptr, nullptr};
  std::unordered_map<std::string_view, std::uint32_t> type_names_;
  std::unordered_map<std::string_view, std::unordered_map<std::string_view, std::uint32_t>>
      enum_values_;
  std::unordered_map<std::string_view, std::unordered_map<std::string_view, std::uint32_t>>
      field_names_;
  std::unordered_map<std::string_view, std::uint32_t> directive_names_;
  std::map<std::string_view, std::uint32_t> schema_directives_;
  std::unordered_map<std::string_view, std::map<std::string_view, std::uint32_t>> type_directives_;
  std::vector<std::unordered_map<std::string_view, std::uint32_t>> input_field_scopes_;
};

}  // namespace

std::vector<Error> ValidateSdl(const ast::Document& sdl, const ast::Document& builtins) {
  SdlValidator validator(sdl, builtins);
  ast::Walk(sdl, &validator);
  return validator.TakeErrors();
}

}  // namespace netgraph::graphql
