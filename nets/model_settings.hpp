#pragma once
// A model's play settings, the part of its meta.json its agents follow unless their spec
// says otherwise, rewritten without touching its weights: for a model whose best way to
// play was measured after it was trained (docs/techniques.md#net.play_symmetry).
#include <string>

#include "nets/model_meta.hpp"

namespace azg::nets {

// Writes to `out_path` (atomically; it may be `in_path`) the exported model at `in_path`
// with its play symmetry set: "0" (positions as they stand), "1" (a random symmetry per
// leaf, net.play_symmetry) or "all" (the mean over every symmetry, net.play_symmetry_mean).
// Returns the written meta. Throws azg::Error on another value or a bad model.
ModelMeta set_play_symmetry(const std::string& in_path, const std::string& out_path,
                            const std::string& symmetry);

}  // namespace azg::nets
