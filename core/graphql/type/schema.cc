#include "core/graphql/type/schema.h"

#include <algorithm>
#include <string>

namespace netgraph::graphql {

namespace {

const std::vector<const NamedType*>& NoTypes() {
  static const std::vector<const NamedType*> kNone;
  return kNone;
}

template <typename T>
const T* FindByName(const std::vector<T>& items, std::string_view name) {
  for (const T& item : items) {
    if (item.name == name) return &item;
  }
  return nullptr;
}

}  // namespace

std::string_view TypeKindName(TypeKind kind) {
  switch (kind) {
    case TypeKind::kScalar:
      return "SCALAR";
    case TypeKind::kObject:
      return "OBJECT";
    case TypeKind::kInterface:
      return "INTERFACE";
    case TypeKind::kUnion:
      return "UNION";
    case TypeKind::kEnum:
      return "ENUM";
    case TypeKind::kInputObject:
      return "INPUT_OBJECT";
  }
  return "";
}

std::string TypeRef::ToString() const {
  if (!valid()) return "<invalid>";
  if (is_non_null()) return Nullable().ToString() + "!";
  if (is_list()) return "[" + OfType().ToString() + "]";
  return std::string(named_->name);
}

bool IsSpecifiedDirectiveName(std::string_view name) {
  return name == "include" || name == "skip" || name == "deprecated" || name == "specifiedBy" ||
         name == "oneOf";
}

const InputValue* Field::FindArgument(std::string_view argument_name) const {
  return FindByName(arguments, argument_name);
}

const InputValue* Directive::FindArgument(std::string_view argument_name) const {
  return FindByName(arguments, argument_name);
}

bool Directive::HasLocation(DirectiveLocation location) const {
  return std::find(locations.begin(), locations.end(), location) != locations.end();
}

const Field* NamedType::FindField(std::string_view field_name) const {
  if (kind != TypeKind::kObject && kind != TypeKind::kInterface) return nullptr;
  const std::uint32_t* i = member_index_.Find(field_name);
  return i == nullptr ? nullptr : &fields[*i];
}

const InputValue* NamedType::FindInputField(std::string_view field_name) const {
  if (kind != TypeKind::kInputObject) return nullptr;
  const std::uint32_t* i = member_index_.Find(field_name);
  return i == nullptr ? nullptr : &input_fields[*i];
}

const EnumValue* NamedType::FindEnumValue(std::string_view value_name) const {
  if (kind != TypeKind::kEnum) return nullptr;
  const std::uint32_t* i = member_index_.Find(value_name);
  return i == nullptr ? nullptr : &enum_values[*i];
}

Schema::Schema() = default;
Schema::~Schema() = default;

const Schema& Schema::Empty() {
  static const Schema* const empty = new Schema();
  return *empty;
}

const NamedType* Schema::FindType(std::string_view name) const {
  const NamedType* const* type = type_index_.Find(name);
  return type == nullptr ? nullptr : *type;
}

const NamedType* Schema::RootType(OperationType operation) const {
  switch (operation) {
    case OperationType::kQuery:
      return query_type_;
    case OperationType::kMutation:
      return mutation_type_;
    case OperationType::kSubscription:
      return subscription_type_;
  }
  return nullptr;
}

const Directive* Schema::FindDirective(std::string_view name) const {
  for (const Directive* directive : directives_) {
    if (directive->name == name) return directive;
  }
  return nullptr;
}

const std::vector<const NamedType*>& Schema::PossibleTypes(const NamedType& abstract_type) const {
  return IsAbstractType(abstract_type) ? possible_types_[abstract_type.index()] : NoTypes();
}

const std::vector<const NamedType*>& Schema::InterfaceImplementations(
    const NamedType& interface_type) const {
  return interface_type.kind == TypeKind::kInterface
             ? interface_implementations_[interface_type.index()]
             : NoTypes();
}

bool Schema::IsSubType(const NamedType& abstract_type, const NamedType& maybe_subtype) const {
  const std::vector<std::uint64_t>& bits = abstract_type.subtypes_;
  std::uint32_t i = maybe_subtype.index();
  return i / 64 < bits.size() && (bits[i / 64] >> (i % 64) & 1) != 0;
}

const Field* Schema::FieldDef(const NamedType& parent_type, std::string_view field_name) const {
  if (field_name.size() > 2 && field_name[0] == '_' && field_name[1] == '_') {
    if (&parent_type == query_type_) {
      if (field_name == schema_meta_field_->name) return schema_meta_field_;
      if (field_name == type_meta_field_->name) return type_meta_field_;
    }
    if (field_name == typename_meta_field_->name && IsCompositeType(parent_type)) {
      return typename_meta_field_;
    }
  }
  return parent_type.FindField(field_name);
}

bool IsInputType(TypeRef type) {
  if (!type.valid()) return false;
  TypeKind kind = type.named()->kind;
  return kind == TypeKind::kScalar || kind == TypeKind::kEnum || kind == TypeKind::kInputObject;
}

bool IsOutputType(TypeRef type) {
  return type.valid() && type.named()->kind != TypeKind::kInputObject;
}

bool IsTypeSubTypeOf(const Schema& schema, TypeRef maybe_subtype, TypeRef super_type) {
  if (maybe_subtype == super_type) return true;
  if (super_type.is_non_null()) {
    return maybe_subtype.is_non_null() &&
           IsTypeSubTypeOf(schema, maybe_subtype.OfType(), super_type.OfType());
  }
  if (maybe_subtype.is_non_null()) {
    return IsTypeSubTypeOf(schema, maybe_subtype.OfType(), super_type);
  }
  if (super_type.is_list()) {
    return maybe_subtype.is_list() &&
           IsTypeSubTypeOf(schema, maybe_subtype.OfType(), super_type.OfType());
  }
  if (maybe_subtype.is_list()) return false;
  const NamedType& super_named = *super_type.named();
  const NamedType& sub_named = *maybe_subtype.named();
  return IsAbstractType(super_named) &&
         (sub_named.kind == TypeKind::kInterface || sub_named.kind == TypeKind::kObject) &&
         schema.IsSubType(super_named, sub_named);
}

bool DoTypesOverlap(const Schema& schema, const NamedType& a, const NamedType& b) {
  if (&a == &b) return true;
  if (IsAbstractType(a)) {
    if (IsAbstractType(b)) {
      const std::vector<const NamedType*>& possible = schema.PossibleTypes(a);
      return std::any_of(possible.begin(), possible.end(),
                         [&](const NamedType* type) { return schema.IsSubType(b, *type); });
    }
    return schema.IsSubType(a, b);
  }
  if (IsAbstractType(b)) return schema.IsSubType(b, a);
  return false;
}

TypeRef TypeFromAst(const Schema& schema, const ast::Type& type) {
  switch (type.kind) {
    case ast::NodeKind::kListType: {
      TypeRef item = TypeFromAst(schema, *static_cast<const ast::ListType&>(type).type);
      return item.valid() ? item.ListOf() : TypeRef();
    }
    case ast::NodeKind::kNonNullType: {
      TypeRef inner = TypeFromAst(schema, *static_cast<const ast::NonNullType&>(type).type);
      return inner.valid() ? inner.NonNullOf() : TypeRef();
    }
    case ast::NodeKind::kNamedType:
      return TypeRef(schema.FindType(static_cast<const ast::NamedType&>(type).name.value));
    default:
      return TypeRef();
  }
}

}  // namespace netgraph::graphql
