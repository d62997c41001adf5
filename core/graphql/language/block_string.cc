#include "core/graphql/language/block_string.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <vector>

#include "core/graphql/language/utf8.h"

namespace netgraph::graphql {

namespace {

bool IsWhiteSpace(char c) { return c == ' ' || c == '\t'; }

// The end of the line starting at `begin` and the start of the next one (past "\r\n", "\n" or
// "\r"); `next` is npos for the last line.
struct LineBounds {
  std::size_t end;
  std::size_t next;
};

LineBounds FindLineEnd(std::string_view text, std::size_t begin) {
  for (std::size_t i = begin; i < text.size(); ++i) {
    if (text[i] == '\n') return {i, i + 1};
    if (text[i] == '\r') {
      return {i, (i + 1 < text.size() && text[i + 1] == '\n') ? i + 2 : i + 1};
    }
  }
  return {text.size(), std::string_view::npos};
}

std::size_t LeadingWhiteSpace(std::string_view line) {
  std::size_t i = 0;
  while (i < line.size() && IsWhiteSpace(line[i])) ++i;
  return i;
}

// Copies `line` to `out`, unescaping `\"""` and replacing malformed UTF-8 with U+FFFD.
char* CopyLine(std::string_view line, char* out) {
  const char* p = line.data();
  const char* end = p + line.size();
  while (p < end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '\\' && end - p >= 4 && p[1] == '"' && p[2] == '"' && p[3] == '"') {
      *out++ = '"';
      *out++ = '"';
      *out++ = '"';
      p += 4;
    } else if (c < 0x80) {
      *out++ = *p++;
    } else {
      utf8::Decoded decoded = utf8::Decode(p, end);
      if (decoded.well_formed) {
        for (int i = 0; i < decoded.length; ++i) *out++ = p[i];
      } else {
        out += utf8::Encode(decoded.code_point, out);
      }
      p += decoded.length;
    }
  }
  return out;
}

}  // namespace

std::string_view BlockStringValue(std::string_view raw, Arena* arena) {
  // First pass: the common indentation of all lines but the first, and the first and last lines
  // that are not blank.
  std::size_t common_indent = std::numeric_limits<std::size_t>::max();
  std::size_t first_non_blank = std::string_view::npos;
  std::size_t last_non_blank = std::string_view::npos;
  std::size_t line_count = 0;
  for (std::size_t begin = 0;; ++line_count) {
    LineBounds bounds = FindLineEnd(raw, begin);
    std::string_view line = raw.substr(begin, bounds.end - begin);
    std::size_t indent = LeadingWhiteSpace(line);
    if (indent != line.size()) {
      if (first_non_blank == std::string_view::npos) first_non_blank = line_count;
      last_non_blank = line_count;
      if (line_count != 0) common_indent = std::min(common_indent, indent);
    }
    if (bounds.next == std::string_view::npos) break;
    begin = bounds.next;
  }
  if (first_non_blank == std::string_view::npos) return {};

  // Second pass: write the kept lines joined with "\n". The value is never longer than the raw
  // text, except that a malformed byte becomes three.
  char* out = arena->AllocateChars(raw.size() * 3);
  char* cursor = out;
  std::size_t begin = 0;
  for (std::size_t index = 0; index <= last_non_blank; ++index) {
    LineBounds bounds = FindLineEnd(raw, begin);
    if (index >= first_non_blank) {
      std::string_view line = raw.substr(begin, bounds.end - begin);
      if (index != 0) line.remove_prefix(std::min(common_indent, line.size()));
      if (index != first_non_blank) *cursor++ = '\n';
      cursor = CopyLine(line, cursor);
    }
    begin = bounds.next;
  }
  arena->ShrinkLast(cursor);
  return {out, static_cast<std::size_t>(cursor - out)};
}

bool IsPrintableAsBlockString(std::string_view value) {
  if (value.empty()) return true;
  bool is_empty_line = true;
  bool has_indent = false;
  bool has_common_indent = true;
  bool seen_non_empty_line = false;
  for (char ch : value) {
    switch (static_cast<unsigned char>(ch)) {
      case 0x00:
      case 0x01:
      case 0x02:
      case 0x03:
      case 0x04:
      case 0x05:
      case 0x06:
      case 0x07:
      case 0x08:
      case 0x0B:
      case 0x0C:
      case 0x0E:
      case 0x0F:
        return false;  // non-printable characters
      case '\r':
        return false;  // "\r" and "\r\n" would read back as "\n"
      case '\n':
        if (is_empty_line && !seen_non_empty_line) return false;  // a leading new line
        seen_non_empty_line = true;
        is_empty_line = true;
        has_indent = false;
        break;
      case '\t':
      case ' ':
        has_indent = has_indent || is_empty_line;
        break;
      default:
        has_common_indent = has_common_indent && has_indent;
        is_empty_line = false;
    }
  }
  if (is_empty_line) return false;                             // trailing empty lines
  if (has_common_indent && seen_non_empty_line) return false;  // internal indentation
  return true;
}

std::string PrintBlockString(std::string_view value, bool minimize) {
  std::string escaped;
  escaped.reserve(value.size() + 8);
  for (std::size_t i = 0; i < value.size();) {
    if (value.compare(i, 3, R"(""")") == 0) {
      escaped += R"(\""")";
      i += 3;
    } else {
      escaped += value[i++];
    }
  }

  // Lines of the escaped value, for the layout decisions.
  std::vector<std::string_view> lines;
  std::string_view escaped_view = escaped;
  for (std::size_t begin = 0;;) {
    LineBounds bounds = FindLineEnd(escaped_view, begin);
    lines.push_back(escaped_view.substr(begin, bounds.end - begin));
    if (bounds.next == std::string_view::npos) break;
    begin = bounds.next;
  }
  const bool is_single_line = lines.size() == 1;
  const bool force_leading_new_line =
      lines.size() > 1 && std::all_of(lines.begin() + 1, lines.end(), [](std::string_view line) {
        return line.empty() || IsWhiteSpace(line[0]);
      });
  const bool has_trailing_triple_quotes = escaped_view.ends_with(R"(\""")");
  const bool has_trailing_quote = value.ends_with('"') && !has_trailing_triple_quotes;
  const bool has_trailing_slash = value.ends_with('\\');
  const bool force_trailing_new_line = has_trailing_quote || has_trailing_slash;
  const bool print_as_multiple_lines =
      !minimize && (!is_single_line || utf8::Utf16Length(value) > 70 || force_trailing_new_line ||
                    force_leading_new_line || has_trailing_triple_quotes);
  const bool skip_leading_new_line = is_single_line && !value.empty() && IsWhiteSpace(value[0]);

  std::string result = R"(""")";
  if ((print_as_multiple_lines && !skip_leading_new_line) || force_leading_new_line) {
    result += '\n';
  }
  result += escaped;
  if (print_as_multiple_lines || force_trailing_new_line) result += '\n';
  result += R"(""")";
  return result;
}

}  // namespace netgraph::graphql
