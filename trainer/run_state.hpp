#pragma once
// The run directory: config.yaml, checkpoints/<step-N>/{model.ckpt,buffer.bin,state.json}
// with checkpoints/LATEST naming the newest complete set, games/, metrics.jsonl, models/.
// A checkpoint set is complete once LATEST names it: a run killed at any moment resumes
// from the last complete set, and partial sets are removed on resume.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/json_number.hpp"
#include "core/rng.hpp"

namespace azg::trainer {

struct RunCounters {
  std::int64_t step = 0;
  std::int64_t games = 0;
  std::int64_t positions = 0;
  int game_files =
      0;  // games/ files numbered below this hold exactly `games` games (0: older runs, unknown)
  double elapsed_seconds = 0;
  std::array<std::uint64_t, 4> rng{};
  std::string previous_model;  // the model of the last evaluation
  std::string best_model;
  bool finished = false;
  int learners = 1;  // the learner processes that train the run (azg learner --learners)

  nlohmann::json to_json() const {
    return {{"step", step},
            {"games", games},
            {"positions", positions},
            {"game_files", game_files},
            {"elapsed_seconds", elapsed_seconds},
            {"rng", rng},
            {"previous_model", previous_model},
            {"best_model", best_model},
            {"finished", finished},
            {"learners", learners}};
  }
  // Reads state.json's text; throws azg::Error naming `source` when it is not what
  // to_json() writes (not JSON, a missing or mistyped field, negative counters).
  static RunCounters parse(std::string_view text, const std::string& source) {
    RunCounters c;
    try {
      const auto j = nlohmann::json::parse(text);
      constexpr auto kMax = std::numeric_limits<std::int64_t>::max();
      c.step = json_whole(j.at("step"), source + ": step", 0, kMax);
      c.games = json_whole(j.at("games"), source + ": games", 0, kMax);
      c.positions = json_whole(j.at("positions"), source + ": positions", 0, kMax);
      if (j.contains("game_files"))
        c.game_files =
            static_cast<int>(json_whole(j.at("game_files"), source + ": game_files", 0, 999999999));
      c.elapsed_seconds = json_real(j.at("elapsed_seconds"), source + ": elapsed_seconds", 0, 1e12);
      const auto& rng = j.at("rng");
      if (!rng.is_array() || rng.size() != c.rng.size())
        throw Error(source + ": rng must be 4 words");
      for (std::size_t i = 0; i < c.rng.size(); ++i) c.rng[i] = json_word(rng[i], source + ": rng");
      c.previous_model = j.value("previous_model", "");
      c.best_model = j.value("best_model", "");
      c.finished = j.value("finished", false);
      if (j.contains("learners"))
        c.learners = static_cast<int>(json_whole(j.at("learners"), source + ": learners", 1, 4096));
    } catch (const nlohmann::json::exception&) {
      throw Error(source + " is damaged (not the run state azg writes)");
    }
    return c;
  }
};

class RunDir {
 public:
  explicit RunDir(std::string root) : root_(std::move(root)) {}
  const std::string& root() const { return root_; }
  std::string path(const std::string& rel) const { return root_ + "/" + rel; }

  bool has_checkpoint() const { return std::filesystem::exists(path("checkpoints/LATEST")); }
  std::string latest_set() const {
    std::ifstream in(path("checkpoints/LATEST"));
    std::string name;
    in >> name;
    if (name.empty() || !std::filesystem::is_directory(path("checkpoints/" + name)))
      throw Error(path("checkpoints/LATEST") + " names no checkpoint set");
    return path("checkpoints/" + name);
  }

  // Removes checkpoint sets other than the newest `keep` complete ones (including the
  // partial set a crash may have left).
  void prune_checkpoints(int keep) const {
    const std::string latest = std::filesystem::path(latest_set()).filename().string();
    std::vector<std::string> sets;
    for (const auto& e : std::filesystem::directory_iterator(path("checkpoints")))
      if (e.is_directory()) sets.push_back(e.path().filename().string());
    std::sort(sets.begin(), sets.end());
    int kept = 0;
    for (auto it = sets.rbegin(); it != sets.rend(); ++it) {
      const bool newer_than_latest = *it > latest;
      if (!newer_than_latest && kept < keep) {
        ++kept;
        continue;
      }
      std::filesystem::remove_all(path("checkpoints/" + *it));
    }
  }

  // metrics.jsonl on resume: cut back to the lines of the checkpoint being resumed, so
  // the log holds each step at most once and its counters never go back. The log is
  // written in step order, so everything from the first line past `step` on came from
  // the killed run after its last complete checkpoint (its games and positions died
  // with it, and the resumed run writes those steps again); a partial last line from a
  // crash goes too, and so does a final evaluation's line when the run did not record
  // itself finished (the resumed run plays the final evaluation again). Lines are kept
  // verbatim; the file is replaced atomically, and only when something is cut. Returns
  // the number of complete lines dropped.
  int cut_metrics_after(std::int64_t step, bool drop_final = true) const {
    const std::string file = path("metrics.jsonl");
    if (!std::filesystem::exists(file)) return 0;
    std::ifstream in(file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::size_t keep = 0;  // bytes of the lines kept
    int dropped = 0;
    for (std::size_t begin = 0; begin < text.size();) {
      const std::size_t end = text.find('\n', begin);
      if (end == std::string::npos) break;  // a torn last line
      if (keep == begin &&
          !line_is_past(std::string_view(text).substr(begin, end - begin), step, drop_final))
        keep = end + 1;
      else
        ++dropped;
      begin = end + 1;
    }
    if (keep != text.size()) write_text_atomically(file, text.substr(0, keep));
    return dropped;
  }

  void append_metrics(nlohmann::json line) const {
    line["time"] = std::chrono::duration_cast<std::chrono::seconds>(
                       std::chrono::system_clock::now().time_since_epoch())
                       .count();
    const std::string text = line.dump() + "\n";
    std::FILE* f = std::fopen(path("metrics.jsonl").c_str(), "ab");
    if (f == nullptr) throw Error("cannot append to " + path("metrics.jsonl"));
    std::fwrite(text.data(), 1, text.size(), f);
    std::fflush(f);
    ::fsync(fileno(f));
    std::fclose(f);
  }

 private:
  // A metrics line whose step is past `step` (or a final line, with `drop_final`); a
  // line that is not JSON or has no step is not (it is kept, as it was).
  static bool line_is_past(std::string_view line, std::int64_t step, bool drop_final) {
    const auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return false;
    const auto type = j.find("type");
    if (drop_final && type != j.end() && type->is_string() && *type == "final") return true;
    const auto it = j.find("step");
    return it != j.end() && it->is_number_integer() && it->get<std::int64_t>() > step;
  }

  std::string root_;
};

}  // namespace azg::trainer
