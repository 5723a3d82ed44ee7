#pragma once
// The mean of several exported models of one network: every weight and every batch-norm
// statistic averaged over the models (weight averaging, as in SWA and KataGo's released
// nets). The models late in a run sit close together in weight space; their mean tends
// to generalise better than any one of them (docs/techniques.md#weight-averaging).
#include <string>
#include <vector>

#include "nets/model_meta.hpp"

namespace azg::nets {

// Writes to `out_path` (atomically) the mean of the exported models at `paths`, at least
// two, all of the same game, encoding and network shape; returns the written model's meta
// (the last model's, step included). Throws azg::Error naming the file that differs,
// and writes nothing, on a missing, damaged or mismatched model.
ModelMeta average_models(const std::vector<std::string>& paths, const std::string& out_path);

}  // namespace azg::nets
