#pragma once
// A solved test set: positions, each with the moves that keep its solved value, read from
// a JSON-lines file (data/connect4/positions.jsonl; tools/connect4_positions.sh writes
// one). Each line: {"moves": ["4", "4", ...], "phase": "opening", "keeping": ["4"],
// "optimal": ["4"], ...}: the action strings from the game's start, a phase name, the
// actions that keep the solved win/draw/loss, and optionally those that keep the exact
// score. Other fields (score, value, provenance) are for people and are ignored here.
#include <string>
#include <vector>

namespace azg::play {

struct TestPosition {
  std::vector<std::string> moves;
  std::string phase;
  std::vector<std::string> keeping;
  std::vector<std::string> optimal;  // empty: not known
  std::string where;                 // "FILE:LINE", for errors
};

// Throws azg::Error naming the file and line of the first malformed entry; a file with no
// positions is an error too.
std::vector<TestPosition> read_test_positions(const std::string& path);

}  // namespace azg::play
