#pragma once
// Reads game records back: one JSON object per line, as the trainer writes games/*.jsonl
// and the arena and match write games.jsonl ({"setup"?, "actions": [...], "result": ...}).
// Every record is replayed strictly, so a record that loads is a legal game whose stated
// result is the one its moves reach (or, for a game stopped early, one with a stated
// "termination").
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "env/common/notation.hpp"
#include "env/common/random_play.hpp"

namespace azg::play {

struct ReadRecord {
  GameRecord record;
  std::string termination;  // why a game that is not over stopped (arena and match records)
  nlohmann::json fields;    // the whole line, for callers that want the other fields
};

inline Outcome parse_outcome(std::string_view text, const std::string& where) {
  for (const Outcome o : {Outcome::kP0Win, Outcome::kP1Win, Outcome::kDraw})
    if (outcome_string(o) == text) return o;
  throw Error(where + ": result must be 1-0, 0-1 or 1/2-1/2, got " + quote_input(text));
}

// `where` names the line in errors ("games/000001.jsonl:3").
template <Game G>
ReadRecord read_game_record(std::string_view line, const std::string& where) {
  ReadRecord out;
  try {
    out.fields = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception&) {
    throw Error(where + ": not a JSON object");
  }
  const auto& j = out.fields;
  if (!j.is_object()) throw Error(where + ": not a JSON object");
  auto text_field = [&](const char* key) -> std::string {
    const auto it = j.find(key);
    if (it == j.end()) return {};
    if (!it->is_string()) throw Error(where + ": " + key + " must be a string");
    return it->template get<std::string>();
  };
  out.record.setup = text_field("setup");
  out.termination = text_field("termination");
  const auto actions = j.find("actions");
  if (actions == j.end() || !actions->is_array())
    throw Error(where + ": actions must be a list of strings");
  for (const auto& a : *actions) {
    if (!a.is_string()) throw Error(where + ": actions must be a list of strings");
    out.record.actions.push_back(a.template get<std::string>());
  }
  if (!j.contains("result")) throw Error(where + ": no result");
  out.record.outcome = parse_outcome(text_field("result"), where);

  G state;
  try {
    state = replay(G::from_setup(out.record.setup), out.record.actions);
  } catch (const Error& e) {
    throw Error(where + ": " + e.what());
  }
  if (state.is_terminal()) {
    if (state.outcome() != out.record.outcome)
      throw Error(where + ": the moves end " + std::string(outcome_string(state.outcome())) +
                  ", the record says " + std::string(outcome_string(out.record.outcome)));
  } else if (out.termination.empty()) {
    throw Error(where + ": the game is not over after its " +
                std::to_string(out.record.actions.size()) +
                " actions and the record gives no termination");
  }
  return out;
}

// What a file of records holds, once every line has been read and replayed.
struct RecordFileSummary {
  std::int64_t games = 0;
  std::int64_t actions = 0;
  std::int64_t p0_wins = 0, p1_wins = 0, draws = 0;
  std::int64_t terminated = 0;  // stopped early, with a termination
};

// Reads every record of a JSON-lines file (blank lines are skipped); throws azg::Error
// naming the file and line of the first bad record.
template <Game G>
RecordFileSummary check_record_file(const std::string& path) {
  // A folder opens as a stream that reads nothing: it would pass as a file of no games.
  if (std::filesystem::is_directory(path))
    throw Error(quote_input(path) +
                " is a folder: name its record files (for a run, RUN/games/*.jsonl)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("cannot read " + quote_input(path));
  RecordFileSummary s;
  std::string line;
  for (std::int64_t number = 1; std::getline(in, line); ++number) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    const ReadRecord r = read_game_record<G>(line, path + ":" + std::to_string(number));
    ++s.games;
    s.actions += static_cast<std::int64_t>(r.record.actions.size());
    if (!r.termination.empty()) ++s.terminated;
    (r.record.outcome == Outcome::kP0Win   ? s.p0_wins
     : r.record.outcome == Outcome::kP1Win ? s.p1_wins
                                           : s.draws) += 1;
  }
  return s;
}

}  // namespace azg::play
