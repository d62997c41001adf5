#include "core/graphql/utilities/input_literal.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>
#include <system_error>

#include "core/graphql/language/printer.h"
#include "core/graphql/utilities/number_format.h"
#include "core/graphql/utilities/suggestion_list.h"

namespace netgraph::graphql {

namespace {

constexpr std::int64_t kMaxInt = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMinInt = std::numeric_limits<std::int32_t>::min();

// JavaScript's parseFloat of a valid GraphQL number literal (overflow gives an infinity).
double ParseJsFloat(std::string_view text) {
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  (void)end;
  if (error == std::errc::result_out_of_range) {
    bool negative = !text.empty() && text[0] == '-';
    std::size_t e = text.find_first_of("eE");
    bool tiny = e != std::string_view::npos && e + 1 < text.size() && text[e + 1] == '-';
    if (tiny) return negative ? -0.0 : 0.0;
    return negative ? -std::numeric_limits<double>::infinity()
                    : std::numeric_limits<double>::infinity();
  }
  return value;
}

// A GraphQL Int literal as a Value: Int when it fits 64 bits, else Float (JavaScript's parseInt
// would give an imprecise number too).
Value IntLiteralValue(std::string_view text) {
  std::int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  (void)end;
  if (error == std::errc()) return Value::Int(value);
  return Value::Float(ParseJsFloat(text));
}

const Value* FindVariable(const Value* variables, std::string_view name) {
  return variables == nullptr ? nullptr : variables->Find(name);
}

bool IsMissingVariable(const ast::Value& literal, const Value* variables) {
  const auto* variable = literal.As<ast::Variable>();
  return variable != nullptr && FindVariable(variables, variable->name.value) == nullptr;
}

// graphql-js's valueFromASTUntyped, for custom scalars.
Value UntypedValue(const ast::Value& literal, const Value* variables) {
  switch (literal.kind) {
    case ast::NodeKind::kIntValue:
      return IntLiteralValue(static_cast<const ast::IntValue&>(literal).value);
    case ast::NodeKind::kFloatValue:
      return Value::Float(ParseJsFloat(static_cast<const ast::FloatValue&>(literal).value));
    case ast::NodeKind::kStringValue:
      return Value::String(std::string(static_cast<const ast::StringValue&>(literal).value));
    case ast::NodeKind::kEnumValue:
      return Value::String(std::string(static_cast<const ast::EnumValue&>(literal).value));
    case ast::NodeKind::kBooleanValue:
      return Value::Boolean(static_cast<const ast::BooleanValue&>(literal).value);
    case ast::NodeKind::kListValue: {
      Value::List items;
      for (const ast::Value* item : static_cast<const ast::ListValue&>(literal).values) {
        items.push_back(UntypedValue(*item, variables));
      }
      return Value::MakeList(std::move(items));
    }
    case ast::NodeKind::kObjectValue: {
      Value::Object fields;
      for (const ast::ObjectField* field : static_cast<const ast::ObjectValue&>(literal).fields) {
        Value value = UntypedValue(*field->value, variables);
        bool replaced = false;
        for (auto& [key, existing] : fields) {
          if (key == field->name.value) {  // a repeated key keeps its place, takes the last value
            existing = value;
            replaced = true;
          }
        }
        if (!replaced) fields.emplace_back(std::string(field->name.value), std::move(value));
      }
      return Value::MakeObject(std::move(fields));
    }
    case ast::NodeKind::kVariable: {
      const Value* value =
          FindVariable(variables, static_cast<const ast::Variable&>(literal).name.value);
      return value == nullptr ? Value() : *value;
    }
    default:
      return Value();
  }
}

LeafLiteral Failure(std::string message) { return LeafLiteral{std::nullopt, std::move(message)}; }

LeafLiteral ParseEnumLiteral(const NamedType& type, const ast::Value& literal) {
  auto did_you_mean = [&type](std::string_view input) {
    std::vector<std::string_view> names;
    for (const EnumValue& value : type.enum_values) names.push_back(value.name);
    return DidYouMean(SuggestionList(input, names), "the enum value");
  };
  std::string printed = Print(literal);
  const auto* enum_literal = literal.As<ast::EnumValue>();
  if (enum_literal == nullptr) {
    return Failure("Enum \"" + std::string(type.name) +
                   "\" cannot represent non-enum value: " + printed + "." + did_you_mean(printed));
  }
  const EnumValue* value = type.FindEnumValue(enum_literal->value);
  if (value == nullptr) {
    return Failure("Value \"" + printed + "\" does not exist in \"" + std::string(type.name) +
                   "\" enum." + did_you_mean(printed));
  }
  return LeafLiteral{Value::String(std::string(value->name)), {}};
}

LeafLiteral ParseSpecifiedScalarLiteral(const NamedType& type, const ast::Value& literal) {
  const std::string_view name = type.name;
  const ast::NodeKind kind = literal.kind;
  if (name == "Int") {
    if (kind != ast::NodeKind::kIntValue) {
      return Failure("Int cannot represent non-integer value: " + Print(literal));
    }
    std::string_view text = static_cast<const ast::IntValue&>(literal).value;
    Value value = IntLiteralValue(text);
    if (value.kind() != Value::Kind::kInt || value.as_int() > kMaxInt || value.as_int() < kMinInt) {
      return Failure("Int cannot represent non 32-bit signed integer value: " + std::string(text));
    }
    return LeafLiteral{std::move(value), {}};
  }
  if (name == "Float") {
    if (kind == ast::NodeKind::kIntValue) {
      return LeafLiteral{
          Value::Float(ParseJsFloat(static_cast<const ast::IntValue&>(literal).value)), {}};
    }
    if (kind == ast::NodeKind::kFloatValue) {
      return LeafLiteral{
          Value::Float(ParseJsFloat(static_cast<const ast::FloatValue&>(literal).value)), {}};
    }
    return Failure("Float cannot represent non numeric value: " + Print(literal));
  }
  if (name == "String") {
    if (kind != ast::NodeKind::kStringValue) {
      return Failure("String cannot represent a non string value: " + Print(literal));
    }
    return LeafLiteral{
        Value::String(std::string(static_cast<const ast::StringValue&>(literal).value)), {}};
  }
  if (name == "Boolean") {
    if (kind != ast::NodeKind::kBooleanValue) {
      return Failure("Boolean cannot represent a non boolean value: " + Print(literal));
    }
    return LeafLiteral{Value::Boolean(static_cast<const ast::BooleanValue&>(literal).value), {}};
  }
  // ID
  if (kind == ast::NodeKind::kStringValue) {
    return LeafLiteral{
        Value::String(std::string(static_cast<const ast::StringValue&>(literal).value)), {}};
  }
  if (kind == ast::NodeKind::kIntValue) {
    return LeafLiteral{Value::String(std::string(static_cast<const ast::IntValue&>(literal).value)),
                       {}};
  }
  return Failure("ID cannot represent a non-string and non-integer value: " + Print(literal));
}

// graphql-js's test for literals that print as IntValue: /^-?(?:0|[1-9][0-9]*)$/.
bool IsIntegerString(std::string_view text) {
  if (!text.empty() && text[0] == '-') text.remove_prefix(1);
  if (text.empty()) return false;
  if (text[0] == '0') return text.size() == 1;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// A number of a Value, as JavaScript would hold it.
std::optional<double> NumberOf(const Value& value) {
  if (value.kind() == Value::Kind::kInt || value.kind() == Value::Kind::kFloat) {
    return value.as_number();
  }
  return std::nullopt;
}

std::string PrintNumber(const Value& value) {
  if (value.kind() == Value::Kind::kInt) return std::to_string(value.as_int());
  return FormatJsNumber(value.as_float());
}

// A literal for a value of a custom scalar, which serialises values as they are.
std::optional<std::string> UntypedLiteral(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return "null";
    case Value::Kind::kBoolean:
      return value.as_bool() ? "true" : "false";
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
      if (!std::isfinite(value.as_number())) return std::nullopt;
      return PrintNumber(value);
    case Value::Kind::kString:
      return PrintString(value.as_string());
    case Value::Kind::kList: {
      // graphql-js cannot print these (astFromValue throws); a structural literal reads back the
      // same value.
      std::string result = "[";
      for (const Value& item : value.as_list()) {
        std::optional<std::string> printed = UntypedLiteral(item);
        if (!printed) return std::nullopt;
        if (result.size() > 1) result += ", ";
        result += *printed;
      }
      return result + "]";
    }
    case Value::Kind::kObject: {
      std::string result = "{";
      for (const auto& [key, item] : value.as_object()) {
        std::optional<std::string> printed = UntypedLiteral(item);
        if (!printed) return std::nullopt;
        if (result.size() > 1) result += ", ";
        result += key + ": " + *printed;
      }
      return result + "}";
    }
    case Value::Kind::kHost:
      break;
  }
  return std::nullopt;
}

// The literal for a non-null value of a leaf type: graphql-js serialises it, then picks the
// literal kind by the serialised JavaScript type.
std::optional<std::string> LeafLiteralOf(const NamedType& type, const Value& value) {
  if (type.kind == TypeKind::kEnum) {
    if (value.kind() != Value::Kind::kString || type.FindEnumValue(value.as_string()) == nullptr) {
      return std::nullopt;
    }
    return value.as_string();
  }
  if (!type.is_specified_scalar()) return UntypedLiteral(value);

  const std::string_view name = type.name;
  const bool is_bool = value.kind() == Value::Kind::kBoolean;
  const std::optional<double> number = NumberOf(value);
  if (name == "Boolean") {
    if (is_bool) return value.as_bool() ? "true" : "false";
    if (number && std::isfinite(*number)) return *number != 0 ? "true" : "false";
    return std::nullopt;
  }
  if (name == "String") {
    if (value.kind() == Value::Kind::kString) return PrintString(value.as_string());
    if (is_bool) return PrintString(value.as_bool() ? "true" : "false");
    if (number && std::isfinite(*number)) return PrintString(PrintNumber(value));
    return std::nullopt;
  }
  if (name == "ID") {
    if (value.kind() == Value::Kind::kString) {
      return IsIntegerString(value.as_string()) ? value.as_string()
                                                : PrintString(value.as_string());
    }
    if (number && std::isfinite(*number) && std::trunc(*number) == *number) {
      return PrintNumber(value);
    }
    return std::nullopt;
  }
  if (is_bool) return value.as_bool() ? "1" : "0";
  if (!number || !std::isfinite(*number)) return std::nullopt;
  if (name == "Int" && (std::trunc(*number) != *number || *number > kMaxInt || *number < kMinInt)) {
    return std::nullopt;
  }
  return PrintNumber(value);
}

}  // namespace

LeafLiteral ParseLeafLiteral(const NamedType& leaf_type, const ast::Value& literal,
                             const Value* variables) {
  if (leaf_type.kind == TypeKind::kEnum) return ParseEnumLiteral(leaf_type, literal);
  if (leaf_type.is_specified_scalar()) return ParseSpecifiedScalarLiteral(leaf_type, literal);
  return LeafLiteral{UntypedValue(literal, variables), {}};
}

std::optional<Value> ValueFromLiteral(const ast::Value& literal, TypeRef type,
                                      const Value* variables) {
  if (const auto* variable = literal.As<ast::Variable>()) {
    const Value* value = FindVariable(variables, variable->name.value);
    if (value == nullptr) return std::nullopt;
    if (value->is_null() && type.is_non_null()) return std::nullopt;
    // Validation checked that the variable's type fits this position.
    return *value;
  }
  if (type.is_non_null()) {
    if (literal.kind == ast::NodeKind::kNullValue) return std::nullopt;
    return ValueFromLiteral(literal, type.OfType(), variables);
  }
  if (literal.kind == ast::NodeKind::kNullValue) return Value();

  if (type.is_list()) {
    const TypeRef item_type = type.OfType();
    const auto* list = literal.As<ast::ListValue>();
    if (list == nullptr) {
      std::optional<Value> item = ValueFromLiteral(literal, item_type, variables);
      if (!item) return std::nullopt;
      return Value::MakeList({std::move(*item)});
    }
    Value::List items;
    items.reserve(list->values.size());
    for (const ast::Value* item_literal : list->values) {
      if (IsMissingVariable(*item_literal, variables)) {
        // A missing variable in a list is null, where null is allowed.
        if (item_type.is_non_null()) return std::nullopt;
        items.emplace_back();
        continue;
      }
      std::optional<Value> item = ValueFromLiteral(*item_literal, item_type, variables);
      if (!item) return std::nullopt;
      items.push_back(std::move(*item));
    }
    return Value::MakeList(std::move(items));
  }

  const NamedType& named = *type.named();
  if (named.kind == TypeKind::kInputObject) {
    const auto* object = literal.As<ast::ObjectValue>();
    if (object == nullptr) return std::nullopt;
    Value::Object fields;
    for (const InputValue& field : named.input_fields) {
      const ast::ObjectField* field_literal = nullptr;
      for (const ast::ObjectField* candidate : object->fields) {
        if (candidate->name.value == field.name) field_literal = candidate;  // the last one wins
      }
      if (field_literal == nullptr || IsMissingVariable(*field_literal->value, variables)) {
        if (field.default_value) {
          fields.emplace_back(std::string(field.name), *field.default_value);
        } else if (field.type.is_non_null()) {
          return std::nullopt;
        }
        continue;
      }
      std::optional<Value> value = ValueFromLiteral(*field_literal->value, field.type, variables);
      if (!value) return std::nullopt;
      fields.emplace_back(std::string(field.name), std::move(*value));
    }
    if (named.one_of && (fields.size() != 1 || fields[0].second.is_null())) return std::nullopt;
    return Value::MakeObject(std::move(fields));
  }

  return ParseLeafLiteral(named, literal, variables).value;
}

std::optional<Value> CoerceArgumentValues(const std::vector<InputValue>& definitions,
                                          const ast::List<const ast::Argument*>& arguments,
                                          std::uint32_t node_offset, const Value* variables,
                                          ArgumentError* error) {
  Value::Object coerced;
  for (const InputValue& definition : definitions) {
    const std::string type_name = definition.type.ToString();
    const ast::Argument* argument = nullptr;
    for (const ast::Argument* candidate : arguments) {
      if (candidate->name.value == definition.name) argument = candidate;  // the last one wins
    }
    if (argument == nullptr) {
      if (definition.default_value) {
        coerced.emplace_back(std::string(definition.name), *definition.default_value);
      } else if (definition.type.is_non_null()) {
        *error = {"Argument \"" + std::string(definition.name) + "\" of required type \"" +
                      type_name + "\" was not provided.",
                  node_offset};
        return std::nullopt;
      }
      continue;
    }

    const ast::Value& literal = *argument->value;
    bool is_null = literal.kind == ast::NodeKind::kNullValue;
    if (const auto* variable = literal.As<ast::Variable>()) {
      const Value* value = FindVariable(variables, variable->name.value);
      if (value == nullptr) {
        if (definition.default_value) {
          coerced.emplace_back(std::string(definition.name), *definition.default_value);
        } else if (definition.type.is_non_null()) {
          *error = {"Argument \"" + std::string(definition.name) + "\" of required type \"" +
                        type_name + "\" was provided the variable \"$" +
                        std::string(variable->name.value) +
                        "\" which was not provided a runtime value.",
                    literal.offset};
          return std::nullopt;
        }
        continue;
      }
      is_null = value->is_null();
    }
    if (is_null && definition.type.is_non_null()) {
      *error = {"Argument \"" + std::string(definition.name) + "\" of non-null type \"" +
                    type_name + "\" must not be null.",
                literal.offset};
      return std::nullopt;
    }
    std::optional<Value> value = ValueFromLiteral(literal, definition.type, variables);
    if (!value) {
      *error = {"Argument \"" + std::string(definition.name) + "\" has invalid value " +
                    Print(literal) + ".",
                literal.offset};
      return std::nullopt;
    }
    coerced.emplace_back(std::string(definition.name), std::move(*value));
  }
  return Value::MakeObject(std::move(coerced));
}

std::optional<std::string> PrintValueAsLiteral(const Value& value, TypeRef type) {
  if (type.is_non_null()) {
    if (value.is_null()) return std::nullopt;
    return PrintValueAsLiteral(value, type.OfType());
  }
  if (value.is_null()) return "null";
  if (type.is_list()) {
    const TypeRef item_type = type.OfType();
    if (value.kind() != Value::Kind::kList) return PrintValueAsLiteral(value, item_type);
    std::string result = "[";
    bool first = true;
    for (const Value& item : value.as_list()) {
      std::optional<std::string> printed = PrintValueAsLiteral(item, item_type);
      if (!printed) continue;
      if (!first) result += ", ";
      result += *printed;
      first = false;
    }
    return result + "]";
  }
  const NamedType& named = *type.named();
  if (named.kind == TypeKind::kInputObject) {
    if (value.kind() != Value::Kind::kObject) return std::nullopt;
    std::string result = "{";
    bool first = true;
    for (const InputValue& field : named.input_fields) {
      const Value* field_value = value.Find(field.name);
      if (field_value == nullptr) continue;
      std::optional<std::string> printed = PrintValueAsLiteral(*field_value, field.type);
      if (!printed) continue;
      if (!first) result += ", ";
      result += std::string(field.name) + ": " + *printed;
      first = false;
    }
    return result + "}";
  }
  return LeafLiteralOf(named, value);
}

}  // namespace netgraph::graphql
