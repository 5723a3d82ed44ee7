#pragma once
// The training configuration. Every key is declared once, in config.cpp's table (name,
// default, help, and the field it sets); YAML files, --set overrides, --print-config
// and the run directory's config.yaml all come from that table. Unknown keys are errors.
#include <cstdint>
#include <string>
#include <vector>

#include "mcts/search.hpp"

namespace azg::trainer {

struct TrainConfig {
  std::string game;
  std::uint64_t seed;
  std::string device;
  std::string inference_precision;
  std::string train_precision;
  int torch_threads;
  // run
  int run_steps;
  double run_minutes;
  int run_checkpoint_every;
  int run_log_every;
  std::string run_init_model;  // an exported model whose weights start a new run, or empty
  // network
  int net_blocks;
  int net_channels;
  bool net_global_pooling;
  std::string net_value_head;
  int net_value_hidden;
  bool net_ownership;
  bool net_score_head;
  double net_score_utility;
  bool net_play_symmetry;
  bool net_play_symmetry_mean;
  std::string net_policy_head;
  // optimizer
  std::string optim_optimizer;
  double optim_lr;
  double optim_lr_final;
  double optim_momentum;
  double optim_weight_decay;
  // training
  int train_batch_size;
  double train_reuse;
  int train_min_positions;
  int train_publish_every;
  double train_value_mix;
  double train_value_horizon;
  double train_result_discount;
  double train_policy_surprise;
  double train_margin_mix;
  double train_evaluation_mix;
  double train_draw_progress;
  std::string train_cap_value;
  std::string train_policy_target;
  double train_margin_scale;
  double train_ownership_weight;
  double train_score_weight;
  // replay buffer
  int replay_capacity;
  bool replay_symmetries;
  bool replay_swap_symmetries;
  // self-play
  int selfplay_threads;
  int selfplay_games_per_thread;
  int selfplay_max_lead;
  int selfplay_nice;
  // Self-play's full searches: every option of mcts/search_options.hpp, keys
  // selfplay.search.<option> (sims, cpuct, fpu, batch, gumbel, ...).
  mcts::SearchConfig selfplay_search;
  int selfplay_simulations_start;
  int selfplay_cheap_simulations;
  double selfplay_full_fraction;
  double selfplay_rollout_mix;
  double selfplay_heuristic_mix;
  double selfplay_heuristic_mix_final;
  int selfplay_heuristic_playout_turns;
  int selfplay_heuristic_playout_decisive;
  double selfplay_archive_share;
  double selfplay_resign_value;
  double selfplay_decided_value;
  int selfplay_decided_decisions;
  double selfplay_resign_playout;
  double selfplay_dirichlet_total;
  double selfplay_noise_fraction;
  double selfplay_temperature;
  int selfplay_temperature_moves;
  int selfplay_games_per_file;
  // evaluation
  int eval_every;
  int eval_games;
  // The network agent of the run's evaluation matches: keys eval.search.<option>.
  mcts::SearchConfig eval_search;
  double eval_rollout_mix;
  double eval_heuristic_mix;
  int eval_baseline_simulations;
  int eval_final_games;
  int eval_final_simulations;
  int eval_opening_plies;
  std::string eval_gate;
  double eval_sprt_elo1;
  int eval_sprt_max_games;

  // The defaults of the table.
  static TrainConfig defaults();
  // The defaults, then the YAML file (when `path` is not empty), then the KEY=VALUE
  // overrides, validated: how `azg train`, `azg actor` and `azg learner` read a config.
  static TrainConfig resolve(const std::string& path, const std::vector<std::string>& overrides);
  // Applies a YAML file (nested maps or dotted keys); throws azg::Error naming the file
  // and the key on unknown keys, bad types or bad values.
  void load_yaml(const std::string& path);
  // The same from the text of a file; `source` names it in errors.
  void load_yaml_text(const std::string& text, const std::string& source);
  // Applies one KEY=VALUE override.
  void set(const std::string& assignment);
  // Throws azg::Error when values are out of range.
  void validate() const;
  // Every key with its value, as YAML (with the help as comments when `with_help`).
  std::string to_yaml(bool with_help) const;
  // A short stable hash of to_yaml(false), recorded in models.
  std::string hash() const;
};

// Help for every key, one line each: "key (default): help".
std::string config_reference();

}  // namespace azg::trainer
