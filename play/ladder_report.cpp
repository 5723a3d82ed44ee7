#include "play/ladder_report.hpp"

#include <fstream>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/atomic_file.hpp"

namespace azg::play {

std::vector<RunModel> run_models_on_clock(const std::string& run_dir, int max_models) {
  std::vector<RunModel> models;
  for (const auto& path : run_models(run_dir)) {
    RunModel m;
    m.path = path;
    m.name = std::filesystem::path(path).stem().string();
    try {
      m.step = std::stol(m.name.substr(5));
    } catch (const std::exception&) {
      continue;  // not a step-N.pt model
    }
    models.push_back(m);
  }
  if (models.empty()) throw Error("no models/step-*.pt under " + quote_input(run_dir));
  // The last train line at or before each model's step gives its minutes and games.
  std::ifstream metrics(run_dir + "/metrics.jsonl");
  for (std::string line; std::getline(metrics, line);) {
    nlohmann::json j;
    try {
      j = nlohmann::json::parse(line);
    } catch (const std::exception&) {
      continue;  // a torn last line of a killed run
    }
    if (j.value("type", "") != "train") continue;
    const long step = j.value("step", 0L);
    for (auto& m : models)
      if (step <= m.step) {
        m.minutes = j.value("elapsed_s", 0.0) / 60.0;
        m.games = j.value("games", 0L);
      }
  }
  if (max_models > 0 && static_cast<int>(models.size()) > max_models) {
    std::vector<RunModel> kept;
    const int n = static_cast<int>(models.size());
    for (int k = 1; k <= max_models; ++k)
      kept.push_back(models[(static_cast<long>(k) * n) / max_models - 1]);
    models = kept;
  }
  return models;
}

void write_ladder_curve(const LadderResult& result, const std::vector<RunModel>& models,
                        const std::string& dir) {
  write_ladder(result, dir);
  std::string csv = "model,step,minutes,games,elo,interval95\n";
  std::vector<double> minutes;
  EloFit curve;
  for (const auto& m : models) {
    const int i = result.index_of(m.name);
    if (i < 0) continue;
    std::ostringstream row;
    row << m.name << ',' << m.step << ',' << std::fixed << std::setprecision(2) << m.minutes << ','
        << m.games << ',' << std::setprecision(1) << result.fit.elo[i] << ','
        << result.fit.interval[i] << '\n';
    csv += row.str();
    minutes.push_back(m.minutes);
    curve.elo.push_back(result.fit.elo[i]);
    curve.interval.push_back(result.fit.interval[i]);
  }
  write_text_atomically(dir + "/ladder-curve.csv", csv);
  write_text_atomically(dir + "/ladder-curve.svg",
                        progress_svg(minutes, curve, result.game + ": ladder Elo over training",
                                     "training minutes", "Elo (UCT-400 = 0)"));
}

}  // namespace azg::play
