#pragma once
// The network as an MCTS evaluator: encodes a batch of leaves, runs one forward, turns
// the logits of each leaf's legal actions into priors (softmax over the legal ones:
// illegal actions are masked) and passes the value through, or, with a score utility u,
// the leaf utility (1 - u) x value + u x score (networks with a score head). Optional: a
// random symmetry per leaf or the mean over all of them, and a cache of results keyed by
// position hash. No LibTorch in this header.
#include <algorithm>
#include <cmath>
#include <memory>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <vector>

#include "mcts/evaluator.hpp"
#include "nets/inference.hpp"

namespace azg::nets {

struct NnEvaluatorOptions {
  std::optional<bool> random_symmetry;  // unset: the model's own (net.play_symmetry)
  // Each leaf read under every symmetry of the game in one forward, its priors and value
  // the mean of theirs: a steadier estimate for G::kNumSymmetries times the network's work
  // (test-time augmentation). Overrides random_symmetry. Unset: the model's own
  // (net.play_symmetry_mean).
  std::optional<bool> average_symmetries;
  std::size_t cache_entries = 0;        // 0: no cache
  std::optional<double> score_utility;  // in [0, 1]; unset: the model's own (net.score_utility)

  // Positions read as they stand, whatever the model's net.play_symmetry(_mean) says.
  static NnEvaluatorOptions without_symmetry() {
    NnEvaluatorOptions options;
    options.random_symmetry = false;
    options.average_symmetries = false;
    return options;
  }
};

template <Game G>
class NnEvaluator final : public mcts::Evaluator<G> {
 public:
  NnEvaluator(std::shared_ptr<InferenceModel> model, NnEvaluatorOptions options = {})
      : model_(std::move(model)),
        options_(options),
        random_symmetry_(options.random_symmetry.value_or(model_->meta().net.play_symmetry) &&
                         G::kNumSymmetries > 1 && !averages_symmetries(options, *model_)),
        views_(averages_symmetries(options, *model_) ? G::kNumSymmetries : 1),
        score_utility_(
            static_cast<float>(options.score_utility.value_or(model_->meta().net.score_utility))) {
    model_->meta().template check_game<G>("the network");
    if (!(score_utility_ >= 0.0f && score_utility_ <= 1.0f))
      throw Error("score_utility must be in [0, 1]");
    if (score_utility_ > 0 && !model_->has_score())
      throw Error("score_utility needs a network with a score head (net.score_head)");
  }

  void evaluate(mcts::EvalBatch<G>& batch) override {
    const std::size_t n = batch.size();
    if (n == 0) return;
    const int plane_size = G::kPlanes.size();
    std::vector<std::size_t> todo;
    todo.reserve(n);
    for (std::size_t i = 0; i < n; ++i)
      if (!from_cache(batch, i)) todo.push_back(i);
    if (todo.empty()) return;
    // Per-call buffers: several search threads may evaluate at once. Row k x views_ + v
    // holds leaf todo[k] under symmetry v (averaging) or under its one symmetry.
    const std::size_t width = static_cast<std::size_t>(model_->logit_width());
    const std::size_t rows = todo.size() * static_cast<std::size_t>(views_);
    std::vector<float> planes(rows * plane_size), logits_out(rows * width), values(rows);
    std::vector<float> scores(score_utility_ > 0 ? rows : 0);
    std::vector<int> symmetries(rows);
    for (std::size_t k = 0; k < todo.size(); ++k) {
      const std::size_t i = todo[k];
      for (int v = 0; v < views_; ++v) {
        const std::size_t row = k * views_ + v;
        const int s = views_ > 1 ? v
                      : random_symmetry_
                          ? static_cast<int>(Rng(batch.seed(i)).below(G::kNumSymmetries))
                          : 0;
        symmetries[row] = s;
        const std::span<float> out(planes.data() + row * plane_size, plane_size);
        if (s == 0)
          batch.state(i).encode(out);
        else
          batch.state(i).symmetric(s).encode(out);
      }
    }
    model_->run_raw(planes.data(), static_cast<int>(rows), logits_out.data(), values.data(),
                    scores.empty() ? nullptr : scores.data());
    std::vector<float> view_priors;
    for (std::size_t k = 0; k < todo.size(); ++k) {
      const std::size_t i = todo[k];
      const auto priors = batch.priors(i);
      float value = 0.0f;
      for (int v = 0; v < views_; ++v) {
        const std::size_t row = k * views_ + v;
        if (v == 0) {
          decode(batch, i, symmetries[row], logits_out.data() + row * width, priors);
        } else {
          view_priors.resize(priors.size());
          decode(batch, i, symmetries[row], logits_out.data() + row * width, view_priors);
          for (std::size_t a = 0; a < priors.size(); ++a) priors[a] += view_priors[a];
        }
        value += scores.empty()
                     ? values[row]
                     : (1.0f - score_utility_) * values[row] + score_utility_ * scores[row];
      }
      if (views_ > 1)
        for (float& p : priors) p /= static_cast<float>(views_);
      batch.value(i) = value / static_cast<float>(views_);
      to_cache(batch, i);
    }
  }

  std::shared_ptr<InferenceModel> model() const { return model_; }

 private:
  static bool averages_symmetries(const NnEvaluatorOptions& options, const InferenceModel& model) {
    return options.average_symmetries.value_or(model.meta().net.play_symmetry_mean);
  }

  // Leaf i's priors over its legal actions into `priors`, from `logits`, one row of the
  // model's raw output (InferenceModel::logit_columns) read under `symmetry`.
  void decode(const mcts::EvalBatch<G>& batch, std::size_t i, int symmetry, const float* logits,
              std::span<float> priors) const {
    const std::vector<int>& column = model_->logit_columns();
    const G& state = batch.state(i);
    const auto actions = batch.actions(i);
    const G image = symmetry == 0 ? state : state.symmetric(symmetry);
    float max_logit = -1e30f;
    bool any = false;
    for (std::size_t a = 0; a < actions.size(); ++a) {
      const Action mapped =
          symmetry == 0 ? actions[a] : state.symmetric_action(symmetry, actions[a]);
      const int index = image.policy_index(mapped);
      priors[a] = index >= 0 ? logits[column[static_cast<std::size_t>(index)]] : std::nanf("");
      if (index >= 0) {
        max_logit = std::max(max_logit, priors[a]);
        any = true;
      }
    }
    // Actions without an index (outside Lignes' window) get the weakest indexed logit.
    float min_logit = 1e30f;
    for (const float p : priors)
      if (!std::isnan(p)) min_logit = std::min(min_logit, p);
    double sum = 0.0;
    for (float& p : priors) {
      const float logit = std::isnan(p) ? (any ? min_logit : 0.0f) : p;
      p = std::exp(logit - (any ? max_logit : 0.0f));
      sum += p;
    }
    for (float& p : priors) p = static_cast<float>(p / sum);
  }

  bool from_cache(mcts::EvalBatch<G>& batch, std::size_t i) {
    if (options_.cache_entries == 0) return false;
    std::lock_guard lock(cache_mutex_);
    const auto it = cache_.find(batch.state(i).hash());
    if (it == cache_.end() || it->second.priors.size() != batch.priors(i).size()) return false;
    std::copy(it->second.priors.begin(), it->second.priors.end(), batch.priors(i).begin());
    batch.value(i) = it->second.value;
    return true;
  }

  void to_cache(const mcts::EvalBatch<G>& batch, std::size_t i) {
    if (options_.cache_entries == 0) return;
    std::lock_guard lock(cache_mutex_);
    if (cache_.size() >= options_.cache_entries) cache_.clear();  // simple bound on memory
    const auto priors = batch.priors(i);
    cache_[batch.state(i).hash()] = {std::vector<float>(priors.begin(), priors.end()),
                                     batch.value(i)};
  }

  struct Cached {
    std::vector<float> priors;
    float value;
  };

  std::shared_ptr<InferenceModel> model_;
  NnEvaluatorOptions options_;
  bool random_symmetry_;
  int views_;  // rows per leaf: G::kNumSymmetries when averaging, else 1
  float score_utility_;
  std::mutex cache_mutex_;
  std::unordered_map<std::uint64_t, Cached> cache_;
};

}  // namespace azg::nets
