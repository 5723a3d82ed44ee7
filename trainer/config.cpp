#include "trainer/config.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iterator>
#include <limits>
#include <sstream>
#include <variant>

#include "core/error.hpp"
#include "mcts/search_options.hpp"
#include "nets/model_meta.hpp"

namespace azg::trainer {
namespace {

constexpr double kNoLimit = std::numeric_limits<double>::infinity();

template <class T>
struct Field {
  const char* name;
  T TrainConfig::*member;
  T fallback;
  std::string help;
  double min = -kNoLimit, max = kNoLimit;  // numbers: the valid range, checked by validate()
};

// A key that sets a search option (mcts/search_options.hpp): its range and help come from
// there; `what` says which search it sets.
template <class T>
Field<T> search_field(const char* name, T TrainConfig::*member, T fallback, std::string_view option,
                      const std::string& what) {
  const mcts::SearchOption* o = mcts::find_search_option(option);
  return {name, member, fallback, std::string(o->help) + " (" + what + ")", o->min, o->max};
}
// One option of a role's search (mcts/search_options.hpp) as a key: `selfplay.search.sims`,
// `eval.search.gumbel`. Generated from the options table, so every option is open to every
// role, with the table's range and help. `alias` is the key's earlier name, still read.
struct SearchKey {
  std::string name;
  mcts::SearchConfig TrainConfig::*search;
  const mcts::SearchOption* option;
  double fallback;
  std::string help;
  std::string alias;
  double min() const { return option->min; }
  double max() const { return option->max; }
  // A 0/1 option (gumbel, reuse): written true/false like the other switches.
  bool is_switch() const { return option->whole && option->min == 0 && option->max == 1; }
};

using AnyField = std::variant<Field<int>, Field<double>, Field<bool>, Field<std::string>,
                              Field<std::uint64_t>, SearchKey>;

template <class X>
constexpr bool kIsSearchKey = std::is_same_v<std::decay_t<X>, SearchKey>;

// The search roles: what each one's keys are called, what its search does, its defaults
// (the `az` preset with the overrides below) and the earlier names of its keys.
struct SearchRole {
  const char* prefix;
  mcts::SearchConfig TrainConfig::*search;
  const char* what;
  std::vector<std::pair<const char*, double>> defaults;      // option -> value, over the az preset
  std::vector<std::pair<const char*, const char*>> aliases;  // option -> earlier key
};

const std::vector<SearchRole>& search_roles() {
  using C = TrainConfig;
  static const std::vector<SearchRole> roles = {
      {"selfplay.search.",
       &C::selfplay_search,
       "self-play's full searches",
       {{"sims", 48}, {"batch", 2}, {"gumbel", 1}, {"gumbel_k", 8}},
       {{"sims", "selfplay.simulations"},
        {"batch", "selfplay.leaves_per_search"},
        {"cpuct", "selfplay.c_puct"},
        {"fpu", "selfplay.fpu"},
        {"gumbel", "selfplay.gumbel"},
        {"gumbel_k", "selfplay.gumbel_k"},
        {"gumbel_scale", "selfplay.gumbel_scale"},
        {"gumbel_rescale", "selfplay.gumbel_rescale"},
        {"reuse", "selfplay.reuse"}}},
      {"eval.search.",
       &C::eval_search,
       "the network agent in the run's evaluation matches",
       {{"sims", 32}},
       {{"sims", "eval.simulations"}}},
  };
  return roles;
}

std::string name_of(const AnyField& f) {
  return std::visit([](const auto& x) { return std::string(x.name); }, f);
}

// A key for every search option of the role, after the last key of its section (to_yaml
// writes a section's keys under one heading).
void add_search_keys(std::vector<AnyField>& table, const SearchRole& role) {
  const std::string prefix(role.prefix);
  const std::string section = prefix.substr(0, prefix.find('.') + 1);  // "selfplay."
  std::size_t at = table.size();
  for (std::size_t i = 0; i < table.size(); ++i)
    if (name_of(table[i]).rfind(section, 0) == 0) at = i + 1;
  mcts::SearchConfig defaults = mcts::search_preset("az");
  for (const auto& [key, value] : role.defaults)
    mcts::find_search_option(key)->set(defaults, value);
  std::vector<AnyField> keys;
  for (const auto& o : mcts::search_options()) {
    std::string alias;
    for (const auto& [key, old] : role.aliases)
      if (o.spec_key == key) alias = old;
    keys.push_back(SearchKey{
        prefix + std::string(o.spec_key), role.search, &o, o.get(defaults),
        std::string(o.help) + " (" + role.what + ")" + (alias.empty() ? "" : "; was " + alias),
        alias});
  }
  table.insert(table.begin() + static_cast<std::ptrdiff_t>(at), keys.begin(), keys.end());
}

// The one declaration of every configuration key.
const std::vector<AnyField>& fields() {
  using C = TrainConfig;
  static const std::vector<AnyField> table = [] {
    std::vector<AnyField> t = {
        Field<std::string>{"game", &C::game, "imbriqua", "game to train: imbriqua, lignes, ..."},
        Field<std::uint64_t>{"seed", &C::seed, 1,
                             "seed of self-play, sampling and initial weights"},
        Field<std::string>{"device", &C::device, "cpu",
                           "cpu, cuda or auto (cuda needs a CUDA LibTorch build)"},
        Field<std::string>{
            "inference_precision", &C::inference_precision, "auto",
            "self-play network precision: fp32, bf16, fp16 (device cuda only), or auto (fp16 on a "
            "GPU, docs/performance.md#gpu; on CPUs with native bfloat16, the faster of fp32 and "
            "bf16 for this network, timed at start: twice the evaluations/s on some, two thirds "
            "on others; the run's evaluations use bf16 there; "
            "docs/performance.md#self-play-speed)"},
        Field<int>{"torch_threads", &C::torch_threads, 1,
                   "threads LibTorch uses inside one operation (self-play and training already run "
                   "in parallel)",
                   1.0, kNoLimit},
        Field<int>{"run.steps", &C::run_steps, 1000, "training steps to make; the run ends there",
                   1.0, kNoLimit},
        Field<double>{"run.minutes", &C::run_minutes, 12.0,
                      "wall-clock budget in minutes for training (0: none)", 0.0, kNoLimit},
        Field<int>{"run.checkpoint_every", &C::run_checkpoint_every, 100,
                   "training steps between checkpoints", 1.0, kNoLimit},
        Field<int>{"run.log_every", &C::run_log_every, 20, "training steps between metrics lines",
                   1.0, kNoLimit},
        Field<std::string>{
            "run.init_model", &C::run_init_model, "",
            "an exported model (.pt) whose weights start a new run instead of random ones, to go "
            "on training it (its game, encoding and net.* keys must be the run's; the optimizer, "
            "the step count and the schedules start afresh; a resumed run does not read it)"},
        Field<int>{"net.blocks", &C::net_blocks, 3, "residual blocks", 0.0, kNoLimit},
        Field<int>{"net.channels", &C::net_channels, 32, "channels of the tower", 1.0, kNoLimit},
        Field<bool>{"net.global_pooling", &C::net_global_pooling, true,
                    "global-pooling bias in each block"},
        Field<std::string>{"net.value_head", &C::net_value_head, "tanh", "tanh or wdl"},
        Field<int>{"net.value_hidden", &C::net_value_hidden, 32, "hidden units of the value head",
                   1.0, kNoLimit},
        Field<bool>{"net.ownership", &C::net_ownership, false,
                    "an auxiliary head predicting each cell's share of the final score (games with "
                    "ownership(): "
                    "Imbriqua)"},
        Field<bool>{"net.score_head", &C::net_score_head, false,
                    "a score head beside the value head, trained on tanh(final margin / "
                    "train.margin_scale) "
                    "(games decided by points: Imbriqua)"},
        Field<double>{"net.score_utility", &C::net_score_utility, 0.0,
                      "the search's leaf utility (1 - u) x value + u x score, in self-play, "
                      "evaluations and the "
                      "model's agents unless their spec sets score_utility (needs net.score_head)",
                      0.0, 1.0},
        Field<bool>{"net.play_symmetry", &C::net_play_symmetry, false,
                    "the model's agents and the run's evaluations read each leaf under a random "
                    "symmetry of the game (test-time augmentation), unless an agent spec sets "
                    "symmetry=; self-play does not"},
        Field<bool>{"net.play_symmetry_mean", &C::net_play_symmetry_mean, false,
                    "the model's agents and the run's evaluations read each leaf under every "
                    "symmetry of the game and take the mean (az:...,symmetry=all: 2 to 3 times "
                    "the cost of a decision), unless an agent spec sets symmetry=; overrides "
                    "net.play_symmetry; self-play does not"},
        Field<std::string>{"net.policy_head", &C::net_policy_head, "fc",
                           "fc (2 planes and a dense layer), conv (a logit plane per move kind, "
                           "read at the action's "
                           "cell: games with a policy map, the five seed games) or pairs (conv, "
                           "plus the from-cell's features against the to-cell's for a move: "
                           "Imperator, Truchet)"},
        Field<std::string>{"optim.optimizer", &C::optim_optimizer, "sgd",
                           "sgd (with momentum) or adam"},
        Field<double>{"optim.lr", &C::optim_lr, 0.05, "initial learning rate", 1e-12, kNoLimit},
        Field<double>{"optim.lr_final", &C::optim_lr_final, 0.005,
                      "learning rate at the run's end, run.steps or run.minutes, whichever comes "
                      "first (cosine decay)",
                      1e-12, kNoLimit},
        Field<double>{"optim.momentum", &C::optim_momentum, 0.9, "SGD momentum", 0.0, 1.0},
        Field<double>{"optim.weight_decay", &C::optim_weight_decay, 1e-4, "L2 weight decay", 0.0,
                      kNoLimit},
        Field<int>{"train.batch_size", &C::train_batch_size, 128, "positions per training step",
                   1.0, kNoLimit},
        Field<double>{
            "train.reuse", &C::train_reuse, 4.0,
            "cap on samples per new position: steps x batch <= reuse x positions generated", 1e-09,
            kNoLimit},
        Field<int>{"train.min_positions", &C::train_min_positions, 2000,
                   "positions in the buffer before training", 0.0, kNoLimit},
        Field<std::string>{
            "train.precision", &C::train_precision, "auto",
            "training precision: fp32, bf16 (mixed: bfloat16 convolutions and products, float32 "
            "weights), or auto (bf16 where the timed forward chose it on a CPU with native "
            "bfloat16)"},
        Field<int>{"train.publish_every", &C::train_publish_every, 10,
                   "steps between weight updates of self-play", 1.0, kNoLimit},
        Field<double>{
            "train.value_mix", &C::train_value_mix, 0.0,
            "value target = (1 - mix) x game result + mix x the search's root value (noisy games)",
            0.0, 1.0},
        Field<double>{"train.result_discount", &C::train_result_discount, 1.0,
                      "the game's result in a position's value target is multiplied by D^k, k "
                      "the decisions left to the game's end: a win sooner is worth more, so a "
                      "side that is winning anyway still moves towards it (1: off)",
                      0.5, 1.0},
        Field<double>{"train.value_horizon", &C::train_value_horizon, 0.0,
                      "0: train.value_mix blends the root value of the position itself; H > 0: the "
                      "root values "
                      "of the moves ahead, weighted (1 - 1/H)^k, the game's result taking the "
                      "weight past its "
                      "end (KataGo's short-term value targets)",
                      0.0, kNoLimit},
        Field<double>{"train.policy_surprise", &C::train_policy_surprise, 0.0,
                      "share of a game's full-search positions' weight in the replay buffer given "
                      "in proportion "
                      "to their policy surprise, KL(improved policy || prior), the rest evenly; "
                      "weights become "
                      "copies (KataGo's policy-surprise weighting; 0: off)",
                      0.0, 1.0},
        Field<double>{
            "train.evaluation_mix", &C::train_evaluation_mix, 0.0,
            "value target blended with the game's static evaluation of the position by this weight "
            "(the "
            "network learns the evaluation where results are few; games with an evaluation)",
            0.0, 1.0},
        Field<double>{"train.margin_mix", &C::train_margin_mix, 0.0,
                      "share of the value target taken by tanh(final score margin / "
                      "train.margin_scale), for games "
                      "decided by points (Imbriqua)",
                      0.0, 1.0},
        Field<double>{
            "train.draw_progress", &C::train_draw_progress, 0.0,
            "a drawn game's result becomes this share x the game's progress() heuristic at its end "
            "(in [-1, 1], player 0's view; Intercept: the ball's advance), for games whose young "
            "self-play only draws",
            0.0, 1.0},
        Field<std::string>{"train.policy_target", &C::train_policy_target, "visits",
                           "policy target of a PUCT self-play search: visits (the visit shares) or "
                           "improved (Gumbel's "
                           "softmax(log prior + sigma(completed q)), searched values instead of "
                           "echoed priors); a Gumbel "
                           "root always gives the improved policy"},
        Field<std::string>{"train.cap_value", &C::train_cap_value, "draw",
                           "value target of a game cut by the turn cap: draw (0), search (the mean "
                           "root value of its "
                           "last 16 searches, each side's view) or evaluation (the game's static "
                           "evaluation of the "
                           "final position); the time-limit bootstrap of Pardo et al. 2018"},
        Field<double>{"train.margin_scale", &C::train_margin_scale, 4.0,
                      "points of margin that count as a clear win", 1e-09, kNoLimit},
        Field<double>{
            "train.score_weight", &C::train_score_weight, 1.0,
            "weight of the score loss (net.score_head) next to the policy and value losses", 0.0,
            kNoLimit},
        Field<double>{
            "train.ownership_weight", &C::train_ownership_weight, 1.0,
            "weight of the ownership loss (net.ownership) next to the policy and value losses", 0.0,
            kNoLimit},
        Field<int>{"replay.capacity", &C::replay_capacity, 40000,
                   "sliding window: most recent positions kept", 1.0, kNoLimit},
        Field<bool>{"replay.symmetries", &C::replay_symmetries, true,
                    "sample positions under a random symmetry"},
        Field<bool>{"replay.swap_symmetries", &C::replay_swap_symmetries, true,
                    "with replay.symmetries, also the symmetries that exchange the players "
                    "(Truchet's top-bottom flip, Intercept's half-turn, Imperator's); false "
                    "keeps to those that keep them"},
        Field<int>{"selfplay.threads", &C::selfplay_threads, 1, "self-play worker threads", 1.0,
                   kNoLimit},
        Field<int>{"selfplay.max_lead", &C::selfplay_max_lead, 0,
                   "positions self-play may run ahead of what training consumes at train.reuse; "
                   "workers beyond it "
                   "wait, leaving the cores to the learner (0: no limit)",
                   0.0, kNoLimit},
        Field<int>{"selfplay.nice", &C::selfplay_nice, 0,
                   "nice value of the self-play threads (0..19): above 0 the learner thread gets "
                   "the cores first "
                   "whenever it has work, and self-play the rest",
                   0.0, 19.0},
        Field<int>{"selfplay.games_per_thread", &C::selfplay_games_per_thread, 32,
                   "games each worker plays at once", 1.0, kNoLimit},
        Field<int>{"selfplay.simulations_start", &C::selfplay_simulations_start, 0,
                   "simulations of a full self-play search at the run's start, growing linearly to "
                   "selfplay.search.sims at its end (0: selfplay.search.sims throughout)",
                   0.0, 10000000.0},
        search_field<int>("selfplay.cheap_simulations", &C::selfplay_cheap_simulations, 12, "sims",
                          "a cheap self-play search: playout cap randomisation"),
        Field<double>{"selfplay.full_fraction", &C::selfplay_full_fraction, 0.3,
                      "probability that a move gets a full search (and a policy target)", 0.0, 1.0},
        Field<double>{"selfplay.rollout_mix", &C::selfplay_rollout_mix, 0.0,
                      "leaf value = (1 - mix) x network + mix x one random playout's result "
                      "(AlphaGo's mixing)",
                      0.0, 1.0},
        Field<double>{"selfplay.heuristic_mix", &C::selfplay_heuristic_mix, 0.0,
                      "self-play leaves = (1 - w) x the network + w x the heuristic agent (the "
                      "game's static evaluation "
                      "as value, near-equal priors), w at the run's start (a warm start; 0 with "
                      "heuristic_mix_final 0: off)",
                      0.0, 1.0},
        Field<double>{
            "selfplay.heuristic_mix_final", &C::selfplay_heuristic_mix_final, 0.0,
            "w of selfplay.heuristic_mix at the run's end, linear in the run's progress between",
            0.0, 1.0},
        Field<int>{"selfplay.heuristic_playout_turns", &C::selfplay_heuristic_playout_turns, 0,
                   "what selfplay.heuristic_mix mixes in: 0 the static evaluation; K > 0 a random "
                   "playout cut after K "
                   "turns and scored by it (the EPT agent's value, immediate wins taken)",
                   0.0, 1000.0},
        Field<int>{"selfplay.heuristic_playout_decisive", &C::selfplay_heuristic_playout_decisive,
                   1,
                   "inside those playouts: 1 a win one action away is taken, 2 also an action "
                   "that hands the opponent one is avoided (anti-decisive), 0 neither",
                   0.0, 2.0},
        Field<double>{
            "selfplay.archive_share", &C::selfplay_archive_share, 0.0,
            "share of self-play games started from a position of an earlier game (each worker "
            "keeps 512, "
            "favouring positions far from even by the static evaluation; Go-Exploit's start-state "
            "archive; training only, the records keep the actions that led there)",
            0.0, 1.0},
        Field<double>{"selfplay.resign_value", &C::selfplay_resign_value, 0.0,
                      "a player resigns (its loss) once its root value is below -this on two of "
                      "its decisions in "
                      "a row, saving the search of games already decided (AlphaGo Zero; 0: never)",
                      0.0, 0.999},
        Field<double>{
            "selfplay.decided_value", &C::selfplay_decided_value, 0.0,
            "less effort on decided games: once the root value, seen from one side, has stayed at "
            "or above "
            "this on selfplay.decided_decisions decisions in a row, every later search of the game "
            "is a cheap "
            "one (selfplay.cheap_simulations, no policy target); the game is still played to its "
            "end, and "
            "the calls that side did not win are counted (decided_wrong in metrics.jsonl; 0: off)",
            0.0, 0.999},
        Field<int>{"selfplay.decided_decisions", &C::selfplay_decided_decisions, 4,
                   "decisions in a row past selfplay.decided_value that call a game", 1.0, 1000.0},
        Field<double>{"selfplay.resign_playout", &C::selfplay_resign_playout, 0.1,
                      "share of games in which nobody resigns, played out to count the "
                      "resignations that would "
                      "have been wrong (false_resign in metrics.jsonl)",
                      0.0, 1.0},
        Field<double>{"selfplay.dirichlet_total", &C::selfplay_dirichlet_total, 10.0,
                      "root noise alpha x legal actions (PUCT roots)", 0.0, 1000.0},
        Field<double>{"selfplay.noise_fraction", &C::selfplay_noise_fraction, 0.25,
                      "weight of root noise", 0.0, 1.0},
        Field<double>{"selfplay.temperature", &C::selfplay_temperature, 1.0,
                      "move choice temperature early on", 0.0, kNoLimit},
        Field<int>{"selfplay.temperature_moves", &C::selfplay_temperature_moves, 16,
                   "decisions per game played at that temperature, then the best move", 0.0,
                   kNoLimit},
        Field<int>{"selfplay.games_per_file", &C::selfplay_games_per_file, 50,
                   "game records per file in games/", 1.0, kNoLimit},
        Field<int>{"eval.every", &C::eval_every, 250,
                   "training steps between evaluation matches (0: never)", 0.0, kNoLimit},
        Field<int>{"eval.games", &C::eval_games, 6, "games per evaluation match", 0.0, kNoLimit},
        Field<double>{
            "eval.rollout_mix", &C::eval_rollout_mix, 0.0,
            "the network agent's leaf rollout mix in evaluations (as az:...,rollout_mix=)", 0.0,
            1.0},
        Field<double>{"eval.heuristic_mix", &C::eval_heuristic_mix, 0.0,
                      "the network agent's mix with the static evaluation in evaluations (as "
                      "az:...,heuristic_mix=)",
                      0.0, 1.0},
        search_field<int>("eval.baseline_simulations", &C::eval_baseline_simulations, 400, "sims",
                          "the UCT baseline, rollouts"),
        Field<int>{"eval.opening_plies", &C::eval_opening_plies, 0,
                   "random decisions shared by each pair of gate games before the networks play "
                   "(games without chance: "
                   "two deterministic networks would replay one pair of games)",
                   0.0, 100.0},
        Field<std::string>{
            "eval.gate", &C::eval_gate, "score",
            "how a new network becomes best: score (>= 50% against the previous) or sprt"},
        Field<double>{"eval.sprt_elo1", &C::eval_sprt_elo1, 30.0,
                      "sprt gate: Elo gain under H1 (H0: 0)", 1e-09, kNoLimit},
        Field<int>{"eval.sprt_max_games", &C::eval_sprt_max_games, 40,
                   "sprt gate: games before giving up without a decision (the network is then not "
                   "promoted)",
                   2.0, kNoLimit},
        Field<int>{"eval.final_games", &C::eval_final_games, 20,
                   "games per opponent in the final evaluation", 0.0, kNoLimit},
        search_field<int>("eval.final_simulations", &C::eval_final_simulations, 100, "sims",
                          "the final model in the final evaluation"),
    };
    for (const auto& role : search_roles()) add_search_keys(t, role);
    return t;
  }();
  return table;
}

// The key named `name`, or whose earlier name it is.
const AnyField* find_field(const std::string& name) {
  for (const auto& f : fields()) {
    if (name_of(f) == name) return &f;
    if (const auto* k = std::get_if<SearchKey>(&f); k != nullptr && k->alias == name) return &f;
  }
  return nullptr;
}

std::string format_value(const TrainConfig& c, const AnyField& f) {
  return std::visit(
      [&](const auto& x) -> std::string {
        if constexpr (kIsSearchKey<decltype(x)>) {
          const double v = x.option->get(c.*(x.search));
          if (x.is_switch()) return v != 0 ? "true" : "false";
          return mcts::short_number(v);
        } else {
          using T = std::decay_t<decltype(c.*(x.member))>;
          const T& v = c.*(x.member);
          if constexpr (std::is_same_v<T, bool>)
            return v ? "true" : "false";
          else if constexpr (std::is_same_v<T, std::string>)
            return v;
          else if constexpr (std::is_same_v<T, double>)
            return mcts::short_number(v);
          else
            return std::to_string(v);
        }
      },
      f);
}

std::string range_text(double min, double max) {
  if (max == kNoLimit) return "[" + mcts::short_number(min) + ", ...)";
  return "[" + mcts::short_number(min) + ", " + mcts::short_number(max) + "]";
}

void assign(TrainConfig& c, const AnyField& f, const std::string& text, const std::string& where) {
  std::visit(
      [&](const auto& x) {
        auto bad = [&](const char* what) {
          throw Error(where + ": " + std::string(x.name) + " must be " + what + ", got " +
                      quote_input(text));
        };
        if constexpr (kIsSearchKey<decltype(x)>) {
          double v = 0;
          if (x.is_switch() && (text == "true" || text == "false")) {
            v = text == "true" ? 1 : 0;
          } else {
            std::size_t used = 0;
            try {
              v = std::stod(text, &used);
            } catch (const std::exception&) {
              used = 0;
            }
            if (used == 0 || used != text.size()) bad(x.is_switch() ? "true or false" : "a number");
          }
          // Checked before it is stored: the option's field may be an int (1e300 would not fit).
          mcts::check_search_value(*x.option, v, where + ": " + x.name);
          x.option->set(c.*(x.search), v);
          return;
        } else {
          using T = std::decay_t<decltype(c.*(x.member))>;
          if constexpr (std::is_same_v<T, bool>) {
            if (text == "true" || text == "1")
              c.*(x.member) = true;
            else if (text == "false" || text == "0")
              c.*(x.member) = false;
            else
              bad("true or false");
          } else if constexpr (std::is_same_v<T, std::string>) {
            c.*(x.member) = text;
          } else {
            std::size_t used = 0;
            try {
              if constexpr (std::is_same_v<T, int>)
                c.*(x.member) = std::stoi(text, &used);
              else if constexpr (std::is_same_v<T, double>)
                c.*(x.member) = std::stod(text, &used);
              else if (text.find('-') == std::string::npos)
                c.*(x.member) = std::stoull(text, &used);  // stoull wraps "-1"
            } catch (const std::exception&) {
              used = 0;
            }
            if (used == 0 || used != text.size())
              bad(std::is_same_v<T, double> ? "a number" : "an integer");
          }
        }
      },
      f);
}

// yaml-cpp parses nested flow collections by recursion, so "[[[[..." thousands deep
// overflows the stack; a config is two levels deep, and anything past a few is refused
// before parsing. Huge files are refused too.
void check_nesting(const std::string& text, const std::string& source) {
  constexpr std::size_t kMaxBytes = 1 << 20;
  constexpr int kMaxDepth = 16;
  if (text.size() > kMaxBytes)
    throw Error(source + ": a config is at most 1 MiB, this one has " +
                std::to_string(text.size()) + " bytes");
  int depth = 0;
  char quote = 0;
  bool escaped = false;
  for (const char ch : text) {
    if (quote != 0) {
      if (escaped)
        escaped = false;
      else if (quote == '"' && ch == '\\')
        escaped = true;  // \" inside "..." does not end it
      else if (ch == quote)
        quote = 0;
      continue;
    }
    if (ch == '"' || ch == '\'')
      quote = ch;
    else if (ch == '[' || ch == '{')
      ++depth;
    else if ((ch == ']' || ch == '}') && depth > 0)
      --depth;
    if (depth > kMaxDepth)
      throw Error(source + ": nested more than " + std::to_string(kMaxDepth) + " levels deep");
  }
}

// `text` as a YAML double-quoted scalar that reads back as exactly `text`.
std::string yaml_quoted(const std::string& text) {
  std::string q = "\"";
  for (const char ch : text) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      q += '\\';
      q += ch;
    } else if (u < 0x20 || u == 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", u);
      q += escaped;
    } else {
      q += ch;
    }
  }
  return q + "\"";
}

void apply_node(TrainConfig& c, const YAML::Node& node, const std::string& prefix,
                const std::string& path) {
  for (const auto& item : node) {
    if (!item.first.IsScalar()) throw Error(path + ": keys are words, not lists or maps");
    const std::string key = prefix + item.first.Scalar();
    if (item.second.IsMap()) {
      // Keys are at most a few words deep ("selfplay.gumbel_k"): deeper maps are no key.
      if (std::count(key.begin(), key.end(), '.') >= 3)
        throw Error(path + ": unknown key " + quote_input(key));
      apply_node(c, item.second, key + ".", path);
      continue;
    }
    const AnyField* f = find_field(key);
    if (f == nullptr)
      throw Error(path + ": unknown key " + quote_input(key) + " (see azg train --help-config)");
    if (!item.second.IsScalar()) throw Error(path + ": " + key + " must be a single value");
    assign(c, *f, item.second.Scalar(), path);
  }
}

}  // namespace

TrainConfig TrainConfig::defaults() {
  TrainConfig c;
  for (const auto& f : fields())
    std::visit(
        [&](const auto& x) {
          if constexpr (kIsSearchKey<decltype(x)>)
            x.option->set(c.*(x.search), x.fallback);
          else
            c.*(x.member) = x.fallback;
        },
        f);
  return c;
}

TrainConfig TrainConfig::resolve(const std::string& path,
                                 const std::vector<std::string>& overrides) {
  TrainConfig config = defaults();
  if (!path.empty()) config.load_yaml(path);
  for (const auto& o : overrides) config.set(o);
  config.validate();
  return config;
}

void TrainConfig::load_yaml(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read config " + path);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  load_yaml_text(text, path);
}

void TrainConfig::load_yaml_text(const std::string& text, const std::string& source) {
  check_nesting(text, source);
  YAML::Node root;
  try {
    root = YAML::Load(text);
    if (root.IsNull()) return;
    if (!root.IsMap()) throw Error(source + ": a config is a map of keys to values");
    apply_node(*this, root, "", source);
  } catch (const YAML::Exception& e) {
    const std::string line =
        e.mark.line >= 0 ? "line " + std::to_string(e.mark.line + 1) + ": " : "";
    throw Error(source + ": not valid YAML (" + line + e.msg + ")");
  }
}

void TrainConfig::set(const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0)
    throw Error("--set takes KEY=VALUE, got " + quote_input(assignment));
  const std::string key = assignment.substr(0, eq);
  const AnyField* f = find_field(key);
  if (f == nullptr)
    throw Error("--set: unknown key " + quote_input(key) + " (see azg train --help-config)");
  assign(*this, *f, assignment.substr(eq + 1), "--set");
}

void TrainConfig::validate() const {
  // Each number against the range declared with its key (fields() above).
  for (const auto& f : fields())
    std::visit(
        [&](const auto& x) {
          if constexpr (kIsSearchKey<decltype(x)>) {
            mcts::check_search_value(*x.option, x.option->get(this->*(x.search)),
                                     "config: " + x.name);
          } else {
            using T = std::decay_t<decltype(this->*(x.member))>;
            if constexpr (!std::is_same_v<T, std::string> && !std::is_same_v<T, bool>) {
              const double v = static_cast<double>(this->*(x.member));
              if (!(v >= x.min && v <= x.max))
                throw Error(std::string("config: ") + x.name + " must be in " +
                            range_text(x.min, x.max) + ", got " + format_value(*this, f));
            }
          }
        },
        f);
  // The choices among words, and the rules that tie keys together.
  auto require = [](bool ok, const std::string& message) {
    if (!ok) throw Error("config: " + message);
  };
  require(inference_precision == "auto" || inference_precision == "fp32" ||
              inference_precision == "bf16" || inference_precision == "fp16",
          "inference_precision must be fp32, bf16, fp16 (device cuda) or auto");
  require(train_precision == "auto" || train_precision == "fp32" || train_precision == "bf16",
          "train.precision must be fp32, bf16 or auto");
  require(net_value_head == "tanh" || net_value_head == "wdl",
          "net.value_head must be tanh or wdl");
  require(train_policy_target == "visits" || train_policy_target == "improved",
          "train.policy_target must be visits or improved");
  require(
      train_cap_value == "draw" || train_cap_value == "search" || train_cap_value == "evaluation",
      "train.cap_value must be draw, search or evaluation");
  require(train_cap_value == "draw" || train_draw_progress == 0,
          "train.cap_value and train.draw_progress both score capped games: set one of them");
  require(nets::NetConfig::known_policy_head(net_policy_head),
          "net.policy_head must be " + nets::NetConfig::policy_head_choices());
  require(optim_optimizer == "sgd" || optim_optimizer == "adam",
          "optim.optimizer must be sgd or adam");
  require(eval_gate == "score" || eval_gate == "sprt", "eval.gate must be score or sprt");
  require(train_value_mix + train_margin_mix + train_evaluation_mix <= 1,
          "train.value_mix + train.margin_mix + train.evaluation_mix must be at most 1");
  require(net_score_utility == 0 || net_score_head, "net.score_utility needs net.score_head");
  require(
      selfplay_simulations_start <= selfplay_search.simulations,
      "selfplay.simulations_start must be at most selfplay.search.sims (the count grows to it)");
  require(
      selfplay_resign_value == 0 || (!net_ownership && !net_score_head && train_margin_mix == 0),
      "selfplay.resign_value needs net.ownership and net.score_head off and train.margin_mix 0 "
      "(their "
      "targets need the game's final position, which a resigned game does not reach)");
  require(selfplay_heuristic_playout_turns == 0 || selfplay_heuristic_mix > 0 ||
              selfplay_heuristic_mix_final > 0,
          "selfplay.heuristic_playout_turns needs selfplay.heuristic_mix or heuristic_mix_final "
          "above 0");
  require(replay_capacity >= train_batch_size, "replay.capacity must hold at least one batch");
  require(selfplay_max_lead == 0 || selfplay_max_lead * train_reuse >= train_batch_size,
          "selfplay.max_lead must be 0 or hold at least train.batch_size / train.reuse positions");
}

std::string TrainConfig::to_yaml(bool with_help) const {
  std::ostringstream out;
  std::string section;
  for (const auto& f : fields()) {
    const std::string name = name_of(f);
    const auto dot = name.find('.');
    const std::string head = dot == std::string::npos ? "" : name.substr(0, dot);
    if (head != section) {
      section = head;
      if (!head.empty()) out << head << ":\n";
    }
    const std::string key = dot == std::string::npos ? name : "  " + name.substr(dot + 1);
    const std::string value = format_value(*this, f);
    out << key << ": "
        << (std::holds_alternative<Field<std::string>>(f) ? yaml_quoted(value) : value);
    if (with_help)
      out << "  # " << std::visit([](const auto& x) { return std::string(x.help); }, f);
    out << '\n';
  }
  return out.str();
}

std::string TrainConfig::hash() const {
  const std::string text = to_yaml(false);
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
  std::ostringstream s;
  s << std::hex << std::setw(16) << std::setfill('0') << h;
  return s.str();
}

std::string config_reference() {
  std::ostringstream out;
  const TrainConfig d = TrainConfig::defaults();
  for (const auto& f : fields())
    std::visit(
        [&](const auto& x) {
          out << x.name << " (" << format_value(d, f);
          if constexpr (kIsSearchKey<decltype(x)>) {
            if (!x.is_switch()) out << "; " << range_text(x.min(), x.max());
          } else if (x.min != -kNoLimit) {
            out << "; " << range_text(x.min, x.max);
          }
          out << "): " << x.help << '\n';
        },
        f);
  return out.str();
}

}  // namespace azg::trainer
