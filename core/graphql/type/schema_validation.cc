#include "core/graphql/type/schema_validation.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace netgraph::graphql {

namespace {

// The AST nodes an error points at; null entries (built-in definitions) are skipped.
using Nodes = std::vector<const ast::Node*>;

std::string Str(std::string_view text) { return std::string(text); }

const ast::Node* TypeNodeOf(const ast::FieldDefinition* field) {
  return field == nullptr ? nullptr : field->type;
}
const ast::Node* TypeNodeOf(const ast::InputValueDefinition* value) {
  return value == nullptr ? nullptr : value->type;
}

// The @deprecated directive applied to a definition, if any.
const ast::Node* DeprecatedDirectiveOf(const ast::InputValueDefinition* definition) {
  if (definition == nullptr) return nullptr;
  for (const ast::Directive* directive : definition->directives) {
    if (directive->name.value == "deprecated") return directive;
  }
  return nullptr;
}

Nodes DefinitionAndExtensions(const NamedType& type) {
  Nodes nodes{type.ast};
  nodes.insert(nodes.end(), type.extension_asts.begin(), type.extension_asts.end());
  return nodes;
}

class SchemaValidator {
 public:
  SchemaValidator(const Schema& schema, const LineIndex& lines) : schema_(schema), lines_(lines) {}

  std::vector<Error> Run() {
    ValidateRootTypes();
    ValidateDirectives();
    for (const NamedType* type : schema_.types()) ValidateType(*type);
    return std::move(errors_);
  }

 private:
  void Report(std::string message, const Nodes& nodes) {
    Error error{std::move(message), {}, {}, {}};
    for (const ast::Node* node : nodes) {
      if (node != nullptr) error.locations.push_back(lines_.Locate(node->offset));
    }
    errors_.push_back(std::move(error));
  }

  void ValidateName(std::string_view name, const ast::Node* node) {
    if (name.starts_with("__")) {
      Report("Name \"" + Str(name) +
                 "\" must not begin with \"__\", which is reserved by GraphQL introspection.",
             {node});
    }
  }

  // ---- Root types.

  const ast::Node* OperationTypeNode(OperationType operation) const {
    std::vector<const ast::SchemaDefinition*> schemas;
    if (schema_.ast() != nullptr) schemas.push_back(schema_.ast());
    schemas.insert(schemas.end(), schema_.extension_asts().begin(), schema_.extension_asts().end());
    for (const ast::SchemaDefinition* definition : schemas) {
      for (const ast::OperationTypeDefinition* operation_type : definition->operation_types) {
        if (operation_type->operation == operation) return operation_type->type;
      }
    }
    return nullptr;
  }

  void ValidateRootTypes() {
    const NamedType* query = schema_.query_type();
    if (query == nullptr) {
      Report("Query root type must be provided.", {schema_.ast()});
    } else if (query->kind != TypeKind::kObject) {
      const ast::Node* node = OperationTypeNode(OperationType::kQuery);
      Report("Query root type must be Object type, it cannot be " + Str(query->name) + ".",
             {node != nullptr ? node : query->ast});
    }
    struct Root {
      OperationType operation;
      const NamedType* type;
      std::string_view label;
    };
    for (const Root& root :
         {Root{OperationType::kMutation, schema_.mutation_type(), "Mutation"},
          Root{OperationType::kSubscription, schema_.subscription_type(), "Subscription"}}) {
      if (root.type == nullptr || root.type->kind == TypeKind::kObject) continue;
      const ast::Node* node = OperationTypeNode(root.operation);
      Report(Str(root.label) + " root type must be Object type if provided, it cannot be " +
                 Str(root.type->name) + ".",
             {node != nullptr ? node : root.type->ast});
    }
  }

  // ---- Directives.

  void ValidateDirectives() {
    for (const Directive* directive : schema_.directives()) {
      ValidateName(directive->name, directive->ast);
      if (directive->locations.empty()) {
        Report("Directive @" + Str(directive->name) + " must include 1 or more locations.",
               {directive->ast});
      }
      for (const InputValue& argument : directive->arguments) {
        ValidateName(argument.name, argument.ast);
        if (!IsInputType(argument.type)) {
          Report("The type of @" + Str(directive->name) + "(" + Str(argument.name) +
                     ":) must be Input Type but got: " + argument.type.ToString() + ".",
                 {argument.ast});
        }
        if (argument.is_required() && argument.is_deprecated()) {
          Report("Required argument @" + Str(directive->name) + "(" + Str(argument.name) +
                     ":) cannot be deprecated.",
                 {DeprecatedDirectiveOf(argument.ast), TypeNodeOf(argument.ast)});
        }
      }
    }
  }

  // ---- Types.

  void ValidateType(const NamedType& type) {
    if (!type.is_introspection()) ValidateName(type.name, type.ast);
    switch (type.kind) {
      case TypeKind::kObject:
      case TypeKind::kInterface:
        ValidateFields(type);
        ValidateInterfaces(type);
        break;
      case TypeKind::kUnion:
        ValidateUnionMembers(type);
        break;
      case TypeKind::kEnum:
        ValidateEnumValues(type);
        break;
      case TypeKind::kInputObject:
        ValidateInputFields(type);
        DetectInputObjectCycles(type);
        break;
      case TypeKind::kScalar:
        break;
    }
  }

  void ValidateFields(const NamedType& type) {
    if (type.fields.empty()) {
      Report("Type " + Str(type.name) + " must define one or more fields.",
             DefinitionAndExtensions(type));
    }
    for (const Field& field : type.fields) {
      ValidateName(field.name, field.ast);
      if (!IsOutputType(field.type)) {
        Report("The type of " + Str(type.name) + "." + Str(field.name) +
                   " must be Output Type but got: " + field.type.ToString() + ".",
               {TypeNodeOf(field.ast)});
      }
      for (const InputValue& argument : field.arguments) {
        ValidateName(argument.name, argument.ast);
        std::string coordinate =
            Str(type.name) + "." + Str(field.name) + "(" + Str(argument.name) + ":)";
        if (!IsInputType(argument.type)) {
          Report("The type of " + coordinate +
                     " must be Input Type but got: " + argument.type.ToString() + ".",
                 {TypeNodeOf(argument.ast)});
        }
        if (argument.is_required() && argument.is_deprecated()) {
          Report("Required argument " + coordinate + " cannot be deprecated.",
                 {DeprecatedDirectiveOf(argument.ast), TypeNodeOf(argument.ast)});
        }
      }
    }
  }

  // The `implements` entries of `type` (definition and extensions) that name `interface_name`.
  static Nodes ImplementsNodes(const NamedType& type, std::string_view interface_name) {
    Nodes nodes;
    for (const ast::Node* node : DefinitionAndExtensions(type)) {
      if (node == nullptr) continue;
      for (const ast::NamedType* entry :
           static_cast<const ast::ImplementingTypeDefinition*>(node)->interfaces) {
        if (entry->name.value == interface_name) nodes.push_back(entry);
      }
    }
    return nodes;
  }

  void ValidateInterfaces(const NamedType& type) {
    std::unordered_set<std::string_view> seen;
    for (const NamedType* interface : type.interfaces) {
      if (interface->kind != TypeKind::kInterface) {
        Report("Type " + Str(type.name) +
                   " must only implement Interface types, it cannot "
                   "implement " +
                   Str(interface->name) + ".",
               ImplementsNodes(type, interface->name));
        continue;
      }
      if (interface == &type) {
        Report("Type " + Str(type.name) +
                   " cannot implement itself because it would create a circular reference.",
               ImplementsNodes(type, interface->name));
        continue;
      }
      if (!seen.insert(interface->name).second) {
        Report("Type " + Str(type.name) + " can only implement " + Str(interface->name) + " once.",
               ImplementsNodes(type, interface->name));
        continue;
      }
      ValidateImplementsAncestors(type, *interface);
      ValidateImplementsInterface(type, *interface);
    }
  }

  void ValidateImplementsAncestors(const NamedType& type, const NamedType& interface) {
    for (const NamedType* transitive : interface.interfaces) {
      if (std::find(type.interfaces.begin(), type.interfaces.end(), transitive) !=
          type.interfaces.end()) {
        continue;
      }
      std::string message =
          transitive == &type
              ? "Type " + Str(type.name) + " cannot implement " + Str(interface.name) +
                    " because it would create a circular reference."
              : "Type " + Str(type.name) + " must implement " + Str(transitive->name) +
                    " because it is implemented by " + Str(interface.name) + ".";
      Nodes nodes = ImplementsNodes(interface, transitive->name);
      Nodes more = ImplementsNodes(type, interface.name);
      nodes.insert(nodes.end(), more.begin(), more.end());
      Report(std::move(message), nodes);
    }
  }

  void ValidateImplementsInterface(const NamedType& type, const NamedType& interface) {
    for (const Field& interface_field : interface.fields) {
      const std::string field_name = Str(interface_field.name);
      const Field* type_field = type.FindField(interface_field.name);
      if (type_field == nullptr) {
        Nodes nodes{interface_field.ast};
        Nodes type_nodes = DefinitionAndExtensions(type);
        nodes.insert(nodes.end(), type_nodes.begin(), type_nodes.end());
        Report("Interface field " + Str(interface.name) + "." + field_name + " expected but " +
                   Str(type.name) + " does not provide it.",
               nodes);
        continue;
      }
      if (!IsTypeSubTypeOf(schema_, type_field->type, interface_field.type)) {
        Report("Interface field " + Str(interface.name) + "." + field_name + " expects type " +
                   interface_field.type.ToString() + " but " + Str(type.name) + "." + field_name +
                   " is type " + type_field->type.ToString() + ".",
               {TypeNodeOf(interface_field.ast), TypeNodeOf(type_field->ast)});
      }
      for (const InputValue& interface_argument : interface_field.arguments) {
        const std::string argument_name = Str(interface_argument.name);
        const InputValue* type_argument = type_field->FindArgument(interface_argument.name);
        if (type_argument == nullptr) {
          Report("Interface field argument " + Str(interface.name) + "." + field_name + "(" +
                     argument_name + ":) expected but " + Str(type.name) + "." + field_name +
                     " does not provide it.",
                 {interface_argument.ast, type_field->ast});
          continue;
        }
        if (!IsEqualType(interface_argument.type, type_argument->type)) {
          Report("Interface field argument " + Str(interface.name) + "." + field_name + "(" +
                     argument_name + ":) expects type " + interface_argument.type.ToString() +
                     " but " + Str(type.name) + "." + field_name + "(" + argument_name +
                     ":) is type " + type_argument->type.ToString() + ".",
                 {TypeNodeOf(interface_argument.ast), TypeNodeOf(type_argument->ast)});
        }
      }
      for (const InputValue& type_argument : type_field->arguments) {
        if (interface_field.FindArgument(type_argument.name) == nullptr &&
            type_argument.is_required()) {
          Report("Object field " + Str(type.name) + "." + field_name +
                     " includes required argument " + Str(type_argument.name) +
                     " that is missing from the Interface field " + Str(interface.name) + "." +
                     field_name + ".",
                 {type_argument.ast, interface_field.ast});
        }
      }
    }
  }

  // The member entries of a union (definition and extensions) that name `member_name`.
  static Nodes MemberNodes(const NamedType& union_type, std::string_view member_name) {
    Nodes nodes;
    for (const ast::Node* node : DefinitionAndExtensions(union_type)) {
      if (node == nullptr) continue;
      for (const ast::NamedType* entry :
           static_cast<const ast::UnionTypeDefinition*>(node)->types) {
        if (entry->name.value == member_name) nodes.push_back(entry);
      }
    }
    return nodes;
  }

  void ValidateUnionMembers(const NamedType& union_type) {
    if (union_type.members.empty()) {
      Report("Union type " + Str(union_type.name) + " must define one or more member types.",
             DefinitionAndExtensions(union_type));
    }
    std::unordered_set<std::string_view> included;
    for (const NamedType* member : union_type.members) {
      if (!included.insert(member->name).second) {
        Report("Union type " + Str(union_type.name) + " can only include type " +
                   Str(member->name) + " once.",
               MemberNodes(union_type, member->name));
        continue;
      }
      if (member->kind != TypeKind::kObject) {
        Report("Union type " + Str(union_type.name) +
                   " can only include Object types, it cannot include " + Str(member->name) + ".",
               MemberNodes(union_type, member->name));
      }
    }
  }

  void ValidateEnumValues(const NamedType& enum_type) {
    if (enum_type.enum_values.empty()) {
      Report("Enum type " + Str(enum_type.name) + " must define one or more values.",
             DefinitionAndExtensions(enum_type));
    }
    for (const EnumValue& value : enum_type.enum_values) ValidateName(value.name, value.ast);
  }

  void ValidateInputFields(const NamedType& input) {
    if (input.input_fields.empty()) {
      Report("Input Object type " + Str(input.name) + " must define one or more fields.",
             DefinitionAndExtensions(input));
    }
    for (const InputValue& field : input.input_fields) {
      const std::string coordinate = Str(input.name) + "." + Str(field.name);
      ValidateName(field.name, field.ast);
      if (!IsInputType(field.type)) {
        Report("The type of " + coordinate +
                   " must be Input Type but got: " + field.type.ToString() + ".",
               {TypeNodeOf(field.ast)});
      }
      if (field.is_required() && field.is_deprecated()) {
        Report("Required input field " + coordinate + " cannot be deprecated.",
               {DeprecatedDirectiveOf(field.ast), TypeNodeOf(field.ast)});
      }
      if (input.one_of) {
        if (field.type.is_non_null()) {
          Report("OneOf input field " + coordinate + " must be nullable.", {TypeNodeOf(field.ast)});
        }
        if (field.default_value) {
          Report("OneOf input field " + coordinate + " cannot have a default value.", {field.ast});
        }
      }
    }
  }

  // Non-null input object fields must not lead back to their own type: depth-first, reporting
  // every cycle once (graphql-js's createInputObjectCircularRefsValidator).
  void DetectInputObjectCycles(const NamedType& input) {
    if (!visited_inputs_.insert(&input).second) return;
    path_index_[&input] = field_path_.size();
    for (const InputValue& field : input.input_fields) {
      if (!field.type.is_non_null() || !field.type.OfType().is_named() ||
          field.type.named()->kind != TypeKind::kInputObject) {
        continue;
      }
      const NamedType& field_type = *field.type.named();
      auto cycle = path_index_.find(&field_type);
      field_path_.push_back(&field);
      if (cycle == path_index_.end()) {
        DetectInputObjectCycles(field_type);
      } else {
        std::string path;
        Nodes nodes;
        for (std::size_t i = cycle->second; i < field_path_.size(); ++i) {
          if (!path.empty()) path += '.';
          path += field_path_[i]->name;
          nodes.push_back(field_path_[i]->ast);
        }
        Report("Cannot reference Input Object \"" + Str(field_type.name) +
                   "\" within itself through a series of non-null fields: \"" + path + "\".",
               nodes);
      }
      field_path_.pop_back();
    }
    path_index_.erase(&input);
  }

  const Schema& schema_;
  const LineIndex& lines_;
  std::vector<Error> errors_;
  std::unordered_set<const NamedType*> visited_inputs_;
  std::vector<const InputValue*> field_path_;
  std::unordered_map<const NamedType*, std::size_t> path_index_;
};

}  // namespace

std::vector<Error> ValidateSchema(const Schema& schema, const LineIndex& sdl_lines) {
  return SchemaValidator(schema, sdl_lines).Run();
}

}  // namespace netgraph::graphql
