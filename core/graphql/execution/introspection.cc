#include "core/graphql/execution/introspection.h"

#include <initializer_list>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/graphql/utilities/input_literal.h"

namespace netgraph::graphql {

namespace {

// A Host value that borrows `object` (owned by the schema, which outlives every execution).
template <typename T>
Value Borrow(const T* object) {
  return Value::Host<T>(std::shared_ptr<const T>(std::shared_ptr<const T>(), object));
}

Value OptionalString(std::optional<std::string_view> text) {
  return text ? Value::String(std::string(*text)) : Value();
}

Value Name(std::string_view name) { return Value::String(std::string(name)); }

// Every type reference the schema can show, interned so that a __Type value can point at one.
class TypeTable {
 public:
  explicit TypeTable(const Schema& schema) : by_type_(schema.types().size()) {
    for (const NamedType* type : schema.types()) {
      Intern(TypeRef(type));
      for (const Field& field : type->fields) AddField(field);
      for (const InputValue& input_field : type->input_fields) Intern(input_field.type);
    }
    for (const Directive* directive : schema.directives()) {
      for (const InputValue& argument : directive->arguments) Intern(argument.type);
    }
    for (const Field* meta :
         {&schema.schema_meta_field(), &schema.type_meta_field(), &schema.typename_meta_field()}) {
      AddField(*meta);
    }
  }

  // The interned copy of `type` (every type the schema mentions is there).
  const TypeRef* Find(TypeRef type) const {
    if (!type.valid()) return nullptr;
    for (const std::unique_ptr<TypeRef>& interned : by_type_[type.named()->index()]) {
      if (*interned == type) return interned.get();
    }
    return nullptr;
  }

  Value ValueOf(TypeRef type) const {
    const TypeRef* interned = Find(type);
    return interned == nullptr ? Value() : Borrow(interned);
  }

 private:
  void AddField(const Field& field) {
    Intern(field.type);
    for (const InputValue& argument : field.arguments) Intern(argument.type);
  }

  // Interns `type` and every type it wraps.
  void Intern(TypeRef type) {
    for (; type.valid(); type = type.OfType()) {
      if (Find(type) != nullptr) continue;
      by_type_[type.named()->index()].push_back(std::make_unique<TypeRef>(type));
    }
  }

  std::vector<std::vector<std::unique_ptr<TypeRef>>> by_type_;  // by named type index
};

bool IncludeDeprecated(const ResolveInfo& info) {
  const Value* include = info.arguments.Find("includeDeprecated");
  return include != nullptr && include->kind() == Value::Kind::kBoolean && include->as_bool();
}

template <typename T>
Value ListOf(const std::vector<T>& items, bool include_deprecated) {
  Value::List list;
  list.reserve(items.size());
  for (const T& item : items) {
    if (include_deprecated || !item.is_deprecated()) list.push_back(Borrow(&item));
  }
  return Value::MakeList(std::move(list));
}

Value TypeList(const TypeTable& table, const std::vector<const NamedType*>& types) {
  Value::List list;
  list.reserve(types.size());
  for (const NamedType* type : types) list.push_back(table.ValueOf(TypeRef(type)));
  return Value::MakeList(std::move(list));
}

// The named type of a __Type, or nullptr for a List or Non-Null.
const NamedType* NamedOrNull(const TypeRef& type) {
  return type.is_named() ? type.named() : nullptr;
}

// A resolver of a field of the introspection type whose values are Host values of T: `read`
// gets the parent object. (A parent of another kind, which only a resolver of the application's
// could produce, resolves to null.)
template <typename T, typename Read>
Resolver On(Read read) {
  return [read](const ResolveInfo& info) -> ResolverResult {
    const T* parent = info.parent.host<T>();
    if (parent == nullptr) return Value();
    return read(*parent, info);
  };
}

// A resolver of a __Type field that only named types of some kinds answer.
template <typename Read>
Resolver OnNamed(std::initializer_list<TypeKind> kinds, Read read) {
  std::vector<TypeKind> accepted(kinds);
  return On<TypeRef>([accepted, read](const TypeRef& type, const ResolveInfo& info) -> Value {
    const NamedType* named = NamedOrNull(type);
    if (named == nullptr) return Value();
    for (TypeKind kind : accepted) {
      if (named->kind == kind) return read(*named, info);
    }
    return Value();
  });
}

}  // namespace

void BindIntrospection(Bindings* bindings) {
  const Schema& schema = *bindings->schema;
  auto table = std::make_shared<const TypeTable>(schema);
  std::vector<std::pair<std::string_view, Resolver>> resolvers;
  auto bind = [&resolvers](std::string_view coordinate, Resolver resolver) {
    resolvers.emplace_back(coordinate, std::move(resolver));
  };

  bind("__schema", [&schema](const ResolveInfo&) -> ResolverResult { return Borrow(&schema); });
  bind("__type", [&schema, table](const ResolveInfo& info) -> ResolverResult {
    const Value* name = info.arguments.Find("name");
    if (name == nullptr || name->kind() != Value::Kind::kString) return Value();
    const NamedType* type = schema.FindType(name->as_string());
    return type == nullptr ? Value() : table->ValueOf(TypeRef(type));
  });

  bind("__Schema.description", On<Schema>([](const Schema& s, const ResolveInfo&) {
         return OptionalString(s.description());
       }));
  bind("__Schema.types", On<Schema>([table](const Schema& s, const ResolveInfo&) {
         return TypeList(*table, s.types());
       }));
  const std::pair<const char*, OperationType> roots[] = {
      {"__Schema.queryType", OperationType::kQuery},
      {"__Schema.mutationType", OperationType::kMutation},
      {"__Schema.subscriptionType", OperationType::kSubscription}};
  for (const auto& [coordinate, operation] : roots) {
    bind(coordinate,
         On<Schema>([table, operation = operation](const Schema& s, const ResolveInfo&) {
           const NamedType* root = s.RootType(operation);
           return root == nullptr ? Value() : table->ValueOf(TypeRef(root));
         }));
  }
  bind("__Schema.directives", On<Schema>([](const Schema& s, const ResolveInfo&) {
         Value::List list;
         list.reserve(s.directives().size());
         for (const Directive* directive : s.directives()) list.push_back(Borrow(directive));
         return Value::MakeList(std::move(list));
       }));

  bind("__Type.kind", On<TypeRef>([](const TypeRef& type, const ResolveInfo&) {
         if (type.is_non_null()) return Value::String("NON_NULL");
         if (type.is_list()) return Value::String("LIST");
         return Name(TypeKindName(type.named()->kind));
       }));
  bind("__Type.name", On<TypeRef>([](const TypeRef& type, const ResolveInfo&) {
         const NamedType* named = NamedOrNull(type);
         return named == nullptr ? Value() : Name(named->name);
       }));
  bind("__Type.description", On<TypeRef>([](const TypeRef& type, const ResolveInfo&) {
         const NamedType* named = NamedOrNull(type);
         return named == nullptr ? Value() : OptionalString(named->description);
       }));
  bind("__Type.specifiedByURL",
       OnNamed({TypeKind::kScalar}, [](const NamedType& named, const ResolveInfo&) {
         return OptionalString(named.specified_by_url);
       }));
  bind("__Type.fields", OnNamed({TypeKind::kObject, TypeKind::kInterface},
                                [](const NamedType& named, const ResolveInfo& info) {
                                  return ListOf(named.fields, IncludeDeprecated(info));
                                }));
  bind("__Type.interfaces", OnNamed({TypeKind::kObject, TypeKind::kInterface},
                                    [table](const NamedType& named, const ResolveInfo&) {
                                      return TypeList(*table, named.interfaces);
                                    }));
  bind("__Type.possibleTypes",
       OnNamed({TypeKind::kInterface, TypeKind::kUnion},
               [&schema, table](const NamedType& named, const ResolveInfo&) {
                 return TypeList(*table, schema.PossibleTypes(named));
               }));
  bind("__Type.enumValues",
       OnNamed({TypeKind::kEnum}, [](const NamedType& named, const ResolveInfo& info) {
         return ListOf(named.enum_values, IncludeDeprecated(info));
       }));
  bind("__Type.inputFields",
       OnNamed({TypeKind::kInputObject}, [](const NamedType& named, const ResolveInfo& info) {
         return ListOf(named.input_fields, IncludeDeprecated(info));
       }));
  bind("__Type.ofType", On<TypeRef>([table](const TypeRef& type, const ResolveInfo&) {
         return type.is_named() ? Value() : table->ValueOf(type.OfType());
       }));
  bind("__Type.isOneOf",
       OnNamed({TypeKind::kInputObject}, [](const NamedType& named, const ResolveInfo&) {
         return Value::Boolean(named.one_of);
       }));

  bind("__Field.name",
       On<Field>([](const Field& field, const ResolveInfo&) { return Name(field.name); }));
  bind("__Field.description", On<Field>([](const Field& field, const ResolveInfo&) {
         return OptionalString(field.description);
       }));
  bind("__Field.args", On<Field>([](const Field& field, const ResolveInfo& info) {
         return ListOf(field.arguments, IncludeDeprecated(info));
       }));
  bind("__Field.type", On<Field>([table](const Field& field, const ResolveInfo&) {
         return table->ValueOf(field.type);
       }));
  bind("__Field.isDeprecated", On<Field>([](const Field& field, const ResolveInfo&) {
         return Value::Boolean(field.is_deprecated());
       }));
  bind("__Field.deprecationReason", On<Field>([](const Field& field, const ResolveInfo&) {
         return OptionalString(field.deprecation_reason);
       }));

  bind("__InputValue.name", On<InputValue>([](const InputValue& input, const ResolveInfo&) {
         return Name(input.name);
       }));
  bind("__InputValue.description", On<InputValue>([](const InputValue& input, const ResolveInfo&) {
         return OptionalString(input.description);
       }));
  bind("__InputValue.type", On<InputValue>([table](const InputValue& input, const ResolveInfo&) {
         return table->ValueOf(input.type);
       }));
  bind("__InputValue.defaultValue", On<InputValue>([](const InputValue& input, const ResolveInfo&) {
         if (!input.default_value) return Value();
         std::optional<std::string> literal = PrintValueAsLiteral(*input.default_value, input.type);
         return literal ? Value::String(std::move(*literal)) : Value();
       }));
  bind("__InputValue.isDeprecated", On<InputValue>([](const InputValue& input, const ResolveInfo&) {
         return Value::Boolean(input.is_deprecated());
       }));
  bind("__InputValue.deprecationReason",
       On<InputValue>([](const InputValue& input, const ResolveInfo&) {
         return OptionalString(input.deprecation_reason);
       }));

  bind("__EnumValue.name",
       On<EnumValue>([](const EnumValue& value, const ResolveInfo&) { return Name(value.name); }));
  bind("__EnumValue.description", On<EnumValue>([](const EnumValue& value, const ResolveInfo&) {
         return OptionalString(value.description);
       }));
  bind("__EnumValue.isDeprecated", On<EnumValue>([](const EnumValue& value, const ResolveInfo&) {
         return Value::Boolean(value.is_deprecated());
       }));
  bind("__EnumValue.deprecationReason",
       On<EnumValue>([](const EnumValue& value, const ResolveInfo&) {
         return OptionalString(value.deprecation_reason);
       }));

  bind("__Directive.name", On<Directive>([](const Directive& directive, const ResolveInfo&) {
         return Name(directive.name);
       }));
  bind("__Directive.description", On<Directive>([](const Directive& directive, const ResolveInfo&) {
         return OptionalString(directive.description);
       }));
  bind("__Directive.isRepeatable",
       On<Directive>([](const Directive& directive, const ResolveInfo&) {
         return Value::Boolean(directive.repeatable);
       }));
  bind("__Directive.locations", On<Directive>([](const Directive& directive, const ResolveInfo&) {
         Value::List list;
         list.reserve(directive.locations.size());
         for (DirectiveLocation location : directive.locations) {
           list.push_back(Name(DirectiveLocationName(location)));
         }
         return Value::MakeList(std::move(list));
       }));
  bind("__Directive.args", On<Directive>([](const Directive& directive, const ResolveInfo& info) {
         return ListOf(directive.arguments, IncludeDeprecated(info));
       }));

  for (auto& [coordinate, resolver] : resolvers) {
    const Field* field = nullptr;
    if (coordinate == "__schema") {
      field = &schema.schema_meta_field();
    } else if (coordinate == "__type") {
      field = &schema.type_meta_field();
    } else {
      const std::size_t dot = coordinate.find('.');
      const NamedType* type = schema.FindType(coordinate.substr(0, dot));
      field = type == nullptr ? nullptr : type->FindField(coordinate.substr(dot + 1));
    }
    if (field != nullptr) bindings->resolvers[field] = std::move(resolver);
  }
}

}  // namespace netgraph::graphql
