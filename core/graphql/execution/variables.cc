#include "core/graphql/execution/variables.h"

#include <cmath>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>

#include "core/graphql/language/printer.h"
#include "core/graphql/utilities/input_literal.h"
#include "core/graphql/utilities/inspect.h"
#include "core/graphql/utilities/number_format.h"
#include "core/graphql/utilities/suggestion_list.h"

namespace netgraph::graphql {

namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxErrors = 50;
constexpr double kMaxInt = std::numeric_limits<std::int32_t>::max();
constexpr double kMinInt = std::numeric_limits<std::int32_t>::min();

bool NestsDeeperThan(const Json& json, std::size_t limit) {
  if (!json.is_structured()) return false;
  if (limit == 0) return true;
  for (const Json& item : json) {
    if (NestsDeeperThan(item, limit - 1)) return true;
  }
  return false;
}

// JavaScript's String(number) for a JSON number.
std::string JsNumberText(const Json& number) {
  if (number.is_number_integer()) {
    return number.is_number_unsigned() ? std::to_string(number.get<std::uint64_t>())
                                       : std::to_string(number.get<std::int64_t>());
  }
  return FormatJsNumber(number.get<double>());
}

// Number.isInteger for a JSON number.
bool IsJsInteger(const Json& json) {
  if (json.is_number_integer()) return true;
  if (!json.is_number_float()) return false;
  const double d = json.get<double>();
  return std::isfinite(d) && std::trunc(d) == d;
}

std::string EnumSuggestions(const NamedType& type, std::string_view input) {
  std::vector<std::string_view> names;
  names.reserve(type.enum_values.size());
  for (const EnumValue& value : type.enum_values) names.push_back(value.name);
  return DidYouMean(SuggestionList(input, names), "the enum value");
}

// A step of the path to a value inside a variable: a field name or a list index.
using PathSegment = std::variant<std::string_view, std::size_t>;

class Coercer {
 public:
  Coercer(const ast::Document& document, std::vector<Error>* errors)
      : document_(document), errors_(errors) {}

  bool aborted() const { return aborted_; }

  // Reports an error about the variable `definition` (graphql-js's nodes: varDefNode).
  void Report(std::string message, std::uint32_t offset) {
    if (aborted_) return;
    if (errors_->size() >= kMaxErrors) {
      errors_->push_back(
          Error{"Too many errors processing variables, error limit reached. Execution aborted.",
                {},
                {},
                {}});
      aborted_ = true;
      return;
    }
    errors_->push_back(Error{std::move(message), {document_.Locate(offset)}, {}, {}});
  }

  // coerceInputValue with graphql-js's onError for variables. Returns nullopt where graphql-js
  // gives undefined (after reporting an error).
  std::optional<Value> Coerce(const Json& input, TypeRef type) {
    if (aborted_) return std::nullopt;
    if (type.is_non_null()) {
      if (!input.is_null()) return Coerce(input, type.OfType());
      Invalid(input, "Expected non-nullable type \"" + type.ToString() + "\" not to be null.");
      return std::nullopt;
    }
    if (input.is_null()) return Value();
    if (type.is_list()) {
      const TypeRef item_type = type.OfType();
      if (!input.is_array()) {
        std::optional<Value> item = Coerce(input, item_type);
        return Value::MakeList({item ? std::move(*item) : Value()});
      }
      Value::List items;
      items.reserve(input.size());
      for (std::size_t i = 0; i < input.size(); ++i) {
        path_.emplace_back(i);
        std::optional<Value> item = Coerce(input[i], item_type);
        path_.pop_back();
        items.push_back(item ? std::move(*item) : Value());
      }
      return Value::MakeList(std::move(items));
    }
    const NamedType& named = *type.named();
    if (named.kind == TypeKind::kInputObject) return CoerceInputObject(input, named);
    return CoerceLeaf(input, named);
  }

  // The variable being coerced: its name and definition node, for messages.
  void StartVariable(std::string_view name, std::uint32_t offset) {
    variable_name_ = name;
    variable_offset_ = offset;
    path_.clear();
  }

 private:
  // graphql-js's onError for a variable: "Variable "$x" got invalid value V at "x.a[0]"; ...".
  void Invalid(const Json& invalid_value, const std::string& message) {
    std::string text = "Variable \"$" + std::string(variable_name_) + "\" got invalid value " +
                       Inspect(Value::FromJson(invalid_value));
    if (!path_.empty()) {
      text += " at \"" + std::string(variable_name_);
      for (const PathSegment& segment : path_) {
        if (const auto* index = std::get_if<std::size_t>(&segment)) {
          text += "[" + std::to_string(*index) + "]";
        } else {
          text += "." + std::string(std::get<std::string_view>(segment));
        }
      }
      text += "\"";
    }
    Report(text + "; " + message, variable_offset_);
  }

  std::optional<Value> CoerceInputObject(const Json& input, const NamedType& type) {
    if (!input.is_object()) {
      Invalid(input, "Expected type \"" + std::string(type.name) + "\" to be an object.");
      return std::nullopt;
    }
    Value::Object fields;
    // graphql-js keeps a field that failed to coerce as undefined: it counts as a key for @oneOf
    // but is not null.
    std::vector<bool> failed;
    for (const InputValue& field : type.input_fields) {
      auto found = input.find(std::string(field.name));
      if (found == input.end()) {
        if (field.default_value) {
          fields.emplace_back(std::string(field.name), *field.default_value);
          failed.push_back(false);
        } else if (field.type.is_non_null()) {
          Invalid(input, "Field \"" + std::string(field.name) + "\" of required type \"" +
                             field.type.ToString() + "\" was not provided.");
        }
        continue;
      }
      path_.emplace_back(field.name);
      std::optional<Value> value = Coerce(*found, field.type);
      path_.pop_back();
      fields.emplace_back(std::string(field.name), value ? std::move(*value) : Value());
      failed.push_back(!value);
    }
    for (const auto& [key, unused] : input.items()) {
      (void)unused;
      if (type.FindInputField(key) != nullptr) continue;
      std::vector<std::string_view> names;
      for (const InputValue& field : type.input_fields) names.push_back(field.name);
      Invalid(input, "Field \"" + key + "\" is not defined by type \"" + std::string(type.name) +
                         "\"." + DidYouMean(SuggestionList(key, names)));
    }
    if (type.one_of) {
      if (fields.size() != 1) {
        Invalid(input, "Exactly one key must be specified for OneOf type \"" +
                           std::string(type.name) + "\".");
      }
      if (!fields.empty() && !failed[0] && fields[0].second.is_null()) {
        path_.emplace_back(fields[0].first);
        Invalid(Json(nullptr), "Field \"" + fields[0].first + "\" must be non-null.");
        path_.pop_back();
      }
    }
    return Value::MakeObject(std::move(fields));
  }

  std::optional<Value> CoerceLeaf(const Json& input, const NamedType& type) {
    const std::string_view name = type.name;
    if (type.kind == TypeKind::kEnum) {
      if (!input.is_string()) {
        std::string shown = Inspect(Value::FromJson(input));
        Invalid(input, "Enum \"" + std::string(name) + "\" cannot represent non-string value: " +
                           shown + "." + EnumSuggestions(type, shown));
        return std::nullopt;
      }
      const std::string& text = input.get_ref<const std::string&>();
      if (type.FindEnumValue(text) == nullptr) {
        Invalid(input, "Value \"" + text + "\" does not exist in \"" + std::string(name) +
                           "\" enum." + EnumSuggestions(type, text));
        return std::nullopt;
      }
      return Value::String(text);
    }
    if (!type.is_specified_scalar()) return Value::FromJson(input);  // parseValue is identity

    auto inspected = [&input] { return Inspect(Value::FromJson(input)); };
    if (name == "Int") {
      if (!input.is_number() || !IsJsInteger(input)) {
        Invalid(input, "Int cannot represent non-integer value: " + inspected());
        return std::nullopt;
      }
      const double number = input.get<double>();
      if (number > kMaxInt || number < kMinInt) {
        Invalid(input,
                "Int cannot represent non 32-bit signed integer value: " + JsNumberText(input));
        return std::nullopt;
      }
      return Value::Int(static_cast<std::int64_t>(number));
    }
    if (name == "Float") {
      if (!input.is_number() || !std::isfinite(input.get<double>())) {
        Invalid(input, "Float cannot represent non numeric value: " + inspected());
        return std::nullopt;
      }
      return Value::Float(input.get<double>());
    }
    if (name == "String") {
      if (!input.is_string()) {
        Invalid(input, "String cannot represent a non string value: " + inspected());
        return std::nullopt;
      }
      return Value::String(input.get<std::string>());
    }
    if (name == "Boolean") {
      if (!input.is_boolean()) {
        Invalid(input, "Boolean cannot represent a non boolean value: " + inspected());
        return std::nullopt;
      }
      return Value::Boolean(input.get<bool>());
    }
    // ID
    if (input.is_string()) return Value::String(input.get<std::string>());
    if (input.is_number() && IsJsInteger(input)) return Value::String(JsNumberText(input));
    Invalid(input, "ID cannot represent value: " + inspected());
    return std::nullopt;
  }

  const ast::Document& document_;
  std::vector<Error>* errors_;
  bool aborted_ = false;
  std::string_view variable_name_;
  std::uint32_t variable_offset_ = 0;
  std::vector<PathSegment> path_;
};

}  // namespace

std::optional<Value> CoerceVariableValues(const Schema& schema, const ast::Document& document,
                                          const ast::OperationDefinition& operation,
                                          const nlohmann::json* inputs,
                                          std::vector<Error>* errors) {
  static const Json kNoInputs = Json::object();
  if (inputs == nullptr || inputs->is_null()) inputs = &kNoInputs;
  if (!inputs->is_object()) {
    errors->push_back(
        Error{"Variables must be provided as an Object where each property is a "
              "variable value.",
              {},
              {},
              {}});
    return std::nullopt;
  }
  if (operation.variable_definitions.empty()) {
    static const Value kNoVariables = Value::MakeObject({});
    return kNoVariables;  // shared, not copied
  }
  if (NestsDeeperThan(*inputs, kMaxVariableNesting + 1)) {
    errors->push_back(
        Error{"Variables nest deeper than " + std::to_string(kMaxVariableNesting) + " levels.",
              {},
              {},
              {}});
    return std::nullopt;
  }

  const std::size_t errors_before = errors->size();
  Coercer coercer(document, errors);
  Value::Object coerced;
  for (const ast::VariableDefinition* definition : operation.variable_definitions) {
    if (coercer.aborted()) break;
    const std::string_view name = definition->variable->name.value;
    const TypeRef type = TypeFromAst(schema, *definition->type);
    if (!type.valid() || !IsInputType(type)) {
      coercer.Report("Variable \"$" + std::string(name) + "\" expected value of type \"" +
                         Print(*definition->type) + "\" which cannot be used as an input type.",
                     definition->type->offset);
      continue;
    }
    auto input = inputs->find(std::string(name));
    if (input == inputs->end()) {
      if (definition->default_value != nullptr) {
        std::optional<Value> value = ValueFromLiteral(*definition->default_value, type, nullptr);
        if (value) coerced.emplace_back(std::string(name), std::move(*value));
      } else if (type.is_non_null()) {
        coercer.Report("Variable \"$" + std::string(name) + "\" of required type \"" +
                           type.ToString() + "\" was not provided.",
                       definition->offset);
      }
      continue;
    }
    if (input->is_null() && type.is_non_null()) {
      coercer.Report("Variable \"$" + std::string(name) + "\" of non-null type \"" +
                         type.ToString() + "\" must not be null.",
                     definition->offset);
      continue;
    }
    coercer.StartVariable(name, definition->offset);
    std::optional<Value> value = coercer.Coerce(*input, type);
    coerced.emplace_back(std::string(name), value ? std::move(*value) : Value());
  }
  if (errors->size() != errors_before) return std::nullopt;
  return Value::MakeObject(std::move(coerced));
}

}  // namespace netgraph::graphql
