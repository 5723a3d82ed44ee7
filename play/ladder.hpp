#pragma once
// The strength ladder: one scale for every game. Agents play a fixed ladder of UCT
// baselines (rollout MCTS at 100, 400, 1600, 6400 simulations by default) on paired games;
// neighbouring rungs also play each other, so one Elo fit places everything on a scale
// where UCT-400 is 0 for every game and every run. Rung-against-rung results depend only
// on the game, the rungs, the number of games and the seed, so they are kept in a
// calibration file and played once.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "play/paired_games.hpp"

namespace azg::play {

// One rung: an agent of a fixed strength. Families (parse_rungs): uct (rollout MCTS,
// "UCT-400"), heur (MCTS on the static evaluation, "HEUR-400"), ept (MCTS on playouts cut
// after 4 turns, "EPT-400"), ab (alpha-beta, depth in decisions, "AB-3"), model (a frozen
// network committed under models/ladder/, "lignes-a@100").
struct Rung {
  std::string name, spec;
  std::uint64_t luck_key = 0;  // the setups and chance draws every agent meets this rung with
  std::string identity;        // what the calibration keys: the name, and a model file's checksum
  bool operator==(const Rung&) const = default;
};

// A game's own ladder, used when --rungs is omitted; written down once, in ladder.cpp, and
// measured in docs/ladder.md. Games without chance open each couple of games with random
// plies, or deterministic rungs (alpha-beta) would replay one couple.
struct GameLadder {
  std::string rungs;
  int opening_plies = 0;
};
GameLadder default_ladder(std::string_view game);

// Called as each pairing ends: the two names, a's points and the games. A ladder stopped
// after hours has its finished agent pairings in the log, not only its rung pairings.
using PairingDone =
    std::function<void(const std::string& a, const std::string& b, double points, int games)>;

struct LadderOptions {
  std::vector<Rung>
      rungs;        // in order of strength; UCT-400 among them; empty: the game's default ladder
  int games = 100;  // paired games per pairing (rounded up to even)
  // Paired games per agent pairing (rounded up to even); 0: `games`. A table whose rungs
  // need 400 games a pairing for their intervals can place a model on 200 a rung.
  int agent_games = 0;
  int threads = 1;
  std::uint64_t seed = 1;
  int opening_plies = -1;        // random plies opening each couple; -1: the game's default
  bool round_robin = false;      // every rung against every other, not only its neighbours
  std::string calibration_file;  // rung-against-rung results; "" = default_calibration_file(game)
  GameDone on_game;              // hears of each game played (not those the calibration holds)
  PairingDone on_pairing;        // hears of each pairing played, as it ends
};

// $AZG_CACHE_DIR/ladder-<game>.json, else $XDG_CACHE_HOME/azg/..., else ~/.cache/azg/...
std::string default_calibration_file(const std::string& game);
// "uct:100,400,1600 ab:1,2,3 heur:400,1600": families separated by spaces, each with its
// sizes increasing; a plain list ("100,400,1600") is UCT. UCT-400 must be among them (the
// scale's zero). Neighbouring rungs are neighbours in this order. "model:NAME@SIMS,..."
// names frozen networks (ladder_model_path), at 100 simulations without @SIMS; their
// files are read for a checksum. Throws azg::Error.
std::vector<Rung> parse_rungs(const std::string& text);
Rung uct_rung(int sims);
// NAME as a path when it ends in .pt, else models/ladder/NAME.pt under the current folder
// or the source tree azg was built from. Throws azg::Error when there is none.
std::string ladder_model_path(const std::string& name);

// One pairing's result: points of a against b.
struct PairingResult {
  int a = 0, b = 0;
  double points = 0;
  int games = 0;
  bool cached = false;    // read whole from the calibration file
  int earlier_games = 0;  // its first games read from the file, the rest played now
};

struct LadderResult {
  std::string game;
  std::vector<std::string> names, specs;  // the rungs first, then the agents
  int rungs = 0;                          // names[0..rungs) are the rungs
  int anchor = 0;                         // UCT-400
  int games = 0, seed = 0;
  int agent_games = 0;  // paired games per agent pairing (games unless told otherwise)
  std::vector<PairingResult> pairings;
  EloFit fit;
  int opening_plies = 0;
  std::string calibration_file, calibration_error;  // the error when it could not be saved

  // Points and games of agent i (an index into names) against rung r, if they met.
  const PairingResult* against(int i, int r) const;
  // The index of `name` in names, or -1.
  int index_of(const std::string& name) const;
};

// Calibration file: read the stored rung pairings (absent file = none), and store new ones.
class LadderCalibration {
 public:
  explicit LadderCalibration(std::string path);
  // a and b are rung identities; opening plies are keyed when there are any.
  const PairingResult* find(const std::string& a, const std::string& b, int games,
                            std::uint64_t seed, int opening_plies = 0) const;
  // The same pairing (rungs, seed, openings) stored with the most games under `games`, or
  // nullptr: its games are the first of the longer pairing's, which need only the rest.
  const PairingResult* find_shorter(const std::string& a, const std::string& b, int games,
                                    std::uint64_t seed, int opening_plies = 0) const;
  void store(const std::string& a, const std::string& b, int games, std::uint64_t seed,
             double points, int opening_plies = 0);
  // Writes the file atomically; returns "" or why it could not (the cache is optional).
  std::string save() const;

 private:
  std::string key(const std::string& a, const std::string& b, int games, std::uint64_t seed,
                  int opening_plies) const;
  std::string path_;
  std::vector<std::pair<std::string, PairingResult>> entries_;
};

// "32.5 of 200 points (16.2%)": a pairing's score for its first agent.
std::string pairing_score_text(double points, int games);

// The fit over every pairing, anchored on UCT-400.
void fit_ladder(LadderResult& result);
void print_ladder(const LadderResult& result, std::ostream& out);
// ladder.json, ladder.csv and ladder.svg in `dir`.
void write_ladder(const LadderResult& result, const std::string& dir);

// The rung pairings a ladder plays: neighbours, or every pair with round_robin. Each
// pairing has its own luck key (a neighbour pairing keeps the one it always had).
std::vector<std::pair<int, int>> rung_pairings(int rungs, bool round_robin);
std::uint64_t rung_pairing_key(const std::vector<Rung>& rungs, int a, int b);

// Plays each agent against every rung, and the neighbouring rungs (every rung pair with
// round_robin) against each other where the calibration file does not hold them yet. Agent
// i against rung r sees the same setups and chance draws for every agent (a luck key per
// rung), so two models rated on one ladder meet the same positions.
template <Game G>
LadderResult run_ladder(const std::vector<NamedAgent>& agents, const LadderOptions& given) {
  LadderOptions options = given;
  const GameLadder own = default_ladder(G::kName);
  if (options.rungs.empty()) options.rungs = parse_rungs(own.rungs);
  if (options.opening_plies < 0) options.opening_plies = own.opening_plies;
  if (options.games < 1 || options.threads < 1 || options.agent_games < 0)
    throw Error("--games and --threads must be positive, --agent-games not negative");
  if (options.opening_plies > 100) throw Error("--opening-plies must be in 0..100");
  LadderResult result;
  result.game = std::string(G::kName);
  result.games = options.games + options.games % 2;
  result.agent_games =
      options.agent_games > 0 ? options.agent_games + options.agent_games % 2 : result.games;
  result.seed = static_cast<int>(options.seed);
  result.opening_plies = options.opening_plies;
  std::vector<NamedAgent> all;
  for (const Rung& r : options.rungs) all.push_back({r.name, mcts::parse_agent_spec(r.spec)});
  result.rungs = static_cast<int>(all.size());
  for (const auto& a : agents) {
    for (const auto& r : all)
      if (a.name == r.name)
        throw Error("an agent may not be named like a rung (" + quote_input(a.name) + ")");
    all.push_back(a);
  }
  for (const auto& a : all) {
    result.names.push_back(a.name);
    result.specs.push_back(a.spec.text);
  }
  result.anchor = result.index_of(uct_rung(400).name);
  if (result.anchor < 0)
    throw Error("the ladder's rungs must include 400 (UCT-400 is the scale's zero)");
  result.calibration_file = options.calibration_file.empty() ? default_calibration_file(result.game)
                                                             : options.calibration_file;
  LadderCalibration calibration(result.calibration_file);
  const auto& rungs = options.rungs;
  // The rung pairings still to play, each with what the file holds of its first games.
  struct ToPlay {
    int a, b;
    PairingResult earlier;
  };
  std::vector<ToPlay> rung_pairs;
  for (const auto& [a, b] : rung_pairings(result.rungs, options.round_robin)) {
    const std::string &ia = rungs[a].identity, &ib = rungs[b].identity;
    if (const auto* known =
            calibration.find(ia, ib, result.games, options.seed, options.opening_plies)) {
      PairingResult p = *known;
      p.a = a;
      p.b = b;
      p.cached = true;
      result.pairings.push_back(p);
      continue;
    }
    const auto* shorter =
        calibration.find_shorter(ia, ib, result.games, options.seed, options.opening_plies);
    rung_pairs.push_back({a, b, shorter ? *shorter : PairingResult{}});
  }
  const auto factories = factories_of<G>(all);
  const std::size_t agent_pairings = (all.size() - rungs.size()) * rungs.size();
  std::size_t total = agent_pairings * result.agent_games;
  for (const auto& p : rung_pairs) total += result.games - p.earlier.games;
  std::size_t played_before = 0;
  // Pairings one at a time, rung pairings saved as each ends and every pairing told to
  // on_pairing: a ladder stopped after hours keeps the pairings it finished. Their games are
  // those played beside others (each pairing has its own luck key; a network may differ in
  // its sums' last bits with the batch). Neighbours go first, so a stopped ladder has what
  // its checks read first.
  auto play_one = [&](int a, int b, int games, std::uint64_t key, const PairingResult& earlier) {
    GameDone progress;
    if (options.on_game)
      progress = [&, offset = played_before](std::size_t done, std::size_t) {
        options.on_game(offset + done, total);
      };
    const auto played =
        play_pairs<G>(factories, {{a, b}}, games - earlier.games, options.threads, options.seed,
                      {key}, options.opening_plies, progress, earlier.games);
    played_before += played.size();
    PairingResult pr{a, b, earlier.points, earlier.games, false, earlier.games};
    for (const auto& game : played) {
      pr.points += game.points_of(a);
      ++pr.games;
    }
    if (options.on_pairing) options.on_pairing(all[a].name, all[b].name, pr.points, pr.games);
    result.pairings.push_back(pr);
    return pr;
  };
  std::stable_sort(rung_pairs.begin(), rung_pairs.end(),
                   [](const auto& x, const auto& y) { return x.b - x.a < y.b - y.a; });
  for (const auto& [a, b, earlier] : rung_pairs) {
    const PairingResult pr = play_one(a, b, result.games, rung_pairing_key(rungs, a, b), earlier);
    calibration.store(rungs[pr.a].identity, rungs[pr.b].identity, result.games, options.seed,
                      pr.points, options.opening_plies);
    if (std::string error = calibration.save(); !error.empty()) result.calibration_error = error;
  }
  // Agent i meets rung r with the rung's luck key: every agent sees the same games.
  for (int i = result.rungs; i < static_cast<int>(all.size()); ++i)
    for (int r = 0; r < result.rungs; ++r)
      play_one(i, r, result.agent_games, rungs[static_cast<std::size_t>(r)].luck_key,
               PairingResult{});
  fit_ladder(result);
  return result;
}

}  // namespace azg::play
