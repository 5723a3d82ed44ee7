#include "play/ladder.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/byte_io.hpp"
#include "core/json_number.hpp"
#include "play/project_files.hpp"

namespace azg::play {

namespace {
// Bump when the UCT baseline's play changes (search, rollouts, defaults): stored rung
// results of an older baseline are then ignored.
constexpr int kBaselineVersion = 1;

std::string percent_of(double points, int games) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(1) << 100.0 * points / games << "%";
  return s.str();
}

std::string score_percent(const PairingResult& p, bool for_a) {
  return percent_of(for_a ? p.points : p.games - p.points, p.games);
}
}  // namespace

std::string pairing_score_text(double points, int games) {
  std::ostringstream s;
  s << std::defaultfloat << points << " of " << games << " points (" << percent_of(points, games)
    << ")";
  return s.str();
}

std::string default_calibration_file(const std::string& game) {
  std::string dir;
  if (const char* d = std::getenv("AZG_CACHE_DIR"); d && *d)
    dir = d;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    dir = std::string(x) + "/azg";
  else if (const char* h = std::getenv("HOME"); h && *h)
    dir = std::string(h) + "/.cache/azg";
  else
    dir = ".azg-cache";
  return dir + "/ladder-" + game + ".json";
}

namespace {

struct RungFamily {
  std::string_view key, prefix;
  std::string_view size_name;
  long max;
  std::string (*spec)(long size);
};

const std::array<RungFamily, 4>& rung_families() {
  static const std::array<RungFamily, 4> families = {{
      {"uct", "UCT-", "a simulation count", 1000000,
       [](long n) { return "mcts:sims=" + std::to_string(n); }},
      {"heur", "HEUR-", "a simulation count", 1000000,
       [](long n) { return "mcts:sims=" + std::to_string(n) + ",evaluator=heuristic"; }},
      {"ept", "EPT-", "a simulation count", 1000000,
       [](long n) { return "mcts:sims=" + std::to_string(n) + ",evaluator=ept,playout_turns=4"; }},
      {"ab", "AB-", "a depth", 64, [](long n) { return "ab:depth=" + std::to_string(n); }},
  }};
  return families;
}

// "NAME" or "NAME@SIMS": a frozen network at a fixed number of simulations. Its identity
// carries the file's checksum, so a replaced file never reuses the old file's results.
Rung model_rung(const std::string& item) {
  const auto at = item.find('@');
  const std::string name = item.substr(0, at);
  long sims = 100;
  if (at != std::string::npos) {
    std::size_t used = 0;
    try {
      sims = std::stol(item.substr(at + 1), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != item.size() - at - 1 || sims < 1 || sims > 1000000)
      throw Error("--rungs: " + quote_input(item) +
                  " is not NAME@SIMS with SIMS in 1..1000000 for model");
  }
  if (name.empty() || name.find_first_of(",=: ") != std::string::npos)
    throw Error("--rungs: " + quote_input(item) +
                " is not a model name (no ',', '=', ':' or spaces)");
  const std::string path = ladder_model_path(name);
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in && !in.eof()) throw Error("model rung " + quote_input(name) + ": cannot read " + path);
  const std::string stem = std::filesystem::path(name).stem().string();
  Rung r{stem + "@" + std::to_string(sims), "az:model=" + path + ",sims=" + std::to_string(sims), 0,
         ""};
  std::ostringstream id;
  id << r.name << " #" << std::hex << fnv1a64(bytes);
  r.identity = id.str();
  return r;
}

}  // namespace

Rung uct_rung(int sims) {
  // UCT rungs keep their simulation count as their luck key, as before families existed,
  // so their calibration and every earlier ladder figure stay comparable.
  const std::string name = "UCT-" + std::to_string(sims);
  return {name, "mcts:sims=" + std::to_string(sims), static_cast<std::uint64_t>(sims), name};
}

GameLadder default_ladder(std::string_view game) {
  // Each game's rungs, weakest first, chosen and measured in docs/ladder.md: neighbours
  // differ clearly, the top beats the bottom, and the top still takes points from the
  // game's best model.
  constexpr const char* kUct = "uct:100,400,1600,6400";  // Imbriqua's, and any other game's
  if (game == "imbriqua") return {kUct, 0};
  // AB-5 sits between AB-4 and AB-6 on Lignes since 2026-12-05: without it nothing took
  // more than 9.4% from AB-6, whose Elo was then ±77 (±65 at 400 games a pairing).
  if (game == "lignes") return {"uct:100,400,1600 ab:3,4,5,6", 4};
  // HEUR-6400 sits between HEUR-1600 and AB-4 on Imperator since 2026-12-03: without it
  // nothing took more than 3.5% from AB-4, and AB-4 and AB-5 were at ±115 and ±118
  // (±57 and ±59 with it, at 400 games a pairing).
  if (game == "imperator") return {"uct:400 heur:400,1600,6400 ab:4,5", 4};
  // AB-4 sits between AB-3 and AB-5 on Truchet since 2026-12-03: without it nothing took
  // more than 4.5% from AB-5, whose Elo was then ±82.
  if (game == "truchet") return {"uct:400 ept:400 ab:3,4,5", 0};
  // Intercept's top rung is a frozen network (models/ladder/README.md): the rungs on the
  // evaluation alone stop below its best models.
  if (game == "intercept") return {"uct:400 heur:100,400 ab:2 model:intercept-2h@400", 4};
  return {kUct, 0};
}

std::string ladder_model_path(const std::string& name) {
  namespace fs = std::filesystem;
  const auto usable = [](const fs::path& p) {
    std::error_code ec;
    return fs::is_regular_file(p, ec);
  };
  if (name.size() > 3 && name.ends_with(".pt")) {
    if (!usable(name)) throw Error("model rung " + quote_input(name) + ": no such file");
    return name;
  }
  const std::string relative = (fs::path("models") / "ladder" / (name + ".pt")).string();
  if (auto found = find_project_file(relative)) return *found;
  throw Error("model rung " + quote_input(name) + ": no " + relative +
              " in the current folder or the source tree azg was built from");
}

std::vector<Rung> parse_rungs(const std::string& text) {
  std::vector<Rung> rungs;
  std::stringstream words(text);
  for (std::string word; words >> word;) {
    const auto colon = word.find(':');
    const std::string family_key = colon == std::string::npos ? "uct" : word.substr(0, colon);
    const std::string sizes = colon == std::string::npos ? word : word.substr(colon + 1);
    const RungFamily* family = nullptr;
    for (const auto& f : rung_families())
      if (f.key == family_key) family = &f;
    if (!family && family_key != "model")
      throw Error("--rungs: unknown family " + quote_input(family_key) +
                  " (known: uct, heur, ept, ab, model)");
    long previous = 0;  // the family's last size (model rungs: 1 once there is one)
    std::stringstream in(sizes);
    for (std::string item; std::getline(in, item, ',');) {
      Rung r;
      if (!family) {  // model rungs come in the order given
        r = model_rung(item);
        previous = 1;
      } else {
        std::size_t used = 0;
        long v = 0;
        try {
          v = std::stol(item, &used);
        } catch (const std::exception&) {
          used = 0;
        }
        if (used == 0 || used != item.size() || v < 1 || v > family->max)
          throw Error("--rungs: " + quote_input(item) + " is not " +
                      std::string(family->size_name) + " in 1.." + std::to_string(family->max) +
                      " for " + std::string(family->key));
        if (v <= previous)
          throw Error("--rungs: the sizes of a family must increase, got " + quote_input(word));
        previous = v;
        r = family->key == "uct"
                ? uct_rung(static_cast<int>(v))
                : Rung{std::string(family->prefix) + std::to_string(v), family->spec(v), 0, ""};
      }
      if (r.identity.empty()) r.identity = r.name;
      if (r.luck_key == 0) r.luck_key = 0x9e3779b97f4a7c15ull ^ std::hash<std::string>{}(r.name);
      for (const Rung& seen : rungs)
        if (seen.name == r.name)
          throw Error("--rungs: " + r.name + " appears twice in " + quote_input(text));
      rungs.push_back(r);
    }
    if (previous == 0) throw Error("--rungs: " + quote_input(word) + " has no sizes");
  }
  if (rungs.empty()) throw Error("--rungs: no rungs in " + quote_input(text));
  bool has_anchor = false;
  for (const Rung& r : rungs) has_anchor |= r.name == uct_rung(400).name;
  if (!has_anchor)
    throw Error("--rungs must include UCT-400 (the scale's zero), got " + quote_input(text));
  return rungs;
}

std::vector<std::pair<int, int>> rung_pairings(int rungs, bool round_robin) {
  std::vector<std::pair<int, int>> pairs;
  for (int a = 0; a < rungs; ++a)
    for (int b = a + 1; b < rungs && (round_robin || b == a + 1); ++b) pairs.push_back({a, b});
  return pairs;
}

std::uint64_t rung_pairing_key(const std::vector<Rung>& rungs, int a, int b) {
  if (b == a + 1) return 1000 + static_cast<std::uint64_t>(a);
  return 0x726f756e64726f62ull ^ std::hash<std::string>{}(rungs[a].name + " vs " + rungs[b].name);
}

const PairingResult* LadderResult::against(int i, int r) const {
  for (const auto& p : pairings)
    if ((p.a == i && p.b == r) || (p.a == r && p.b == i)) return &p;
  return nullptr;
}

int LadderResult::index_of(const std::string& name) const {
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == name) return static_cast<int>(i);
  return -1;
}

LadderCalibration::LadderCalibration(std::string path) : path_(std::move(path)) {
  std::ifstream in(path_);
  if (!in) return;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& e : j.at("pairings")) {
      PairingResult p;
      p.points = json_real(e.at("points"), "points", 0, 1e9);
      p.games = static_cast<int>(json_whole(e.at("games"), "games", 0, 1000000000));
      entries_.push_back({e.at("key").get<std::string>(), p});
    }
  } catch (const std::exception&) {
    entries_.clear();  // a damaged cache is replayed, never trusted
  }
}

std::string LadderCalibration::key(const std::string& a, const std::string& b, int games,
                                   std::uint64_t seed, int opening_plies) const {
  return a + " vs " + b + ", " + std::to_string(games) + " games, seed " + std::to_string(seed) +
         (opening_plies > 0 ? ", " + std::to_string(opening_plies) + " opening plies" : "") +
         ", baseline v" + std::to_string(kBaselineVersion);
}

const PairingResult* LadderCalibration::find(const std::string& a, const std::string& b, int games,
                                             std::uint64_t seed, int opening_plies) const {
  const std::string k = key(a, b, games, seed, opening_plies);
  for (const auto& [name, p] : entries_)
    if (name == k) return &p;
  return nullptr;
}

const PairingResult* LadderCalibration::find_shorter(const std::string& a, const std::string& b,
                                                     int games, std::uint64_t seed,
                                                     int opening_plies) const {
  const PairingResult* best = nullptr;
  for (const auto& [name, p] : entries_)
    if (p.games > 0 && p.games % 2 == 0 && p.games < games && (!best || p.games > best->games) &&
        name == key(a, b, p.games, seed, opening_plies))
      best = &p;
  return best;
}

void LadderCalibration::store(const std::string& a, const std::string& b, int games,
                              std::uint64_t seed, double points, int opening_plies) {
  PairingResult p;
  p.points = points;
  p.games = games;
  entries_.push_back({key(a, b, games, seed, opening_plies), p});
}

std::string LadderCalibration::save() const {
  nlohmann::json j = {{"what", "azg ladder: results of rungs against each other"},
                      {"pairings", nlohmann::json::array()}};
  for (const auto& [k, p] : entries_)
    j["pairings"].push_back({{"key", k}, {"points", p.points}, {"games", p.games}});
  try {
    const auto dir = std::filesystem::path(path_).parent_path();
    if (!dir.empty()) std::filesystem::create_directories(dir);
    write_text_atomically(path_, j.dump(2) + "\n");
  } catch (const std::exception& e) {
    return "could not save the ladder calibration to " + path_ + ": " + e.what();
  }
  return "";
}

void fit_ladder(LadderResult& result) {
  std::vector<PairScore> scores;
  for (const auto& p : result.pairings) scores.push_back({p.a, p.b, p.points, p.games});
  result.fit = fit_elo(static_cast<int>(result.names.size()), scores, result.anchor);
}

void print_ladder(const LadderResult& result, std::ostream& out) {
  const int n = static_cast<int>(result.names.size());
  std::size_t width = 8;
  for (const auto& name : result.names) width = std::max(width, name.size());
  out << result.game << " ladder: " << result.games << " paired games per pairing";
  if (result.agent_games != result.games && result.names.size() > std::size_t(result.rungs))
    out << ", " << result.agent_games << " per agent pairing";
  out << " (seed " << result.seed;
  if (result.opening_plies > 0) out << ", " << result.opening_plies << " random opening plies";
  out << "), Elo anchored on UCT-400 (95% intervals)\n";
  out << std::left << std::setw(static_cast<int>(width) + 2) << "agent" << std::right
      << std::setw(7) << "elo" << std::setw(6) << "+/-";
  // A rung's column is as wide as its name (a model rung's is long), and a space apart.
  std::vector<int> column(static_cast<std::size_t>(result.rungs));
  for (int r = 0; r < result.rungs; ++r) {
    column[r] = std::max<int>(9, static_cast<int>(result.names[r].size())) + 1;
    out << std::setw(column[r]) << result.names[r];
  }
  out << '\n';
  for (int i = 0; i < n; ++i) {
    out << std::left << std::setw(static_cast<int>(width) + 2) << result.names[i] << std::right
        << std::showpos << std::fixed << std::setprecision(0) << std::setw(7) << result.fit.elo[i]
        << std::noshowpos << std::setw(6);
    if (i == result.anchor)
      out << "-";
    else
      out << result.fit.interval[i];
    for (int r = 0; r < result.rungs; ++r) {
      const PairingResult* p = i == r ? nullptr : result.against(i, r);
      out << std::setw(column[r]) << (p ? score_percent(*p, p->a == i) : "");
    }
    out << '\n';
  }
  int cached = 0, extended = 0;
  for (const auto& p : result.pairings) {
    cached += p.cached;
    extended += p.earlier_games > 0;
  }
  out << "scores are the row's against each rung; rung against rung: "
      << (cached ? std::to_string(cached) + " pairing(s) from " + result.calibration_file
                 : "played now");
  if (extended)
    out << "; " << extended << " pairing(s) extended: their first games from "
        << result.calibration_file << ", the rest played now";
  out << '\n';
  if (!result.calibration_error.empty()) out << "note: " << result.calibration_error << '\n';
}

void write_ladder(const LadderResult& result, const std::string& dir) {
  std::filesystem::create_directories(dir);
  nlohmann::json j = {{"game", result.game},
                      {"anchor", result.names[result.anchor]},
                      {"games_per_pairing", result.games},
                      {"games_per_agent_pairing", result.agent_games},
                      {"seed", result.seed},
                      {"opening_plies", result.opening_plies}};
  std::string csv = "agent,spec,elo,interval95";
  for (int r = 0; r < result.rungs; ++r) csv += ",score_vs_" + result.names[r];
  csv += "\n";
  for (std::size_t i = 0; i < result.names.size(); ++i) {
    nlohmann::json a = {{"name", result.names[i]},
                        {"spec", result.specs[i]},
                        {"elo", result.fit.elo[i]},
                        {"interval95", result.fit.interval[i]},
                        {"rung", static_cast<int>(i) < result.rungs}};
    csv += result.names[i] + "," + result.specs[i] + "," + std::to_string(result.fit.elo[i]) + "," +
           std::to_string(result.fit.interval[i]);
    for (int r = 0; r < result.rungs; ++r) {
      const PairingResult* p =
          static_cast<int>(i) == r ? nullptr : result.against(static_cast<int>(i), r);
      csv += ",";
      if (!p) continue;
      const double points = p->a == static_cast<int>(i) ? p->points : p->games - p->points;
      a["against"][result.names[r]] = {{"points", points}, {"games", p->games}};
      csv += std::to_string(points / p->games);
    }
    csv += "\n";
    j["agents"].push_back(a);
  }
  write_text_atomically(dir + "/ladder.json", j.dump(2) + "\n");
  write_text_atomically(dir + "/ladder.csv", csv);
  write_text_atomically(dir + "/ladder.svg", ratings_svg(result.names, result.fit,
                                                         result.game + " ladder (UCT-400 = 0)"));
}

}  // namespace azg::play
