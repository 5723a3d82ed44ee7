#pragma once
// Self-play game records: JSON lines (setup, actions, result), gathered in memory and
// written as numbered files in games/, each file atomically.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <mutex>
#include <string>
#include <vector>

#include "env/common/atomic_file.hpp"
#include "env/common/random_play.hpp"

namespace azg::trainer {

class GameRecordWriter {
 public:
  GameRecordWriter(std::string folder, int games_per_file) : folder_(std::move(folder)), per_file_(games_per_file) {
    std::filesystem::create_directories(folder_);
    // Continue numbering after the files already there (a resumed run).
    for (const auto& entry : std::filesystem::directory_iterator(folder_)) {
      const std::string stem = entry.path().stem().string();
      if (entry.path().extension() == ".jsonl" && !stem.empty() &&
          stem.find_first_not_of("0123456789") == std::string::npos)
        next_file_ = std::max(next_file_, std::stoi(stem) + 1);
    }
  }

  void add(const GameRecord& record, std::int64_t step) {
    nlohmann::json j = {{"actions", record.actions},
                        {"result", std::string(outcome_string(record.outcome))},
                        {"network_step", step}};
    if (!record.setup.empty()) j["setup"] = record.setup;
    std::lock_guard lock(mutex_);
    pending_.push_back(j.dump());
    if (static_cast<int>(pending_.size()) >= per_file_) flush_locked();
  }

  void flush() {
    std::lock_guard lock(mutex_);
    flush_locked();
  }

 private:
  void flush_locked() {
    if (pending_.empty()) return;
    std::string text;
    for (const auto& line : pending_) text += line + "\n";
    char name[32];
    std::snprintf(name, sizeof name, "%06d.jsonl", next_file_++);
    write_text_atomically(folder_ + "/" + name, text);
    pending_.clear();
  }

  std::string folder_;
  int per_file_;
  int next_file_ = 1;
  std::mutex mutex_;
  std::vector<std::string> pending_;
};

}  // namespace azg::trainer
