#include "core/graphql/execution/leaf_serializer.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "core/graphql/execution/json_writer.h"
#include "core/graphql/language/utf8.h"
#include "core/graphql/utilities/inspect.h"
#include "core/graphql/utilities/number_format.h"

namespace netgraph::graphql {

namespace {

constexpr double kMaxInt = std::numeric_limits<std::int32_t>::max();
constexpr double kMinInt = std::numeric_limits<std::int32_t>::min();

// JavaScript's StrWhiteSpaceChar: white space and line terminators.
bool IsJsWhiteSpace(char32_t c) {
  switch (c) {
    case 0x09:
    case 0x0A:
    case 0x0B:
    case 0x0C:
    case 0x0D:
    case 0x20:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
    case 0xFEFF:
      return true;
    default:
      return c >= 0x2000 && c <= 0x200A;
  }
}

std::string_view TrimJsWhiteSpace(std::string_view text) {
  while (!text.empty()) {
    utf8::Decoded decoded = utf8::Decode(text.data(), text.data() + text.size());
    if (!IsJsWhiteSpace(decoded.code_point)) break;
    text.remove_prefix(decoded.length);
  }
  while (!text.empty()) {
    // Find the start of the last character.
    std::size_t start = text.size() - 1;
    while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
    utf8::Decoded decoded = utf8::Decode(text.data() + start, text.data() + text.size());
    if (decoded.length != text.size() - start || !IsJsWhiteSpace(decoded.code_point)) break;
    text.remove_suffix(decoded.length);
  }
  return text;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

// 0x1F, 0o17, 0b101 (no sign, as JavaScript).
std::optional<double> ParseRadixInteger(std::string_view digits, int radix) {
  if (digits.empty()) return std::nullopt;
  double value = 0;
  for (char c : digits) {
    int digit = -1;
    if (IsDigit(c)) {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    }
    if (digit < 0 || digit >= radix) return std::nullopt;
    value = value * radix + digit;
  }
  return value;
}

// Whether `text` is a StrUnsignedDecimalLiteral without "Infinity": digits with an optional
// fraction, or a fraction alone, then an optional exponent.
bool IsUnsignedDecimal(std::string_view text) {
  std::size_t i = 0;
  std::size_t integer_digits = 0;
  while (i < text.size() && IsDigit(text[i])) ++i, ++integer_digits;
  std::size_t fraction_digits = 0;
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && IsDigit(text[i])) ++i, ++fraction_digits;
  }
  if (integer_digits == 0 && fraction_digits == 0) return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
    std::size_t exponent_digits = 0;
    while (i < text.size() && IsDigit(text[i])) ++i, ++exponent_digits;
    if (exponent_digits == 0) return false;
  }
  return i == text.size();
}

double ParseDecimal(std::string_view text) {
  double value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  (void)end;
  if (error == std::errc::result_out_of_range) {
    // Overflow reads as Infinity, underflow as 0, as in JavaScript.
    std::size_t e = text.find_first_of("eE");
    bool tiny = e != std::string_view::npos && e + 1 < text.size() && text[e + 1] == '-';
    return tiny ? 0.0 : std::numeric_limits<double>::infinity();
  }
  return value;
}

bool IsJsInteger(double d) { return std::isfinite(d) && std::trunc(d) == d; }

// graphql-js's serializeObject is the identity for everything a Value holds, so the numeric
// scalars read numbers, booleans and numeric strings.
std::optional<double> NumericValue(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kBoolean:
      return value.as_bool() ? 1.0 : 0.0;
    case Value::Kind::kInt:
    case Value::Kind::kFloat:
      return value.as_number();
    case Value::Kind::kString:
      if (value.as_string().empty()) return std::nullopt;
      return JsStringToNumber(value.as_string());
    default:
      return std::nullopt;
  }
}

void AppendIntegral(double number, ResponseBuffer* out) {
  json::AppendInt(static_cast<std::int64_t>(number), out);
}

}  // namespace

std::optional<double> JsStringToNumber(std::string_view text) {
  text = TrimJsWhiteSpace(text);
  if (text.empty()) return 0.0;
  if (text.size() > 2 && text[0] == '0') {
    switch (text[1]) {
      case 'x':
      case 'X':
        return ParseRadixInteger(text.substr(2), 16);
      case 'o':
      case 'O':
        return ParseRadixInteger(text.substr(2), 8);
      case 'b':
      case 'B':
        return ParseRadixInteger(text.substr(2), 2);
      default:
        break;
    }
  }
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  double magnitude = 0;
  if (text == "Infinity") {
    magnitude = std::numeric_limits<double>::infinity();
  } else if (IsUnsignedDecimal(text)) {
    magnitude = ParseDecimal(text);
  } else {
    return std::nullopt;
  }
  return negative ? -magnitude : magnitude;
}

LeafKind LeafKindOf(const NamedType& leaf_type) {
  if (leaf_type.kind == TypeKind::kEnum) return LeafKind::kEnum;
  if (!leaf_type.is_specified_scalar()) return LeafKind::kCustom;
  const std::string_view name = leaf_type.name;
  if (name == "Int") return LeafKind::kInt;
  if (name == "Float") return LeafKind::kFloat;
  if (name == "String") return LeafKind::kString;
  if (name == "Boolean") return LeafKind::kBoolean;
  return LeafKind::kId;
}

Status SerializeLeaf(const NamedType& type, LeafKind kind, const Value& value,
                     ResponseBuffer* out) {
  switch (kind) {
    case LeafKind::kString:
      switch (value.kind()) {
        case Value::Kind::kString:
          json::AppendString(value.as_string(), out);
          return Status::Ok();
        case Value::Kind::kBoolean:
          out->Append(value.as_bool() ? "\"true\"" : "\"false\"");
          return Status::Ok();
        case Value::Kind::kInt:
          out->Append('"');
          json::AppendInt(value.as_int(), out);
          out->Append('"');
          return Status::Ok();
        case Value::Kind::kFloat:
          if (std::isfinite(value.as_float())) {
            json::AppendString(FormatJsNumber(value.as_float()), out);
            return Status::Ok();
          }
          break;
        default:
          break;
      }
      return Status::InvalidArgument("String cannot represent value: " + Inspect(value));

    case LeafKind::kInt: {
      if (value.kind() == Value::Kind::kInt) {
        const std::int64_t number = value.as_int();
        if (number > static_cast<std::int64_t>(kMaxInt) ||
            number < static_cast<std::int64_t>(kMinInt)) {
          return Status::InvalidArgument("Int cannot represent non 32-bit signed integer value: " +
                                         Inspect(value));
        }
        json::AppendInt(number, out);
        return Status::Ok();
      }
      std::optional<double> number = NumericValue(value);
      if (!number || !IsJsInteger(*number)) {
        return Status::InvalidArgument("Int cannot represent non-integer value: " + Inspect(value));
      }
      if (*number > kMaxInt || *number < kMinInt) {
        return Status::InvalidArgument("Int cannot represent non 32-bit signed integer value: " +
                                       Inspect(value));
      }
      AppendIntegral(*number, out);
      return Status::Ok();
    }

    case LeafKind::kFloat: {
      if (value.kind() == Value::Kind::kInt) {
        json::AppendInt(value.as_int(), out);
        return Status::Ok();
      }
      std::optional<double> number = NumericValue(value);
      if (!number || !std::isfinite(*number)) {
        return Status::InvalidArgument("Float cannot represent non numeric value: " +
                                       Inspect(value));
      }
      json::AppendNumber(*number, out);
      return Status::Ok();
    }

    case LeafKind::kBoolean:
      if (value.kind() == Value::Kind::kBoolean) {
        out->Append(value.as_bool() ? "true" : "false");
        return Status::Ok();
      }
      if ((value.kind() == Value::Kind::kInt || value.kind() == Value::Kind::kFloat) &&
          std::isfinite(value.as_number())) {
        out->Append(value.as_number() != 0 ? "true" : "false");
        return Status::Ok();
      }
      return Status::InvalidArgument("Boolean cannot represent a non boolean value: " +
                                     Inspect(value));

    case LeafKind::kId:
      if (value.kind() == Value::Kind::kString) {
        json::AppendString(value.as_string(), out);
        return Status::Ok();
      }
      if (value.kind() == Value::Kind::kInt) {
        out->Append('"');
        json::AppendInt(value.as_int(), out);
        out->Append('"');
        return Status::Ok();
      }
      if (value.kind() == Value::Kind::kFloat && IsJsInteger(value.as_float())) {
        json::AppendString(FormatJsNumber(value.as_float()), out);
        return Status::Ok();
      }
      return Status::InvalidArgument("ID cannot represent value: " + Inspect(value));

    case LeafKind::kEnum:
      if (value.kind() == Value::Kind::kString) {
        if (const EnumValue* enum_value = type.FindEnumValue(value.as_string())) {
          json::AppendString(enum_value->name, out);
          return Status::Ok();
        }
      }
      return Status::InvalidArgument("Enum \"" + std::string(type.name) +
                                     "\" cannot represent value: " + Inspect(value));

    case LeafKind::kCustom:
      json::AppendValue(value, out);
      return Status::Ok();
  }
  return Status::InvalidArgument("Unexpected leaf type " + std::string(type.name));
}

}  // namespace netgraph::graphql
