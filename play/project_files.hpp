#pragma once
// Files that come with the project rather than with a run (frozen ladder rungs, shipped
// models): found under the current folder first, then under the source tree azg was built
// from, so that a binary run from anywhere in or outside the checkout finds them.
#include <optional>
#include <string>

namespace azg::play {

// `relative` (say "models/lignes.json") under the current folder, else under the source
// tree; nullopt when neither holds a regular file there.
std::optional<std::string> find_project_file(const std::string& relative);

}  // namespace azg::play
