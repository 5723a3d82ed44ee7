#pragma once
// An error with the HTTP status it answers with (azg::Error alone answers 400).
#include <string>

#include "core/error.hpp"

namespace azg::web {

struct HttpError : Error {
  HttpError(int status, const std::string& message) : Error(message), status(status) {}
  int status;
};

}  // namespace azg::web
