#include "core/graphql/language/utf8.h"

namespace netgraph::graphql::utf8 {

namespace {

bool IsContinuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

}  // namespace

Decoded Decode(const char* p, const char* end) {
  const auto lead = static_cast<unsigned char>(*p);
  if (lead < 0x80) return {lead, 1, true};

  // The lead byte fixes the length and the range of the second byte (Unicode Table 3-7).
  int length = 0;
  unsigned char second_min = 0x80;
  unsigned char second_max = 0xBF;
  char32_t code_point = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    code_point = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    code_point = lead & 0x0F;
    if (lead == 0xE0) second_min = 0xA0;
    if (lead == 0xED) second_max = 0x9F;  // no UTF-16 surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    code_point = lead & 0x07;
    if (lead == 0xF0) second_min = 0x90;
    if (lead == 0xF4) second_max = 0x8F;  // nothing above U+10FFFF
  } else {
    return {kReplacementCharacter, 1, false};
  }

  int consumed = 1;
  for (; consumed < length; ++consumed) {
    if (p + consumed >= end) break;
    const auto byte = static_cast<unsigned char>(p[consumed]);
    bool in_range = consumed == 1 ? byte >= second_min && byte <= second_max : IsContinuation(byte);
    if (!in_range) break;
    code_point = (code_point << 6) | (byte & 0x3F);
  }
  if (consumed < length) {
    return {kReplacementCharacter, static_cast<std::uint8_t>(consumed), false};
  }
  return {code_point, static_cast<std::uint8_t>(length), true};
}

int Encode(char32_t code_point, char* out) {
  if (code_point < 0x80) {
    out[0] = static_cast<char>(code_point);
    return 1;
  }
  if (code_point < 0x800) {
    out[0] = static_cast<char>(0xC0 | (code_point >> 6));
    out[1] = static_cast<char>(0x80 | (code_point & 0x3F));
    return 2;
  }
  if (code_point < 0x10000) {
    out[0] = static_cast<char>(0xE0 | (code_point >> 12));
    out[1] = static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
    out[2] = static_cast<char>(0x80 | (code_point & 0x3F));
    return 3;
  }
  out[0] = static_cast<char>(0xF0 | (code_point >> 18));
  out[1] = static_cast<char>(0x80 | ((code_point >> 12) & 0x3F));
  out[2] = static_cast<char>(0x80 | ((code_point >> 6) & 0x3F));
  out[3] = static_cast<char>(0x80 | (code_point & 0x3F));
  return 4;
}

void Append(char32_t code_point, std::string* out) {
  char buffer[4];
  out->append(buffer, static_cast<std::size_t>(Encode(code_point, buffer)));
}

std::size_t Utf16Length(std::string_view text) {
  std::size_t units = 0;
  const char* p = text.data();
  const char* end = p + text.size();
  while (p < end) {
    if (static_cast<unsigned char>(*p) < 0x80) {
      ++units;
      ++p;
      continue;
    }
    Decoded decoded = Decode(p, end);
    units += static_cast<std::size_t>(Utf16Units(decoded.code_point));
    p += decoded.length;
  }
  return units;
}

std::string_view Utf16Prefix(std::string_view text, std::size_t units) {
  const char* p = text.data();
  const char* end = p + text.size();
  std::size_t counted = 0;
  while (p < end && counted < units) {
    Decoded decoded = Decode(p, end);
    counted += static_cast<std::size_t>(Utf16Units(decoded.code_point));
    p += decoded.length;
  }
  return text.substr(0, static_cast<std::size_t>(p - text.data()));
}

}  // namespace netgraph::graphql::utf8
