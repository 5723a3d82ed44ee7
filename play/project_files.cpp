#include "play/project_files.hpp"

#include <filesystem>

namespace azg::play {

namespace {
// The source tree azg was built from ("" when unknown).
std::string source_tree() {
#ifdef AZG_SOURCE_DIR
  return AZG_SOURCE_DIR;
#else
  return "";
#endif
}
}  // namespace

std::optional<std::string> find_project_file(const std::string& relative) {
  namespace fs = std::filesystem;
  const auto usable = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
  };
  if (usable(relative)) return relative;
  if (const std::string tree = source_tree(); !tree.empty())
    if (const fs::path built_from = fs::path(tree) / relative; usable(built_from))
      return built_from.string();
  return std::nullopt;
}

}  // namespace azg::play
