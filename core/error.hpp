#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

namespace azg {

// Bad input from a user or a file (unknown game, malformed setup or action, illegal
// move, broken config). Its message is one line meant for people; tools print it and
// exit with status 2.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// `text` in single quotes for an error message: control characters shown as '?' (the
// message stays one line) and cut to its first 80 characters, with its full length said,
// so a huge bad input does not flood the terminal.
inline std::string quote_input(std::string_view text) {
  constexpr std::size_t kShown = 80;
  std::string q = "'";
  for (std::size_t i = 0; i < text.size() && i < kShown; ++i)
    q += static_cast<unsigned char>(text[i]) < 0x20 ? '?' : text[i];
  if (text.size() <= kShown) return q + "'";
  return q + "...' (" + std::to_string(text.size()) + " characters)";
}

}  // namespace azg
