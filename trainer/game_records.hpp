#pragma once
// Self-play game records: JSON lines (setup, actions, result), gathered in memory and
// written as numbered files in games/, each file atomically.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/atomic_file.hpp"
#include "env/common/random_play.hpp"

namespace azg::trainer {

// A self-play game's record as JSON: its setup (for games that have one), actions, result
// and, for a game stopped before its end (a resignation), its termination. The record
// files and the actors' payloads both carry it; play::read_game_record reads it back.
inline nlohmann::json record_json(const GameRecord& record, const std::string& termination = {}) {
  nlohmann::json j = {{"actions", record.actions},
                      {"result", std::string(outcome_string(record.outcome))}};
  if (!record.setup.empty()) j["setup"] = record.setup;
  if (!termination.empty()) j["termination"] = termination;
  return j;
}

// Where the records stand at a checkpoint: every game counted is in the files numbered
// below next_file, and no game beyond them.
struct RecordsState {
  std::int64_t games = 0;
  int next_file = 1;
};

class GameRecordWriter {
 public:
  // Continues after `resumed` (a run resuming from a checkpoint; `files_known` false for
  // checkpoints older than the count of files, which continue after the files there).
  // Files numbered from resumed.next_file on were written after that checkpoint by a run
  // that was then killed: their games are not in the resumed replay buffer nor in the
  // counters, so they are moved to games/uncounted/ rather than counted twice or lost.
  GameRecordWriter(std::string folder, int games_per_file, RecordsState resumed = {},
                   bool files_known = true)
      : folder_(std::move(folder)),
        per_file_(games_per_file),
        games_(resumed.games),
        next_file_(resumed.next_file) {
    std::filesystem::create_directories(folder_);
    int highest = 0;
    std::vector<std::filesystem::path> after;
    for (const auto& entry : std::filesystem::directory_iterator(folder_)) {
      const int number = file_number(entry.path());
      if (number <= 0) continue;
      highest = std::max(highest, number);
      if (number >= next_file_) after.push_back(entry.path());
    }
    if (!files_known) {
      next_file_ = highest + 1;
      return;
    }
    for (const auto& path : after) {
      std::filesystem::create_directories(folder_ + "/uncounted");
      std::string target = folder_ + "/uncounted/" + path.filename().string();
      for (int copy = 1; std::filesystem::exists(target); ++copy)
        target =
            folder_ + "/uncounted/" + path.stem().string() + "-" + std::to_string(copy) + ".jsonl";
      std::filesystem::rename(path, target);
      ++moved_;
    }
  }

  // Files moved to games/uncounted/ when this writer started.
  int moved_files() const { return moved_; }

  // `termination`: why a game that is not over stopped (a resignation); empty otherwise.
  void add(const GameRecord& record, std::int64_t step, const std::string& termination = {}) {
    nlohmann::json j = record_json(record, termination);
    j["network_step"] = step;
    std::lock_guard lock(mutex_);
    pending_.push_back(j.dump());
    ++games_;
    if (static_cast<int>(pending_.size()) >= per_file_) flush_locked();
  }

  // Writes what is pending and says where the records stand, in one step: a game that
  // ends meanwhile is either in both or in neither.
  RecordsState flush() {
    std::lock_guard lock(mutex_);
    flush_locked();
    return {games_, next_file_};
  }

 private:
  // NNNNNN.jsonl -> NNNNNN; anything else -> 0.
  static int file_number(const std::filesystem::path& path) {
    const std::string stem = path.stem().string();
    if (path.extension() != ".jsonl" || stem.empty() || stem.size() > 9 ||
        stem.find_first_not_of("0123456789") != std::string::npos)
      return 0;
    return std::stoi(stem);
  }

  void flush_locked() {
    if (pending_.empty()) return;
    std::string text;
    for (const auto& line : pending_) text += line + "\n";
    char name[32];
    std::snprintf(name, sizeof name, "%06d.jsonl", next_file_);
    write_text_atomically(folder_ + "/" + name, text);
    ++next_file_;
    pending_.clear();
  }

  std::string folder_;
  int per_file_;
  std::int64_t games_ = 0;
  int next_file_ = 1;
  int moved_ = 0;
  std::mutex mutex_;
  std::vector<std::string> pending_;
};

}  // namespace azg::trainer
