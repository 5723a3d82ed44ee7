// Lignes rules, clause by clause, on hand-built positions (../shared/rules/lignes.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "env/common/notation.hpp"
#include "env/lignes/lignes.hpp"
#include "tests/test_util.hpp"

namespace azg {
namespace {

using Phase = Lignes::Phase;

std::set<std::string> moves_of(const Lignes& g) {
  std::set<std::string> out;
  for (const auto& s : legal_set(g))
    if (s[0] == 'M') out.insert(s);
  return out;
}

Lignes light_to_move(std::string_view diagram, int x0 = 0, int y0 = 0) {
  return Lignes::from_diagram(diagram, x0, y0, 9, 0, Phase::kMove);
}

TEST(LignesRules, FirstPawnOnlyAtTheOrigin) {
  EXPECT_EQ(legal_set(Lignes{}), (std::set<std::string>{"P0,0"}));
  EXPECT_THROW(replay(Lignes{}, {"P1,0"}), Error);
}

TEST(LignesRules, PlacementsTouchASideNeverOnlyACorner) {
  const Lignes g = replay(Lignes{}, {"P0,0", "P1,0"});
  EXPECT_EQ(legal_set(g),
            (std::set<std::string>{"P-1,0", "P2,0", "P0,1", "P1,1", "P0,-1", "P1,-1"}));
  EXPECT_THROW(replay(g, {"P2,1"}), Error);  // corner contact only
}

TEST(LignesRules, OpeningAlternatesAndHasNoMoves) {
  const Lignes g = replay(Lignes{}, {"P0,0", "P1,0", "P2,0", "P3,0", "P4,0", "P5,0", "P6,0"});
  EXPECT_EQ(g.to_act(), Player::kP1);
  EXPECT_EQ(g.phase(), Phase::kPlace);
  const Lignes main = replay(g, {"P7,0"});
  EXPECT_EQ(main.to_act(), Player::kP0) << "pawn 9 is Light's";
  const Lignes after_placement = replay(main, {"P8,0"});
  EXPECT_EQ(after_placement.phase(), Phase::kMove);
  EXPECT_EQ(after_placement.to_act(), Player::kP0);
}

TEST(LignesRules, LeadMustBeTheMoversPawn) {
  // L D: east the lead is Dark's; west the lead is Light's and the counts are 1 v 1.
  EXPECT_EQ(moves_of(light_to_move("LD")), (std::set<std::string>{"M0,0W"}));
  EXPECT_EQ(moves_of(Lignes::from_diagram("LD", 0, 0, 10, 1, Phase::kMove)),
            (std::set<std::string>{"M1,0E"}));
}

TEST(LignesRules, CountsOneVersusOneAllowedOneVersusTwoRefused) {
  EXPECT_TRUE(moves_of(light_to_move("LDD")).empty());
  EXPECT_EQ(moves_of(light_to_move("LLDD")), (std::set<std::string>{"M0,0W"}));
  EXPECT_EQ(moves_of(light_to_move("LDDL")), (std::set<std::string>{"M0,0W", "M3,0E"}));  // 2 v 2
  EXPECT_EQ(moves_of(light_to_move("LDLL")), (std::set<std::string>{"M0,0W", "M3,0E"}));
}

TEST(LignesRules, OnlyWholeMaximalRunsMove) {
  const Lignes g = light_to_move("LLL");
  EXPECT_EQ(moves_of(g), (std::set<std::string>{"M0,0W", "M2,0E"}));
  EXPECT_THROW(replay(g, {"M1,0E"}), Error);  // a sub-run
  const Lignes after = replay(g, {"M2,0E"});
  EXPECT_EQ(after.pawn_at(0, 0), -1);
  EXPECT_EQ(after.pawn_at(1, 0), 0);
  EXPECT_EQ(after.pawn_at(3, 0), 0);
}

TEST(LignesRules, SingletonsAreNotAlignments) {
  // Two separate pawns in a row with a gap: neither is a run of two.
  const Lignes g = light_to_move("L.L/LLL");
  const auto moves = moves_of(g);
  EXPECT_FALSE(moves.count("M0,1W"));
  EXPECT_FALSE(moves.count("M2,1E"));
  EXPECT_TRUE(moves.count("M0,1S") == 0) << "the column run x=0 leads south with Light at (0,0)";
}

TEST(LignesRules, MoveThatBreaksTheGroupIsRefused) {
  // L . .      East: (0,1) loses its only contact. North: (1,0) keeps only a corner with
  // L L .      (0,1), which does not connect. West and South keep the group whole.
  const Lignes g = light_to_move("L../LL.");
  EXPECT_EQ(moves_of(g), (std::set<std::string>{"M0,0W", "M0,0S"}));
}

TEST(LignesRules, GroupMayReconnectThroughOtherPawns) {
  // The pawn above the tail stays connected through the pawn beside it.
  const Lignes g = light_to_move("LL./LL.");
  EXPECT_TRUE(moves_of(g).count("M1,0E"));
  EXPECT_TRUE(moves_of(g).count("M1,1E"));
}

// y=3  . L L .      Light's M2,3E leaves Dark's (1,1) surrounded; the fill from (2,1)
// y=2  . L L .      westwards uses the run (2,1)-(3,1); (1,2) has no run behind it.
// y=1  L D L L
// y=0  . L . .
constexpr std::string_view kCapture = ".LL./.LL./LDLL/.L..";

TEST(LignesRules, CaptureOfferedWithAFillAndTheFillEntersTheHole) {
  Lignes g = replay(light_to_move(kCapture), {"M2,3E"});
  ASSERT_EQ(g.phase(), Phase::kCapture);
  EXPECT_EQ(g.to_act(), Player::kP0);
  EXPECT_EQ(legal_set(g), (std::set<std::string>{"pass", "X1,1"}));
  g = replay(g, {"X1,1"});
  EXPECT_EQ(g.phase(), Phase::kFill);
  EXPECT_EQ(g.pawn_at(1, 1), -1);
  EXPECT_EQ(g.captures(0), 1);
  EXPECT_EQ(legal_set(g), (std::set<std::string>{"M2,1W"}));
  g = replay(g, {"M2,1W"});
  EXPECT_EQ(g.pawn_at(1, 1), 0);
  EXPECT_EQ(g.pawn_at(3, 1), -1);
  EXPECT_EQ(g.to_act(), Player::kP1);
  EXPECT_EQ(g.phase(), Phase::kPlace);
}

TEST(LignesRules, PassDeclinesTheCapture) {
  Lignes g = replay(light_to_move(kCapture), {"M2,3E", "pass"});
  EXPECT_EQ(g.to_act(), Player::kP1);
  EXPECT_EQ(g.pawn_at(1, 1), 1);
  EXPECT_EQ(g.captures(0), 0);
}

TEST(LignesRules, NoCaptureWithoutAFill) {
  // Without (3,1) no run of two can enter the hole: the capture decision is skipped.
  Lignes g = replay(light_to_move(".LL/.LL/LDL/.L."), {"M2,3E"});
  EXPECT_EQ(g.to_act(), Player::kP1);
  EXPECT_EQ(g.phase(), Phase::kPlace);
}

TEST(LignesRules, GroupIsCheckedAfterTheFill) {
  // (3,0) hangs from (3,1) alone: the only fill would empty (3,1) and cut it off.
  Lignes g = replay(light_to_move(".LL./.LL./LDLL/.L.L"), {"M2,3E"});
  EXPECT_EQ(g.phase(), Phase::kPlace) << "no capture offered";
  EXPECT_EQ(g.to_act(), Player::kP1);
}

TEST(LignesRules, CountRuleAppliesToTheFill) {
  // The run behind the lead is L D D: Light 1 v Dark 2, so the fill is refused.
  Lignes g = replay(light_to_move(".LL../.LL../LDLDD/.L..."), {"M2,3E"});
  EXPECT_EQ(g.phase(), Phase::kPlace) << "no capture offered";
}

TEST(LignesRules, OneCapturePerTurn) {
  // Two Dark pawns are surrounded, each with a fill; the turn ends after one.
  Lignes g = replay(light_to_move(".LL.../.LLL../LDLDLL/.L.L.."), {"M2,3E"});
  ASSERT_EQ(legal_set(g), (std::set<std::string>{"pass", "X1,1", "X3,1"}));
  g = replay(g, {"X3,1"});
  EXPECT_EQ(legal_set(g), (std::set<std::string>{"M2,1E", "M3,2S", "M4,1W"}));
  g = replay(g, {"M4,1W"});
  EXPECT_EQ(g.to_act(), Player::kP1);
  EXPECT_EQ(g.phase(), Phase::kPlace);
  EXPECT_EQ(g.pawn_at(1, 1), 1) << "still surrounded, still on the board";
  EXPECT_EQ(g.captures(0), 1);
}

TEST(LignesRules, NoMoveAfterPlacementLosesAtOnce) {
  // D D L: Light has no alignment move. Placing above (0,0) leaves none either.
  const Lignes g = Lignes::from_diagram("DDL", 0, 0, 10, 0, Phase::kPlace);
  const Lignes lost = replay(g, {"P0,1"});
  ASSERT_TRUE(lost.is_terminal());
  EXPECT_EQ(lost.outcome(), Outcome::kP1Win);
  EXPECT_TRUE(legal_set(lost).empty());
  // Placing east of the L makes D D L L: 2 v 2, a legal move, the game goes on.
  const Lignes alive = replay(g, {"P3,0"});
  EXPECT_FALSE(alive.is_terminal());
  EXPECT_EQ(moves_of(alive), (std::set<std::string>{"M3,0E"}));
}

TEST(LignesRules, EndAfterPawnFortyMoreCapturesWinsEqualDraws) {
  for (const auto& [light, dark, expected] :
       {std::tuple{2, 1, Outcome::kP0Win}, std::tuple{1, 3, Outcome::kP1Win},
        std::tuple{2, 2, Outcome::kDraw}}) {
    const Lignes g = Lignes::from_diagram("LLDD", 0, 0, 39, 1, Phase::kPlace, light, dark);
    Lignes after = replay(g, {"P4,0"});
    EXPECT_FALSE(after.is_terminal()) << "the turn of pawn 40 is not complete yet";
    after = replay(after, {"M4,0E"});
    ASSERT_TRUE(after.is_terminal());
    EXPECT_EQ(after.outcome(), expected);
  }
}

TEST(LignesRules, ActionStringsAreStrict) {
  const Lignes g = replay(Lignes{}, {"P0,0"});
  for (const char* bad : {"P+1,0", "P01,0", "P-0,1", "P1,", "P1;0", "p1,0", "P1,0 ", "M0,0",
                          "M0,0X", "X0", "Pass", "P 1,0"})
    EXPECT_FALSE(g.parse_action(bad).has_value()) << bad;
  EXPECT_EQ(g.action_to_string(*g.parse_action("P-1,0")), "P-1,0");
  EXPECT_EQ(g.action_to_string(*g.parse_action("M-12,3W")), "M-12,3W");
}

TEST(LignesRules, TheWindowNeverRefusesAnAction) {
  // Runs far from the origin in every direction: the move and the placements beyond it
  // are legal and land where they should (the window re-centres as needed).
  for (int d = -40; d <= 40; d += 4) {
    Lignes east = Lignes::from_diagram("LL", d, d, 9, 0, Phase::kMove);
    east = replay(east, {"M" + std::to_string(d + 1) + "," + std::to_string(d) + "E"});
    EXPECT_EQ(east.pawn_at(d + 2, d), 0);
    EXPECT_TRUE(legal_set(east).count("P" + std::to_string(d + 3) + "," + std::to_string(d)));
    Lignes south = Lignes::from_diagram("L/L", d, d, 9, 0, Phase::kMove);
    south = replay(south, {"M" + std::to_string(d) + "," + std::to_string(d) + "S"});
    EXPECT_EQ(south.pawn_at(d, d - 1), 0);
    EXPECT_TRUE(legal_set(south).count("P" + std::to_string(d) + "," + std::to_string(d - 2)));
  }
}

}  // namespace
}  // namespace azg
