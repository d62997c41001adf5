#include "core/graphql/execution/json_writer.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include "core/graphql/language/utf8.h"
#include "core/graphql/utilities/number_format.h"

namespace netgraph::graphql::json {

namespace {

// What a byte of a string needs: nothing (copied as is), an escape, or a UTF-8 check.
enum ByteClass : std::uint8_t { kPlain, kEscape, kMultiByte };

constexpr std::array<std::uint8_t, 256> MakeByteClasses() {
  std::array<std::uint8_t, 256> classes{};
  for (int byte = 0; byte < 256; ++byte) {
    if (byte < 0x20 || byte == '"' || byte == '\\') {
      classes[static_cast<std::size_t>(byte)] = kEscape;
    } else if (byte >= 0x80) {
      classes[static_cast<std::size_t>(byte)] = kMultiByte;
    }
  }
  return classes;
}

constexpr std::array<std::uint8_t, 256> kByteClasses = MakeByteClasses();

void AppendEscape(unsigned char byte, ResponseBuffer* out) {
  switch (byte) {
    case '"':
      out->Append("\\\"");
      return;
    case '\\':
      out->Append("\\\\");
      return;
    case '\b':
      out->Append("\\b");
      return;
    case '\f':
      out->Append("\\f");
      return;
    case '\n':
      out->Append("\\n");
      return;
    case '\r':
      out->Append("\\r");
      return;
    case '\t':
      out->Append("\\t");
      return;
    default: {
      static constexpr char kHex[] = "0123456789abcdef";
      const char escape[6] = {'\\', 'u', '0', '0', kHex[byte >> 4], kHex[byte & 0xF]};
      out->Append(std::string_view(escape, sizeof escape));
    }
  }
}

void AppendPathSegment(const Value& segment, ResponseBuffer* out) {
  if (segment.kind() == Value::Kind::kInt) {
    AppendInt(segment.as_int(), out);
  } else {
    AppendString(segment.as_string(), out);
  }
}

}  // namespace

void AppendEscapedString(std::string_view text, ResponseBuffer* out) {
  const char* p = text.data();
  const char* const end = p + text.size();
  out->Append('"');
  while (p < end) {
    const char* run = p;
    while (p < end && kByteClasses[static_cast<unsigned char>(*p)] == kPlain) ++p;
    out->Append(std::string_view(run, static_cast<std::size_t>(p - run)));
    if (p == end) break;
    const auto byte = static_cast<unsigned char>(*p);
    if (kByteClasses[byte] == kEscape) {
      AppendEscape(byte, out);
      ++p;
      continue;
    }
    utf8::Decoded decoded = utf8::Decode(p, end);
    if (decoded.well_formed) {
      out->Append(std::string_view(p, decoded.length));
    } else {
      out->Append("\xEF\xBF\xBD");  // U+FFFD
    }
    p += decoded.length;
  }
  out->Append('"');
}

std::string Quote(std::string_view text) {
  ResponseBuffer out(text.size() + 2);
  AppendString(text, &out);
  return out.Release();
}

void AppendInt(std::int64_t number, ResponseBuffer* out) {
  char buffer[24];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, number);
  (void)error;
  out->Append(std::string_view(buffer, static_cast<std::size_t>(end - buffer)));
}

void AppendNumber(double number, ResponseBuffer* out) {
  if (!std::isfinite(number)) {
    out->Append("null");
    return;
  }
  out->Append(FormatJsNumber(number));
}

void AppendValue(const Value& value, ResponseBuffer* out) {
  switch (value.kind()) {
    case Value::Kind::kNull:
    case Value::Kind::kHost:
      out->Append("null");
      return;
    case Value::Kind::kBoolean:
      out->Append(value.as_bool() ? "true" : "false");
      return;
    case Value::Kind::kInt:
      AppendInt(value.as_int(), out);
      return;
    case Value::Kind::kFloat:
      AppendNumber(value.as_float(), out);
      return;
    case Value::Kind::kString:
      AppendString(value.as_string(), out);
      return;
    case Value::Kind::kList: {
      out->Append('[');
      bool first = true;
      for (const Value& item : value.as_list()) {
        if (!first) out->Append(',');
        first = false;
        AppendValue(item, out);
      }
      out->Append(']');
      return;
    }
    case Value::Kind::kObject: {
      out->Append('{');
      bool first = true;
      for (const auto& [key, item] : value.as_object()) {
        if (!first) out->Append(',');
        first = false;
        AppendString(key, out);
        out->Append(':');
        AppendValue(item, out);
      }
      out->Append('}');
      return;
    }
  }
}

void AppendError(const Error& error, ResponseBuffer* out) {
  out->Append("{\"message\":");
  AppendString(error.message, out);
  if (!error.locations.empty()) {
    out->Append(",\"locations\":[");
    bool first = true;
    for (const SourceLocation& location : error.locations) {
      if (!first) out->Append(',');
      first = false;
      out->Append("{\"line\":");
      AppendInt(location.line, out);
      out->Append(",\"column\":");
      AppendInt(location.column, out);
      out->Append('}');
    }
    out->Append(']');
  }
  if (error.path.kind() == Value::Kind::kList) {
    out->Append(",\"path\":[");
    bool first = true;
    for (const Value& segment : error.path.as_list()) {
      if (!first) out->Append(',');
      first = false;
      AppendPathSegment(segment, out);
    }
    out->Append(']');
  }
  if (error.extensions.kind() == Value::Kind::kObject && !error.extensions.as_object().empty()) {
    out->Append(",\"extensions\":");
    AppendValue(error.extensions, out);
  }
  out->Append('}');
}

void AppendErrors(const std::vector<Error>& errors, ResponseBuffer* out) {
  out->Append('[');
  bool first = true;
  for (const Error& error : errors) {
    if (!first) out->Append(',');
    first = false;
    AppendError(error, out);
  }
  out->Append(']');
}

std::string ErrorsList(const std::vector<Error>& errors) {
  ResponseBuffer list(256);
  AppendErrors(errors, &list);
  return list.Release();
}

}  // namespace netgraph::graphql::json
