#include "web/board_data.hpp"

#include <string>

#include "env/imperator/geometry.hpp"

namespace azg::web {
namespace {

std::string square_name(int file, int rank) { return std::string(1, static_cast<char>('a' + file)) + std::to_string(rank + 1); }

const char* imbriqua_phase(Imbriqua::Phase p) {
  switch (p) {
    case Imbriqua::Phase::kOpening: return "opening";
    case Imbriqua::Phase::kPlace: return "place";
    case Imbriqua::Phase::kReveal: return "reveal";
    case Imbriqua::Phase::kCard: return "card";
    case Imbriqua::Phase::kChain: return "chain";
    case Imbriqua::Phase::kSecondPawn: return "second pawn";
    case Imbriqua::Phase::kPenalty: return "penalty";
  }
  return "";
}

}  // namespace

nlohmann::json board_data(const Imbriqua& s) {
  nlohmann::json pawns = nlohmann::json::object();
  for (int sq = 0; sq < 64; ++sq)
    for (int p = 0; p < 2; ++p)
      if (s.pawns(p) >> sq & 1) pawns[square_name(sq % 8, sq / 8)] = p;
  // The 44 turns' cards: the code once revealed, null while hidden.
  nlohmann::json cards = nlohmann::json::array();
  for (int t = 1; t <= Imbriqua::kTurns; ++t) {
    const auto c = s.card_of_turn(t);
    cards.push_back(c == Imbriqua::kNoCard ? nlohmann::json(nullptr) : nlohmann::json(std::string(Imbriqua::card_code(c))));
  }
  const auto card = s.current_card();
  return {{"pawns", pawns},
          {"turn", s.turn()},
          {"phase", imbriqua_phase(s.phase())},
          {"card", card == Imbriqua::kNoCard ? nlohmann::json(nullptr) : nlohmann::json(std::string(Imbriqua::card_code(card)))},
          {"cards", cards},
          {"score", {s.score(0), s.score(1)}}};
}

nlohmann::json board_data(const Truchet& s) {
  std::string tiles;
  for (int y = 0; y < 7; ++y)
    for (int x = 0; x < 7; ++x) tiles += s.tile(x, y) ? '1' : '0';
  nlohmann::json stacks = nlohmann::json::object();
  for (int sq = 0; sq < 64; ++sq)
    if (s.colour_at(sq) >= 0) stacks[square_name(sq % 8, sq / 8)] = {{"colour", s.colour_at(sq)}, {"height", s.height_at(sq)}};
  const char* phase = s.phase() == Truchet::Phase::kStart ? "start" : s.phase() == Truchet::Phase::kAfterFlip ? "after flip" : "after river move";
  return {{"tiles", tiles}, {"stacks", stacks}, {"turn", s.turn()}, {"phase", phase}, {"repetitions", s.repetitions()}};
}

template <int Side>
nlohmann::json board_data(const BasicImperator<Side>& s) {
  const auto& g = imperator::geometry(Side);
  nlohmann::json cells = nlohmann::json::array();
  for (int c = 0; c < static_cast<int>(g.cells.size()); ++c) {
    const auto& cell = g.cells[c];
    cells.push_back({{"name", cell.name},
                     {"row", cell.row},
                     {"number", cell.number},
                     {"up", cell.up},
                     {"rim", cell.rim ? nlohmann::json(cell.protects) : nlohmann::json(nullptr)},
                     {"piece", s.colour_at(c) >= 0 ? nlohmann::json(s.colour_at(c)) : nlohmann::json(nullptr)}});
  }
  return {{"side", Side},
          {"rows", g.row_sizes},
          {"cells", cells},
          {"phase", s.phase() == BasicImperator<Side>::Phase::kPlacement ? "placement" : "movement"},
          {"moves", s.moves()},
          {"pieces", {s.pieces(0), s.pieces(1)}}};
}
template nlohmann::json board_data(const BasicImperator<3>&);
template nlohmann::json board_data(const BasicImperator<4>&);
template nlohmann::json board_data(const BasicImperator<5>&);

nlohmann::json board_data(const Lignes& s) {
  // Pawns stay within ~110 cells of the origin (lignes.hpp); the scan covers that.
  nlohmann::json pawns = nlohmann::json::array();
  for (int y = -120; y <= 120; ++y)
    for (int x = -120; x <= 120; ++x)
      if (const int p = s.pawn_at(x, y); p >= 0) pawns.push_back({x, y, p});
  const char* phase = s.phase() == Lignes::Phase::kPlace     ? "place"
                      : s.phase() == Lignes::Phase::kMove    ? "move"
                      : s.phase() == Lignes::Phase::kCapture ? "capture"
                                                             : "fill";
  return {{"pawns", pawns}, {"placed", s.placed()}, {"phase", phase}, {"captures", {s.captures(0), s.captures(1)}}};
}

nlohmann::json board_data(const Intercept& s) {
  auto pawn = [](std::uint8_t b) -> nlohmann::json {
    if (!(b & 1)) return nullptr;
    const int kind = b >> 2 & 3;
    return {{"colour", b >> 1 & 1},
            {"kind", kind == Intercept::kPassage ? "passage" : kind == Intercept::kRest ? "rest" : "double"},
            {"face", (b & 16) ? "passage" : "rest"}};
  };
  nlohmann::json squares = nlohmann::json::object();
  for (int sq = 0; sq < Intercept::kSize * Intercept::kSize; ++sq) {
    if (!(s.top(sq) & 1)) continue;
    nlohmann::json j = {{"top", pawn(s.top(sq))}};
    if (s.covered(sq) & 1) j["covered"] = pawn(s.covered(sq));
    squares[square_name(sq % Intercept::kSize, sq / Intercept::kSize)] = j;
  }
  const char* phase = s.phase() == Intercept::Phase::kMove    ? "move"
                      : s.phase() == Intercept::Phase::kChain ? "further jump"
                      : s.phase() == Intercept::Phase::kFlipChoice ? "flip or keep"
                                                                  : "ball";
  return {{"squares", squares},
          {"ball", square_name(s.ball() % Intercept::kSize, s.ball() / Intercept::kSize)},
          {"turn", s.turn()},
          {"phase", phase}};
}

}  // namespace azg::web
