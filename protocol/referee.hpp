#pragma once
// `azg match`: a referee that plays engine processes against each other over the engine
// protocol (docs/protocol.md), in the style of cutechess-cli. It keeps the rules itself (a
// session of the game), draws the chance outcomes and tells both engines, and plays the
// arena's paired games: colours swapped within a couple, which shares its setup and chance
// draws (the arena's seeding rule: the same seeds give the same luck). An engine that
// crashes, hangs past its time or plays an illegal move loses that game.
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "play/paired_games.hpp"
#include "play/session.hpp"

namespace azg::protocol {

struct EngineCommand {
  std::string name;
  std::string command;  // run with /bin/sh -c
};

// `azg match --engine` values, [NAME=]COMMAND each: NAME=COMMAND when the text before the
// first '=' is a plain name (no space, tab or '/'), else the whole text is the command and
// the engine is named engineK by its place. Throws azg::Error, with one line, on an empty
// command, fewer than two engines, or two engines of one name.
std::vector<EngineCommand> parse_engine_commands(const std::vector<std::string>& items);

struct RefereeOptions {
  int games = 10;       // per pair of engines (rounded up to even)
  int concurrency = 1;  // games at once, each with its own engine processes
  std::uint64_t seed = 1;
  int simulations = 0;             // `go sims N` when > 0
  int movetime_ms = 0;             // `go movetime MS` when > 0
  int timeout_ms = 0;              // a move's limit; 0: movetime + 5 s with a movetime, else 60 s
  int startup_timeout_ms = 60000;  // ugi .. ugiok and isready .. readyok
  bool send_seeds = true;  // `setoption name Seed` (when offered): agents seeded as the arena's
};

// Plays `games` games for each pair of engines in `pairs`, luck keyed by the pair's index
// as in play::play_pairs. `log`, when given, gets one line per finished game.
std::vector<play::PairedGame> referee_games(
    const std::function<std::unique_ptr<play::Session>()>& new_session,
    const std::vector<EngineCommand>& engines, const std::vector<std::pair<int, int>>& pairs,
    const RefereeOptions& options, std::ostream* log = nullptr);

}  // namespace azg::protocol
