#pragma once
// A freshly initialised network written as an exported model, declared apart from
// nets/checkpoint.hpp so that tests and tools that only need a model file to load do not
// include LibTorch (its headers cost about 20 s a file: docs/performance.md#build-time).
#include <cstdint>
#include <string>

#include "nets/model_meta.hpp"

namespace azg::nets {

// A freshly initialised network of `meta`'s shape, exported: a model for tests and tools
// that need one to load, not one that plays well.
void export_untrained_model(const ModelMeta& meta, std::uint64_t seed, const std::string& path);

}  // namespace azg::nets
