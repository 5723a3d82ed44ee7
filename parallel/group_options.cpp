// The learner group's option checks, shared by the Gloo group and the build without it.
#include <charconv>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "parallel/learner_group.hpp"

namespace azg::parallel {

std::pair<std::string, int> parse_rendezvous(const std::string& text) {
  const auto colon = text.rfind(':');
  int port = 0;
  if (colon == std::string::npos || colon == 0)
    throw Error("--rendezvous must be HOST:PORT, got " + quote_input(text));
  const char* first = text.data() + colon + 1;
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(first, last, port);
  if (ec != std::errc() || end != last || port < 1 || port > 65535)
    throw Error("--rendezvous needs a port in 1..65535, got " + quote_input(text));
  return {text.substr(0, colon), port};
}

std::pair<std::string, int> check_group_options(const GroupOptions& o) {
  if (o.size < 1) throw Error("--learners must be at least 1, got " + std::to_string(o.size));
  if (o.rank < 0 || o.rank >= o.size)
    throw Error("--rank must be in 0.." + std::to_string(o.size - 1) + ", got " +
                std::to_string(o.rank));
  return parse_rendezvous(o.rendezvous);
}

}  // namespace azg::parallel
