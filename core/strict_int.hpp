#pragma once
// Strict decimal integers for action strings: an optional '-' only before a non-zero
// number, no '+', no leading zeros.
#include <optional>
#include <string_view>

namespace azg {

// Parses text[pos..] up to the first character that is not a digit (after an optional
// leading '-'); advances pos. Returns nullopt on any deviation from the strict form or when
// |value| > limit.
inline std::optional<int> parse_strict_int(std::string_view text, std::size_t& pos, int limit) {
  bool negative = false;
  if (pos < text.size() && text[pos] == '-') {
    negative = true;
    ++pos;
  }
  const std::size_t digits_start = pos;
  long value = 0;
  while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
    value = value * 10 + (text[pos] - '0');
    if (value > limit) return std::nullopt;
    ++pos;
  }
  const std::size_t n = pos - digits_start;
  if (n == 0) return std::nullopt;
  if (n > 1 && text[digits_start] == '0') return std::nullopt;  // leading zero
  if (negative && value == 0) return std::nullopt;              // "-0"
  return static_cast<int>(negative ? -value : value);
}

}  // namespace azg
