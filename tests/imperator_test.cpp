// Imperator: the board geometry against the spec, perft, and rules on hand-built positions.
#include "env/imperator/imperator.hpp"

#include <gtest/gtest.h>

#include "core/error.hpp"
#include "env/common/notation.hpp"
#include "env/common/perft.hpp"
#include "env/common/random_play.hpp"
#include "tests/test_util.hpp"

namespace azg {
namespace {

using imperator::default_geometry;

TEST(ImperatorGeometry, MatchesTheSpec) {
  const auto& g = default_geometry();
  EXPECT_EQ(g.row_sizes, (std::vector<int>{9, 11, 13, 15, 15, 13, 11, 9}));
  ASSERT_EQ(g.cells.size(), 96u);
  for (const auto& c : g.cells) {
    const bool odd = c.number % 2 == 1;
    EXPECT_EQ(c.up, c.row < 4 ? !odd : odd) << c.name;
    EXPECT_EQ(c.neighbours.size(), c.rim ? 2u : 3u) << c.name;
  }
  std::vector<std::string> rim;
  for (const int c : g.rim_order) rim.push_back(g.cells[c].name);
  EXPECT_EQ(rim, (std::vector<std::string>{"a2",  "a4",  "a6",  "a8", "a9", "b11", "c13", "d15",
                                           "e15", "f13", "g11", "h9", "h8", "h6",  "h4",  "h2",
                                           "h1",  "g1",  "f1",  "e1", "d1", "c1",  "b1",  "a1"}));
  EXPECT_EQ(g.cells[g.index("a2")].protects, 0) << "holed at a2";
  EXPECT_EQ(g.cells[g.index("a4")].protects, 1);
  // "Sits on": rows b-d up cell i on cell i-1 below, row e on i, rows f-h on i+1.
  auto sits_on = [&](const char* up, const char* down) {
    const auto& nb = g.cells[g.index(up)].neighbours;
    return std::find(nb.begin(), nb.end(), g.index(down)) != nb.end();
  };
  EXPECT_TRUE(sits_on("b2", "a1"));
  EXPECT_TRUE(sits_on("d8", "c7"));
  EXPECT_TRUE(sits_on("e1", "d1"));
  EXPECT_TRUE(sits_on("e7", "d7"));
  EXPECT_TRUE(sits_on("f1", "e2"));
  EXPECT_TRUE(sits_on("h3", "g4"));
  // The half turn (and every rotation) keeps the protection layout; the left-right
  // mirror swaps holed and plain (the spec's closing remark).
  const auto& half_turn = g.symmetries[3];
  EXPECT_EQ(g.cells[half_turn[g.index("a2")]].name, "h8");
  for (int c = 0; c < 96; ++c) {
    if (g.cells[c].rim) {
      EXPECT_EQ(g.cells[half_turn[c]].protects, g.cells[c].protects) << g.cells[c].name;
    }
  }
  for (int s = 0; s < 12; ++s) EXPECT_EQ(g.symmetry_swaps_colours[s], s >= 6) << s;
  EXPECT_EQ(g.cells[g.symmetries[6][g.index("a2")]].name, "a8") << "the mirror";
}

// Sides 3 and 5 (the variant boards): the same construction rules at other sizes.
TEST(ImperatorGeometry, OtherSides) {
  for (const int n : {3, 4, 5}) {
    const auto& g = imperator::geometry(n);
    SCOPED_TRACE(n);
    ASSERT_EQ(static_cast<int>(g.cells.size()), 6 * n * n);
    ASSERT_EQ(static_cast<int>(g.row_sizes.size()), 2 * n);
    for (int r = 0; r < 2 * n; ++r)
      EXPECT_EQ(g.row_sizes[r], 2 * n + 1 + 2 * std::min(r, 2 * n - 1 - r));
    EXPECT_EQ(static_cast<int>(g.rim_order.size()), 6 * n);
    int rims = 0;
    for (const auto& c : g.cells) {
      const bool odd = c.number % 2 == 1;
      EXPECT_EQ(c.up, c.row < n ? !odd : odd) << c.name;
      EXPECT_EQ(c.neighbours.size(), c.rim ? 2u : 3u) << c.name;
      rims += c.rim;
    }
    EXPECT_EQ(rims, 6 * n);
    EXPECT_EQ(g.cells[g.rim_order[0]].name, "a2");
    for (std::size_t k = 0; k < g.rim_order.size(); ++k)
      EXPECT_EQ(g.cells[g.rim_order[k]].protects, int(k % 2));
    // A rotation by 60 degrees moves the rim order on by n cells: it keeps the
    // protection layout on even sides and swaps it on odd ones.
    for (int s = 0; s < 6; ++s) EXPECT_EQ(g.symmetry_swaps_colours[s], (s * n) % 2 == 1) << s;
    // Every symmetry is a permutation that keeps neighbours neighbours.
    for (const auto& image : g.symmetries) {
      std::set<int> seen(image.begin(), image.end());
      EXPECT_EQ(seen.size(), g.cells.size());
      for (std::size_t c = 0; c < g.cells.size(); ++c)
        for (const int nb : g.cells[c].neighbours) {
          const auto& mapped = g.cells[image[c]].neighbours;
          EXPECT_NE(std::find(mapped.begin(), mapped.end(), image[nb]), mapped.end());
        }
    }
  }
  EXPECT_THROW(imperator::geometry(6), Error);
}

// The variants play by the same rules: a piece alone on a2 has the same six pivots on
// every side, the action strings reach the top row, and perft is stable.
TEST(ImperatorVariants, PlayByTheSameRules) {
  EXPECT_EQ(perft(Imperator3{}, 1), 54u);
  EXPECT_EQ(perft(Imperator5{}, 1), 150u);
  EXPECT_EQ(perft(Imperator3{}, 2), 54u * 53u);
  EXPECT_EQ(perft(Imperator5{}, 2), 150u * 149u);
  const Imperator3 small = Imperator3::from_cells("a2 f2 f4 f6 e2 e4 e8", "d9", 0);
  std::set<std::string> from_a2;
  for (const auto& s : legal_set(small))
    if (s.rfind("a2-", 0) == 0) from_a2.insert(s);
  EXPECT_EQ(from_a2, (std::set<std::string>{"a2-a1", "a2-a3", "a2-a4", "a2-b2", "a2-b3", "a2-b4"}));
  const Imperator5 large{};
  EXPECT_TRUE(large.parse_action("j11").has_value());
  EXPECT_FALSE(large.parse_action("k1").has_value());
  EXPECT_FALSE(Imperator{}.parse_action("i1").has_value());
  EXPECT_THROW(Imperator5::from_cells("j12", "", 0), Error) << "row j has 11 cells";
}

TEST(ImperatorPerft, IssueFigures) {
  const std::uint64_t initial[] = {96, 9120, 857280};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(Imperator{}, d), initial[d - 1]) << d;
  const Imperator mid =
      replay(Imperator{}, split_words("b7 f7 a9 d10 b6 f13 e8 f11 h5 e13 c6 b3 f6 a4 e4 f12 h7 a1 "
                                      "f5 d4 c6-d7 b3-b1 e4-e2 a1-b3"));
  const std::uint64_t expected[] = {87, 6154, 526071};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(mid, d), expected[d - 1]) << d;
}

// Our own figures (regressions): 40 actions into a random game (azg play-random --game
// imperator --seed 4), free moves for both sides (6 v 3 pieces), and a capture-rich
// position with White (5 pieces, free moves) to move.
TEST(ImperatorPerft, RegressionFigures) {
  const Imperator random_game = replay(
      Imperator{},
      split_words("c6 h1 d10 h7 c1 e11 d14 f7 a4 c13 a3 h4 e1 e13 f10 d3 d8 b6 e10 e5 c6-c5 b6-a7 "
                  "d8-e8 e13-d13 e8-e7 d13-e14 a4-b6 h7-h5 d14-e15 a7-b7 e7-d8 f7-e6 b6-a5 d3-e4 "
                  "d10-e9 h1-h3 f10-f8 e6-f6 c5-d5 e11-f10"));
  const std::uint64_t random_expected[] = {76, 5911, 450626};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(random_game, d), random_expected[d - 1]) << d;
  const Imperator free_moves = Imperator::from_cells("c5 h2 h4 h6 h8 g2", "e15 a4 a6", 0);
  EXPECT_EQ(perft(free_moves, 1), 522u);
  EXPECT_EQ(perft(free_moves, 2), 133102u);
  const Imperator captures =
      Imperator::from_cells("c4 c6 d4 e5 d8 a1 a9 b2 b3", "d5 d7 h5 c5 g3", 1);
  const std::uint64_t capture_expected[] = {246, 11794, 3315245};
  for (int d = 1; d <= 3; ++d) EXPECT_EQ(perft(captures, d), capture_expected[d - 1]) << d;
}

TEST(ImperatorRules, APieceAloneOnA2HasSixPivots) {
  // Seven Red pieces (no free moves); the others are far from a2.
  const Imperator g = Imperator::from_cells("a2 h2 h4 h6 h8 g4 g8", "e15", 0);
  std::set<std::string> from_a2;
  for (const auto& s : legal_set(g))
    if (s.rfind("a2-", 0) == 0) from_a2.insert(s);
  EXPECT_EQ(from_a2, (std::set<std::string>{"a2-a1", "a2-a3", "a2-a4", "a2-b2", "a2-b3", "a2-b4"}));
}

int cell(const char* name) {
  return default_geometry().index(name);
}

std::set<std::string> moves_from(const Imperator& g, const std::string& from) {
  std::set<std::string> out;
  for (const auto& s : legal_set(g))
    if (s.rfind(from + "-", 0) == 0) out.insert(s);
  return out;
}

TEST(ImperatorRules, SinglePieceAndGroupEnclosure) {
  // c5 (neighbours c4 c6 d6) is taken when Red closes d6.
  const Imperator one = replay(Imperator{}, {"c4", "c5", "c6", "h5", "d6"});
  EXPECT_EQ(one.colour_at(cell("c5")), 0);
  EXPECT_EQ(one.pieces(0), 4);
  EXPECT_EQ(one.pieces(1), 1);
  // The group c5 + d6 (outside: c4 c6 d5 d7) turns over as a whole.
  const Imperator group = replay(Imperator{}, {"c4", "c5", "c6", "d6", "d5", "h5", "d7"});
  EXPECT_EQ(group.colour_at(cell("c5")), 0);
  EXPECT_EQ(group.colour_at(cell("d6")), 0);
  // With one outside cell still empty, nothing happens.
  const Imperator open = replay(Imperator{}, {"c4", "c5", "c6", "d6", "d5", "h5"});
  EXPECT_EQ(open.colour_at(cell("c5")), 1);
}

TEST(ImperatorRules, RimSidesProtectTheirColourOnly) {
  // a2 is holed (protects Red): a White piece there is taken by a1 and a3.
  EXPECT_EQ(replay(Imperator{}, {"a1", "a2", "a3"}).colour_at(cell("a2")), 0);
  // a4 is plain (protects White): the White piece survives, pinned.
  const Imperator saved = replay(Imperator{}, {"a3", "a4", "a5"});
  EXPECT_EQ(saved.colour_at(cell("a4")), 1);
  EXPECT_TRUE(saved.pinned(cell("a4")));
  // A Red piece on the plain a4 is taken by White on a3 and a5.
  EXPECT_EQ(replay(Imperator{}, {"a4", "a3", "h5", "a5"}).colour_at(cell("a4")), 1);
}

TEST(ImperatorRules, SuicideIsRefusedUnlessACaptureOpensTheGroup) {
  // White may not place into c5 surrounded by c4 c6 d6.
  const Imperator hole = replay(Imperator{}, {"c4", "h5", "c6", "h7", "d6"});
  EXPECT_FALSE(legal_set(hole).count("c5"));
  // With White on d5 and d7, c5 takes d6 and the grown group breathes: legal, and d6 turns.
  const Imperator capture = replay(Imperator{}, {"c4", "d5", "c6", "d7", "d6"});
  ASSERT_TRUE(legal_set(capture).count("c5"));
  const Imperator after = replay(capture, {"c5"});
  EXPECT_EQ(after.colour_at(cell("d6")), 1);
  EXPECT_EQ(after.colour_at(cell("c5")), 1);
}

TEST(ImperatorRules, ACaptureThatStillLeavesTheMoverEnclosedIsRefused) {
  // White (3 pieces: free moves) moves h5 into c5: d6 turns White, but c5 d6 d5 d7 are
  // then all surrounded by Red (c4 c6 d4 e5 d8 e7): still suicide. Without e7 it is legal.
  const Imperator closed = Imperator::from_cells("c4 c6 d4 e5 d8 e7 d6 a1", "d5 d7 h5", 1);
  EXPECT_FALSE(legal_set(closed).count("h5-c5"));
  const Imperator open = Imperator::from_cells("c4 c6 d4 e5 d8 d6 a1 a9", "d5 d7 h5", 1);
  EXPECT_TRUE(legal_set(open).count("h5-c5"));
}

TEST(ImperatorRules, PivotsAreBlockedByOccupiedCellsButGoTheLongWayRound) {
  // Seven Red pieces (no free moves); c5 alone in the middle has 12 destinations.
  const std::string far = " h2 h4 h6 h8 g2 g4";
  EXPECT_EQ(moves_from(Imperator::from_cells("c5" + far, "e15", 0), "c5").size(), 12u);
  // One neighbour taken: only that cell is lost (each pie is walked the other way round).
  EXPECT_EQ(moves_from(Imperator::from_cells("c5 c4" + far, "e15", 0), "c5").size(), 11u);
  // At the rim a pie is a path: with a3 taken, a2 no longer reaches a4.
  EXPECT_EQ(moves_from(Imperator::from_cells("a2 a3" + far, "e15", 0), "a2"),
            (std::set<std::string>{"a2-a1", "a2-b2", "a2-b3", "a2-b4"}));
}

TEST(ImperatorRules, PinnedPieces) {
  // Red c5 between White c4 and c6 is pinned; a friendly d6 does not free it.
  const std::string far = " h2 h4 h6 h8 g2";
  const Imperator g = Imperator::from_cells("c5 d6" + far, "c4 c6", 0);
  EXPECT_TRUE(g.pinned(cell("c5")));
  EXPECT_TRUE(moves_from(g, "c5").empty());
  const Imperator free_piece = Imperator::from_cells("c5 d6" + far, "c4", 0);
  EXPECT_FALSE(free_piece.pinned(cell("c5")));
  EXPECT_FALSE(moves_from(free_piece, "c5").empty());
}

TEST(ImperatorRules, FreeMovesAtSixPiecesOrFewer) {
  const Imperator six = Imperator::from_cells("c5 h2 h4 h6 h8 g2", "e15 a4 a6", 0);
  EXPECT_TRUE(legal_set(six).count("c5-a8")) << "anywhere empty";
  const Imperator seven = Imperator::from_cells("c5 h2 h4 h6 h8 g2 g4", "e15 a4 a6", 0);
  EXPECT_FALSE(legal_set(seven).count("c5-a8"));
}

TEST(ImperatorRules, TwoPiecesOrFewerLoses) {
  // Red (3 pieces, free moves) closes d6 around White's c5: White keeps 2 and loses.
  const Imperator g = Imperator::from_cells("c4 c6 h5", "c5 a4 e15", 0);
  const Imperator after = replay(g, {"h5-d6"});
  ASSERT_TRUE(after.is_terminal());
  EXPECT_EQ(after.outcome(), Outcome::kP0Win);
}

TEST(ImperatorRules, NoMoveEndsTheGameScoredByCount) {
  // White's three pieces sit on plain rim cells between Red pieces: pinned, never taken.
  const Imperator g = Imperator::from_cells("a3 a5 a7 a9 b10 c12 h5", "a4 a8 b11", 0);
  const auto moves = moves_from(g, "h5");
  ASSERT_FALSE(moves.empty());
  const Imperator after = replay(g, {*moves.begin()});
  ASSERT_TRUE(after.is_terminal());
  EXPECT_EQ(after.outcome(), Outcome::kP0Win) << "7 pieces against 3";
}

TEST(ImperatorRules, TheMoveCapEndsTheGameScoredByCount) {
  const Imperator g = Imperator::from_cells("c5 h2 h4 h6", "e15 a4 a6 a8", 0, 199);
  const Imperator after = replay(g, {*moves_from(g, "c5").begin()});
  ASSERT_TRUE(after.is_terminal());
  EXPECT_EQ(after.outcome(), Outcome::kDraw) << "4 pieces each";
}

}  // namespace
}  // namespace azg

namespace azg {
namespace {

// Encoding 2: planes 13/14 count the pinned pieces of each side, and planes 15/16 mark
// exactly the pieces one enemy placement could turn over, on positions from random play.
TEST(ImperatorEncoding, PinnedAndOneLibertyPlanesMatchTheRules) {
  const int plane = Imperator::kPlanes.height * Imperator::kPlanes.width;
  std::vector<float> planes(Imperator::kPlanes.size());
  auto ones = [&](int p) {
    int n = 0;
    for (int i = 0; i < plane; ++i) n += planes[p * plane + i] == 1.0f;
    return n;
  };
  Rng rng(11);
  int checked = 0, capturable_seen = 0;
  for (int game = 0; game < 40; ++game) {
    Imperator s;
    const int stop = 4 + static_cast<int>(rng.below(16));  // inside the placement phase
    for (int k = 0; k < stop && !s.is_terminal(); ++k) s.apply(random_action(s, rng));
    if (s.is_terminal() || s.phase() != Imperator::Phase::kPlacement) continue;
    s.encode(planes);
    const int me = index_of(s.to_act());
    int pinned[2] = {0, 0};
    for (int cell = 0; cell < Imperator::kCells; ++cell)
      if (s.pinned(cell)) ++pinned[s.colour_at(cell) == me ? 0 : 1];
    EXPECT_EQ(ones(13), pinned[0]);
    EXPECT_EQ(ones(14), pinned[1]);
    // Opponent pieces some legal placement turns over.
    std::vector<bool> capturable(Imperator::kCells, false);
    ActionListFor<Imperator> actions;
    s.legal_actions(actions);
    for (const Action a : actions) {
      Imperator t = s;
      t.apply(a);
      for (int cell = 0; cell < Imperator::kCells; ++cell)
        if (s.colour_at(cell) == (me ^ 1) && t.colour_at(cell) == me) capturable[cell] = true;
    }
    int n = 0;
    for (const bool c : capturable) n += c;
    EXPECT_EQ(ones(16), n) << s.render();
    capturable_seen += n;
    ++checked;
  }
  EXPECT_GT(checked, 20);
  EXPECT_GT(capturable_seen, 0) << "the positions exercise the plane";
}

}  // namespace
}  // namespace azg
