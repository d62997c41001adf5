// Appends JSON text to a ResponseBuffer, the way JSON.stringify writes what graphql-js returns:
// strings with `"`, `\` and control characters escaped (\n, \u001f...), everything else as UTF-8,
// numbers as JavaScript prints them. Input that is not valid UTF-8 (resolver data is not checked
// anywhere else) never makes invalid JSON: each malformed sequence becomes U+FFFD.
//
// The executor writes a response straight into one buffer with these; there is no JSON tree.
#ifndef NETGRAPH_CORE_GRAPHQL_EXECUTION_JSON_WRITER_H_
#define NETGRAPH_CORE_GRAPHQL_EXECUTION_JSON_WRITER_H_

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/graphql/error/error.h"
#include "core/graphql/execution/response_buffer.h"
#include "core/graphql/utilities/value.h"

namespace netgraph::graphql::json {

// Whether `text` can be written between quotes as it is: no control character, `"`, `\` or
// byte of a multi-byte character. It reads the text in (overlapping) blocks rather than byte by
// byte: a byte loop mispredicts on the short strings that responses are made of.
#if defined(__SSE2__)
inline bool AnyNeedsEscapeOrCheck(__m128i bytes) {
  // Signed compare: bytes 0x80-0xFF are negative, so they count as "below 0x20" too.
  const __m128i low = _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x20));
  const __m128i quote = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('"'));
  const __m128i backslash = _mm_cmpeq_epi8(bytes, _mm_set1_epi8('\\'));
  return _mm_movemask_epi8(_mm_or_si128(low, _mm_or_si128(quote, backslash))) != 0;
}

inline bool IsPlain(std::string_view text) {
  const char* p = text.data();
  const std::size_t n = text.size();
  auto load64 = [](const char* at) {
    std::int64_t word;
    std::memcpy(&word, at, sizeof word);
    return word;
  };
  auto load32 = [](const char* at) {
    std::int32_t word;
    std::memcpy(&word, at, sizeof word);
    return word;
  };
  if (n >= 16) {
    for (std::size_t i = 0; i + 16 <= n; i += 16) {
      if (AnyNeedsEscapeOrCheck(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i)))) {
        return false;
      }
    }
    return !AnyNeedsEscapeOrCheck(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16)));
  }
  if (n >= 8) return !AnyNeedsEscapeOrCheck(_mm_set_epi64x(load64(p + n - 8), load64(p)));
  if (n >= 4) {
    constexpr std::int32_t kPlainFill = 0x61616161;  // "aaaa" in the unused lanes
    return !AnyNeedsEscapeOrCheck(
        _mm_set_epi32(kPlainFill, kPlainFill, load32(p + n - 4), load32(p)));
  }
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(p[i]);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
  }
  return true;
}
#else
inline bool IsPlain(std::string_view text) {
  for (char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return false;
  }
  return true;
}
#endif

// `text` quoted, when IsPlain(text) does not hold: escapes, UTF-8 checked.
void AppendEscapedString(std::string_view text, ResponseBuffer* out);

// `text` as a quoted JSON string.
inline void AppendString(std::string_view text, ResponseBuffer* out) {
  if (!IsPlain(text)) {
    AppendEscapedString(text, out);
    return;
  }
  char* at = out->Extend(text.size() + 2);
  at[0] = '"';
  ResponseBuffer::Copy(at + 1, text.data(), text.size());
  at[text.size() + 1] = '"';
}
std::string Quote(std::string_view text);
void AppendInt(std::int64_t number, ResponseBuffer* out);
// A double as JSON.stringify writes it; NaN and the infinities become null.
void AppendNumber(double number, ResponseBuffer* out);

// A Value as JSON: objects keep their field order, Host values write null.
void AppendValue(const Value& value, ResponseBuffer* out);

// One error of a response: message, locations, path, extensions (graphql-js's order; empty
// members left out).
void AppendError(const Error& error, ResponseBuffer* out);
// An errors list: `[...]`.
void AppendErrors(const std::vector<Error>& errors, ResponseBuffer* out);
// The errors list `[...]` of a response.
std::string ErrorsList(const std::vector<Error>& errors);

}  // namespace netgraph::graphql::json

#endif  // NETGRAPH_CORE_GRAPHQL_EXECUTION_JSON_WRITER_H_
