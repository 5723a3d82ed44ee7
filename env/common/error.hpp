#pragma once
#include <stdexcept>
#include <string>

namespace azg {

// Bad input from a user or a file (unknown game, malformed setup or action, illegal
// move, broken config). Its message is one line meant for people; tools print it and
// exit with status 2.
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& message) : std::runtime_error(message) {}
};

}  // namespace azg
