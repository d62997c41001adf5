#include "core/graphql/type/build_schema.h"

#include <cassert>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "core/graphql/language/parser.h"
#include "core/graphql/language/source_location.h"
#include "core/graphql/type/builtins.h"
#include "core/graphql/type/schema_validation.h"
#include "core/graphql/utilities/input_literal.h"
#include "core/graphql/validation/validate.h"

namespace netgraph::graphql {

namespace {

// Thrown while building when a directive argument does not coerce (graphql-js's
// getDirectiveValues throws there too); BuildSchema turns it into the single error it reports.
struct DirectiveArgumentFailure {
  ArgumentError error;
};

std::optional<std::string_view> DescriptionOf(const ast::StringValue* description) {
  if (description == nullptr) return std::nullopt;
  return description->value;
}

const ast::Directive* FindDirectiveNode(const ast::List<const ast::Directive*>& directives,
                                        std::string_view name) {
  for (const ast::Directive* directive : directives) {
    if (directive->name.value == name) return directive;
  }
  return nullptr;
}

// An ordered set that supports graphql-js's trick for the type map order: a type may be removed
// and added again at the end.
class TypeOrder {
 public:
  bool Contains(const NamedType* type) const { return position_.count(type) != 0; }
  void Add(const NamedType* type) {
    position_[type] = order_.size();
    order_.push_back(type);
  }
  void Remove(const NamedType* type) {
    auto it = position_.find(type);
    if (it == position_.end()) return;
    order_[it->second] = nullptr;
    position_.erase(it);
  }
  std::vector<const NamedType*> Finish() const {
    std::vector<const NamedType*> types;
    for (const NamedType* type : order_) {
      if (type != nullptr) types.push_back(type);
    }
    return types;
  }

 private:
  std::vector<const NamedType*> order_;
  std::unordered_map<const NamedType*, std::size_t> position_;
};

}  // namespace

// Builds a Schema in the order graphql-js's extendSchemaImpl and GraphQLSchema constructor do.
class SchemaBuilder {
 public:
  std::unique_ptr<const Schema> Build(std::string sdl, std::vector<Error>* errors) {
    Error syntax_error;
    std::unique_ptr<const ast::Document> document = Parse(std::move(sdl), {}, &syntax_error);
    if (document == nullptr) {
      errors->push_back(std::move(syntax_error));
      return nullptr;
    }
    std::unique_ptr<const ast::Document> builtins =
        Parse(std::string(BuiltinsSdl()), {}, &syntax_error);
    assert(builtins != nullptr);

    *errors = ValidateSdl(*document, *builtins);
    if (!errors->empty()) return nullptr;

    schema_.reset(new Schema());
    const LineIndex lines(document->source());
    try {
      BuildBuiltins(*builtins);
      BuildFromDocument(*document);
    } catch (const DirectiveArgumentFailure& failure) {
      errors->push_back(Error{failure.error.message, {lines.Locate(failure.error.offset)}, {}, {}});
      return nullptr;
    }
    ComputeDefaultValues();
    CollectTypeMap();
    IndexTypes();
    schema_->documents_.push_back(std::move(builtins));
    schema_->documents_.push_back(std::move(document));

    *errors = ValidateSchema(*schema_, lines);
    if (!errors->empty()) return nullptr;
    return std::move(schema_);
  }

 private:
  // ---- Built-in and SDL types.

  NamedType* NewType(const ast::TypeDefinition& definition, bool builtin) {
    auto type = std::make_unique<NamedType>();
    type->name = definition.name.value;
    type->description = DescriptionOf(definition.description);
    type->builtin_ = builtin;
    if (!builtin) type->ast = &definition;
    switch (definition.kind) {
      case ast::NodeKind::kScalarTypeDefinition:
        type->kind = TypeKind::kScalar;
        break;
      case ast::NodeKind::kObjectTypeDefinition:
        type->kind = TypeKind::kObject;
        break;
      case ast::NodeKind::kInterfaceTypeDefinition:
        type->kind = TypeKind::kInterface;
        break;
      case ast::NodeKind::kUnionTypeDefinition:
        type->kind = TypeKind::kUnion;
        break;
      case ast::NodeKind::kEnumTypeDefinition:
        type->kind = TypeKind::kEnum;
        break;
      default:
        type->kind = TypeKind::kInputObject;
        break;
    }
    NamedType* result = type.get();
    mutable_types_[result] = result;
    schema_->owned_types_.push_back(std::move(type));
    return result;
  }

  void BuildBuiltins(const ast::Document& builtins) {
    // Names first, then directives (their arguments name types), then the types' members (which
    // may use @deprecated).
    std::vector<std::pair<NamedType*, const ast::TypeDefinition*>> pending;
    for (const ast::Definition* definition : builtins.definitions()) {
      if (const auto* type_definition = definition->As<ast::TypeDefinition>()) {
        NamedType* type = NewType(*type_definition, /*builtin=*/true);
        standard_types_[type->name] = type;
        pending.emplace_back(type, type_definition);
      }
    }
    for (const ast::Definition* definition : builtins.definitions()) {
      if (const auto* directive = definition->As<ast::DirectiveDefinition>()) {
        standard_directives_.push_back(BuildDirective(*directive, /*builtin=*/true));
      }
    }
    // @deprecated's default reason must be known before any @deprecated is read.
    for (Directive* directive : standard_directives_) {
      for (InputValue& argument : directive->arguments) ComputeDefault(&argument);
    }
    for (auto [type, definition] : pending) Fill(type, {definition}, /*builtin=*/true);
    NamedType* meta = standard_types_.at(kMetaFieldsTypeName);
    standard_types_.erase(kMetaFieldsTypeName);
    schema_->meta_fields_ = std::move(meta->fields);
    for (const Field& field : schema_->meta_fields_) {
      if (field.name == "__schema") schema_->schema_meta_field_ = &field;
      if (field.name == "__type") schema_->type_meta_field_ = &field;
      if (field.name == "__typename") schema_->typename_meta_field_ = &field;
    }
  }

  void BuildFromDocument(const ast::Document& document) {
    const ast::SchemaDefinition* schema_definition = nullptr;
    std::vector<const ast::DirectiveDefinition*> directive_definitions;
    std::unordered_map<std::string_view, std::vector<const ast::TypeDefinition*>> extensions;
    std::vector<std::pair<NamedType*, const ast::TypeDefinition*>> defined;

    for (const ast::Definition* definition : document.definitions()) {
      if (definition->kind == ast::NodeKind::kSchemaDefinition) {
        schema_definition = static_cast<const ast::SchemaDefinition*>(definition);
      } else if (definition->kind == ast::NodeKind::kSchemaExtension) {
        schema_->extension_asts_.push_back(static_cast<const ast::SchemaDefinition*>(definition));
      } else if (const auto* type = definition->As<ast::TypeDefinition>()) {
        if (type->is_extension()) {
          extensions[type->name.value].push_back(type);
          continue;
        }
        // A definition of a built-in type's name keeps the built-in type.
        auto standard = standard_types_.find(type->name.value);
        NamedType* named = standard != standard_types_.end() ? standard->second : nullptr;
        if (named == nullptr) {
          named = NewType(*type, /*builtin=*/false);
          defined.emplace_back(named, type);
          user_types_[named->name] = named;
        }
        config_types_.push_back(named);
      } else if (const auto* directive = definition->As<ast::DirectiveDefinition>()) {
        directive_definitions.push_back(directive);
      }
    }

    for (auto [type, definition] : defined) {
      std::vector<const ast::TypeDefinition*> nodes{definition};
      auto type_extensions = extensions.find(type->name);
      if (type_extensions != extensions.end()) {
        nodes.insert(nodes.end(), type_extensions->second.begin(), type_extensions->second.end());
        type->extension_asts = type_extensions->second;
      }
      Fill(type, nodes, /*builtin=*/false);
    }

    for (const ast::DirectiveDefinition* definition : directive_definitions) {
      schema_->directives_.push_back(BuildDirective(*definition, /*builtin=*/false));
    }
    for (const Directive* standard : standard_directives_) {
      bool redefined = false;
      for (const ast::DirectiveDefinition* definition : directive_definitions) {
        redefined = redefined || definition->name.value == standard->name;
      }
      if (!redefined) schema_->directives_.push_back(standard);
    }

    BuildRootTypes(schema_definition);
  }

  // Types are referred to by const pointers (TypeRef, lists of members); the builder still
  // completes them.
  NamedType* Mutable(const NamedType* type) const { return mutable_types_.at(type); }

  // graphql-js's getNamedType: the built-in type of that name, else the SDL's.
  const NamedType* Resolve(std::string_view name) const {
    auto standard = standard_types_.find(name);
    if (standard != standard_types_.end()) return standard->second;
    auto user = user_types_.find(name);
    return user != user_types_.end() ? user->second : nullptr;
  }

  TypeRef ResolveType(const ast::Type& type) const {
    switch (type.kind) {
      case ast::NodeKind::kListType:
        return ResolveType(*static_cast<const ast::ListType&>(type).type).ListOf();
      case ast::NodeKind::kNonNullType:
        return ResolveType(*static_cast<const ast::NonNullType&>(type).type).NonNullOf();
      default:
        return TypeRef(Resolve(static_cast<const ast::NamedType&>(type).name.value));
    }
  }

  // The built-in directive named `name`.
  const Directive& StandardDirective(std::string_view name) const {
    for (const Directive* directive : standard_directives_) {
      if (directive->name == name) return *directive;
    }
    assert(false && "not a built-in directive");
    return *standard_directives_.front();
  }

  // The arguments of a directive applied in the SDL, coerced against the built-in directive of its
  // name (graphql-js's getDirectiveValues).
  Value CoerceDirective(const ast::Directive& node) const {
    ArgumentError error;
    std::optional<Value> values = CoerceArgumentValues(
        StandardDirective(node.name.value).arguments, node.arguments, node.offset, nullptr, &error);
    if (!values) throw DirectiveArgumentFailure{std::move(error)};
    return std::move(*values);
  }

  // Whether the directive `name` is applied (its arguments must coerce all the same).
  bool HasDirective(std::string_view name,
                    const ast::List<const ast::Directive*>& directives) const {
    const ast::Directive* node = FindDirectiveNode(directives, name);
    if (node != nullptr) CoerceDirective(*node);
    return node != nullptr;
  }

  // A String argument of the first directive named `directive_name`, or nullopt when the
  // directive is absent or the argument null. The result points into a document the schema owns:
  // the argument's literal, or the default's when the argument is not given.
  std::optional<std::string_view> DirectiveString(
      std::string_view directive_name, std::string_view argument_name,
      const ast::List<const ast::Directive*>& directives) const {
    const ast::Directive* node = FindDirectiveNode(directives, directive_name);
    if (node == nullptr) return std::nullopt;
    Value values = CoerceDirective(*node);
    const Value* value = values.Find(argument_name);
    if (value == nullptr || value->is_null()) return std::nullopt;
    // The value coerced to String, so its literal is a string: the argument's or the default's.
    const ast::Value* literal =
        StandardDirective(directive_name).FindArgument(argument_name)->default_literal;
    for (const ast::Argument* argument : node->arguments) {
      if (argument->name.value == argument_name) literal = argument->value;
    }
    return static_cast<const ast::StringValue*>(literal)->value;
  }

  std::optional<std::string_view> DeprecationReason(
      const ast::List<const ast::Directive*>& directives) const {
    return DirectiveString("deprecated", "reason", directives);
  }

  InputValue BuildInputValue(const ast::InputValueDefinition& definition, bool builtin) {
    InputValue value;
    value.name = definition.name.value;
    value.description = DescriptionOf(definition.description);
    value.type = ResolveType(*definition.type);
    value.deprecation_reason = DeprecationReason(definition.directives);
    value.ast = builtin ? nullptr : &definition;
    value.default_literal = definition.default_value;
    return value;
  }

  std::vector<InputValue> BuildInputValues(const ast::List<const ast::InputValueDefinition*>& list,
                                           bool builtin) {
    std::vector<InputValue> values;
    for (const ast::InputValueDefinition* definition : list) {
      values.push_back(BuildInputValue(*definition, builtin));
    }
    return values;
  }

  // Fills a type from its definition and extensions.
  void Fill(NamedType* type, const std::vector<const ast::TypeDefinition*>& nodes, bool builtin) {
    const ast::TypeDefinition& definition = *nodes.front();
    if (type->kind == TypeKind::kScalar) {
      type->specified_by_url = DirectiveString("specifiedBy", "url", definition.directives);
    }
    if (type->kind == TypeKind::kInputObject) {
      type->one_of = HasDirective("oneOf", definition.directives);
    }
    for (const ast::TypeDefinition* node : nodes) {
      if (const auto* implementing = node->As<ast::ImplementingTypeDefinition>()) {
        for (const ast::NamedType* interface : implementing->interfaces) {
          type->interfaces.push_back(Resolve(interface->name.value));
        }
        for (const ast::FieldDefinition* field_definition : implementing->fields) {
          Field field;
          field.name = field_definition->name.value;
          field.description = DescriptionOf(field_definition->description);
          field.type = ResolveType(*field_definition->type);
          field.arguments = BuildInputValues(field_definition->arguments, builtin);
          field.deprecation_reason = DeprecationReason(field_definition->directives);
          field.ast = builtin ? nullptr : field_definition;
          type->fields.push_back(std::move(field));
        }
      } else if (const auto* union_type = node->As<ast::UnionTypeDefinition>()) {
        for (const ast::NamedType* member : union_type->types) {
          type->members.push_back(Resolve(member->name.value));
        }
      } else if (const auto* enum_type = node->As<ast::EnumTypeDefinition>()) {
        for (const ast::EnumValueDefinition* value_definition : enum_type->values) {
          EnumValue value;
          value.name = value_definition->name.value;
          value.description = DescriptionOf(value_definition->description);
          value.deprecation_reason = DeprecationReason(value_definition->directives);
          value.ast = builtin ? nullptr : value_definition;
          type->enum_values.push_back(value);
        }
      } else if (const auto* input = node->As<ast::InputObjectTypeDefinition>()) {
        for (const ast::InputValueDefinition* field : input->fields) {
          type->input_fields.push_back(BuildInputValue(*field, builtin));
        }
      }
    }
    // The vectors are final now: index their members by name (the first of a name wins).
    for (std::uint32_t i = 0; i < type->fields.size(); ++i) {
      type->member_index_.Insert(type->fields[i].name, i);
    }
    for (std::uint32_t i = 0; i < type->enum_values.size(); ++i) {
      type->member_index_.Insert(type->enum_values[i].name, i);
    }
    for (std::uint32_t i = 0; i < type->input_fields.size(); ++i) {
      type->member_index_.Insert(type->input_fields[i].name, i);
    }
  }

  Directive* BuildDirective(const ast::DirectiveDefinition& definition, bool builtin) {
    auto directive = std::make_unique<Directive>();
    directive->name = definition.name.value;
    directive->description = DescriptionOf(definition.description);
    for (const ast::Name& location : definition.locations) {
      directive->locations.push_back(*DirectiveLocationFromName(location.value));
    }
    directive->arguments = BuildInputValues(definition.arguments, builtin);
    directive->repeatable = definition.repeatable;
    directive->builtin = builtin;
    directive->ast = builtin ? nullptr : &definition;
    Directive* result = directive.get();
    schema_->owned_directives_.push_back(std::move(directive));
    return result;
  }

  void BuildRootTypes(const ast::SchemaDefinition* schema_definition) {
    schema_->ast_ = schema_definition;
    if (schema_definition == nullptr) {
      for (const NamedType* type : config_types_) {
        if (type->name == "Query") schema_->query_type_ = type;
        if (type->name == "Mutation") schema_->mutation_type_ = type;
        if (type->name == "Subscription") schema_->subscription_type_ = type;
      }
    } else {
      schema_->description_ = DescriptionOf(schema_definition->description);
    }
    std::vector<const ast::SchemaDefinition*> nodes;
    if (schema_definition != nullptr) nodes.push_back(schema_definition);
    nodes.insert(nodes.end(), schema_->extension_asts_.begin(), schema_->extension_asts_.end());
    for (const ast::SchemaDefinition* node : nodes) {
      for (const ast::OperationTypeDefinition* operation_type : node->operation_types) {
        const NamedType* type = Resolve(operation_type->type->name.value);
        switch (operation_type->operation) {
          case OperationType::kQuery:
            schema_->query_type_ = type;
            break;
          case OperationType::kMutation:
            schema_->mutation_type_ = type;
            break;
          case OperationType::kSubscription:
            schema_->subscription_type_ = type;
            break;
        }
      }
    }
  }

  // ---- Default values.

  // Coerces every default literal to its type (graphql-js's valueFromAST). The defaults of an
  // input object's fields are coerced before any literal of that input object is, since they fill
  // in its missing fields; a cycle of defaults leaves the inner ones missing.
  void ComputeDefaultValues() {
    for (const std::unique_ptr<NamedType>& type : schema_->owned_types_) {
      for (Field& field : type->fields) {
        for (InputValue& argument : field.arguments) ComputeDefault(&argument);
      }
      if (type->kind == TypeKind::kInputObject) EnsureInputFieldDefaults(type.get());
    }
    for (const std::unique_ptr<Directive>& directive : schema_->owned_directives_) {
      for (InputValue& argument : directive->arguments) ComputeDefault(&argument);
    }
  }

  void ComputeDefault(InputValue* value) {
    if (value->default_literal == nullptr || !defaults_started_.insert(value).second) return;
    const NamedType* named = value->type.named();
    if (named != nullptr && named->kind == TypeKind::kInputObject) {
      EnsureInputFieldDefaults(Mutable(named));
    }
    value->default_value = ValueFromLiteral(*value->default_literal, value->type, nullptr);
  }

  void EnsureInputFieldDefaults(NamedType* input) {
    if (!inputs_started_.insert(input).second) return;
    for (InputValue& field : input->input_fields) ComputeDefault(&field);
  }

  // ---- The type map and its indexes.

  // graphql-js's collectReferencedTypes: depth first through interfaces, fields, arguments,
  // union members and input fields.
  void Collect(const NamedType* type, TypeOrder* order) {
    if (type == nullptr || order->Contains(type)) return;
    order->Add(type);
    for (const NamedType* member : type->members) Collect(member, order);
    for (const NamedType* interface : type->interfaces) Collect(interface, order);
    for (const Field& field : type->fields) {
      Collect(field.type.named(), order);
      for (const InputValue& argument : field.arguments) Collect(argument.type.named(), order);
    }
    for (const InputValue& field : type->input_fields) Collect(field.type.named(), order);
  }

  void CollectTypeMap() {
    TypeOrder order;
    // The SDL's types keep their order: each is taken out and put back when its turn comes.
    for (const NamedType* type : config_types_) {
      if (!order.Contains(type)) order.Add(type);
    }
    for (const NamedType* type : config_types_) {
      order.Remove(type);
      Collect(type, &order);
    }
    Collect(schema_->query_type_, &order);
    Collect(schema_->mutation_type_, &order);
    Collect(schema_->subscription_type_, &order);
    for (const Directive* directive : schema_->directives_) {
      for (const InputValue& argument : directive->arguments) {
        Collect(argument.type.named(), &order);
      }
    }
    Collect(standard_types_.at("__Schema"), &order);
    schema_->types_ = order.Finish();
  }

  void IndexTypes() {
    const std::vector<const NamedType*>& types = schema_->types_;
    for (std::uint32_t i = 0; i < types.size(); ++i) {
      Mutable(types[i])->index_ = i;
      schema_->type_index_.Insert(types[i]->name, types[i]);
    }
    schema_->possible_types_.assign(types.size(), {});
    schema_->interface_implementations_.assign(types.size(), {});
    for (const NamedType* type : types) {
      if (type->kind == TypeKind::kUnion) schema_->possible_types_[type->index()] = type->members;
      if (type->kind != TypeKind::kObject && type->kind != TypeKind::kInterface) continue;
      for (const NamedType* interface : type->interfaces) {
        if (interface->kind != TypeKind::kInterface) continue;
        auto& list = type->kind == TypeKind::kObject
                         ? schema_->possible_types_[interface->index()]
                         : schema_->interface_implementations_[interface->index()];
        list.push_back(type);
      }
    }
    const std::size_t words = (types.size() + 63) / 64;
    for (const NamedType* type : types) {
      if (!IsAbstractType(*type)) continue;
      auto& bits = Mutable(type)->subtypes_;
      bits.assign(words, 0);
      auto mark = [&bits](const NamedType* subtype) {
        bits[subtype->index() / 64] |= std::uint64_t{1} << (subtype->index() % 64);
      };
      for (const NamedType* subtype : schema_->possible_types_[type->index()]) mark(subtype);
      for (const NamedType* subtype : schema_->interface_implementations_[type->index()]) {
        mark(subtype);
      }
    }
  }

  std::unique_ptr<Schema> schema_;
  std::unordered_map<const NamedType*, NamedType*> mutable_types_;
  std::unordered_map<std::string_view, NamedType*> standard_types_;
  std::vector<Directive*> standard_directives_;
  std::unordered_map<std::string_view, NamedType*> user_types_;
  std::vector<const NamedType*> config_types_;  // the SDL's type definitions, in order
  std::unordered_set<const InputValue*> defaults_started_;
  std::unordered_set<const NamedType*> inputs_started_;
};

std::unique_ptr<const Schema> BuildSchema(std::string sdl, std::vector<Error>* errors) {
  errors->clear();
  return SchemaBuilder().Build(std::move(sdl), errors);
}

}  // namespace netgraph::graphql
