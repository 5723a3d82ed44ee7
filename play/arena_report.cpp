#include "play/arena_report.hpp"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"

namespace azg::play {

std::vector<std::pair<int, int>> tournament_pairs(int n, const std::string& format) {
  if (format != "round-robin" && format != "gauntlet")
    throw Error("--format must be round-robin or gauntlet");
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < n; ++i)
    for (int j = i + 1; j < n; ++j)
      if (format == "round-robin" || i == 0) pairs.push_back({i, j});
  return pairs;
}

int anchor_index(const std::vector<std::string>& names, const std::string& anchor) {
  if (anchor.empty()) return 0;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] == anchor) return static_cast<int>(i);
  throw Error("--anchor " + quote_input(anchor) + " is not an agent");
}

void report_arena(std::string_view game, const std::vector<ArenaEntry>& agents,
                  const std::vector<PairedGame>& played, const std::string& format, int anchor,
                  const std::string& out_dir, std::ostream& out) {
  const int n = static_cast<int>(agents.size());
  const auto fit = play::fit_elo(n, play::pair_scores(played), anchor);
  const play::Tally tally(n, played);
  std::vector<double> points(n), total(n);
  for (int i = 0; i < n; ++i) {
    points[i] = tally.total(i).points();
    total[i] = tally.total(i).games();
  }
  auto pair_points = [&](int i, int j) { return tally.against[i][j].points(); };
  auto pair_games = [&](int i, int j) { return static_cast<double>(tally.against[i][j].games()); };
  std::vector<int> order(n);
  for (int i = 0; i < n; ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](int a, int b) { return fit.elo[a] > fit.elo[b]; });
  std::size_t width = 5;
  for (const auto& a : agents) width = std::max(width, a.name.size());
  out << game << ": " << played.size() << " games, " << format << ", Elo anchored on "
      << agents[anchor].name << " (95% intervals)\n";
  out << std::left << std::setw(4) << "#" << std::setw(static_cast<int>(width) + 2) << "agent"
      << std::right << std::setw(8) << "elo" << std::setw(8) << "+/-" << std::setw(8) << "games"
      << std::setw(8) << "score\n";
  for (int k = 0; k < n; ++k) {
    const int i = order[k];
    out << std::left << std::setw(4) << k + 1 << std::setw(static_cast<int>(width) + 2)
        << agents[i].name << std::right << std::fixed << std::setprecision(0) << std::setw(8)
        << fit.elo[i] << std::setw(8) << fit.interval[i] << std::setw(8) << total[i] << std::setw(7)
        << std::setprecision(1) << 100.0 * points[i] / total[i] << "%\n";
  }
  out << "pairwise scores (row's points / games against column):\n";
  for (int i = 0; i < n; ++i) {
    out << "  " << agents[i].name << ":";
    for (int j = 0; j < n; ++j)
      if (pair_games(i, j) > 0)
        out << "  vs " << agents[j].name << " " << pair_points(i, j) << "/" << pair_games(i, j);
    out << '\n';
  }
  if (!out_dir.empty()) {
    std::filesystem::create_directories(out_dir);
    nlohmann::json j = {
        {"game", std::string(game)}, {"format", format}, {"anchor", agents[anchor].name}};
    std::string csv = "agent,spec,elo,interval95,games,score\n",
                pairwise = "agent,opponent,points,games\n", records;
    for (int i = 0; i < n; ++i) {
      j["agents"].push_back({{"name", agents[i].name},
                             {"spec", agents[i].spec},
                             {"elo", fit.elo[i]},
                             {"interval95", fit.interval[i]},
                             {"games", total[i]},
                             {"points", points[i]}});
      csv += agents[i].name + "," + agents[i].spec + "," + std::to_string(fit.elo[i]) + "," +
             std::to_string(fit.interval[i]) + "," + std::to_string(static_cast<int>(total[i])) +
             "," + std::to_string(points[i] / total[i]) + "\n";
      for (int o = 0; o < n; ++o)
        if (pair_games(i, o) > 0)
          pairwise += agents[i].name + "," + agents[o].name + "," +
                      std::to_string(pair_points(i, o)) + "," +
                      std::to_string(static_cast<int>(pair_games(i, o))) + "\n";
    }
    for (const auto& g : played) {
      nlohmann::json r = {{"player0", agents[g.first].name},
                          {"player1", agents[g.second].name},
                          {"actions", g.record.actions},
                          {"result", std::string(outcome_string(g.record.outcome))}};
      if (!g.record.setup.empty()) r["setup"] = g.record.setup;
      if (!g.termination.empty()) r["termination"] = g.termination;
      records += r.dump() + "\n";
    }
    std::vector<std::string> names;
    for (const auto& a : agents) names.push_back(a.name);
    write_text_atomically(out_dir + "/ratings.json", j.dump(2) + "\n");
    write_text_atomically(out_dir + "/ratings.csv", csv);
    write_text_atomically(out_dir + "/pairwise.csv", pairwise);
    write_text_atomically(out_dir + "/games.jsonl", records);
    write_text_atomically(out_dir + "/ratings.svg",
                          play::ratings_svg(names, fit, std::string(game) + " arena"));
    out << "wrote " << out_dir
        << "/{ratings.json,ratings.csv,pairwise.csv,ratings.svg,games.jsonl}\n";
  }
}

}  // namespace azg::play
