// env/common: lists, random numbers, strict integers, notation helpers, symmetries.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "core/rng.hpp"
#include "core/strict_int.hpp"
#include "env/common/fixed_list.hpp"
#include "env/common/game.hpp"
#include "env/common/notation.hpp"
#include "env/common/square_symmetry.hpp"
#include "env/lignes/lignes.hpp"

namespace azg {
namespace {

TEST(FixedList, PushIterateClear) {
  FixedList<int, 4> list;
  EXPECT_TRUE(list.empty());
  list.push_back(3);
  list.push_back(5);
  ASSERT_EQ(list.size(), 2u);
  int sum = 0;
  for (const int v : list) sum += v;
  EXPECT_EQ(sum, 8);
  list.clear();
  EXPECT_TRUE(list.empty());
}

TEST(Rng, SameSeedSameStreamAndFairBelow) {
  Rng a(7), b(7), c(8);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(a.next(), b.next());
  EXPECT_NE(a.next(), c.next());
  Rng r(1);
  int counts[6] = {};
  for (int i = 0; i < 60000; ++i) {
    const auto v = r.below(6);
    ASSERT_LT(v, 6u);
    ++counts[v];
  }
  for (const int n : counts) EXPECT_NEAR(n, 10000, 400);
  for (int i = 0; i < 1000; ++i) {
    const double u = r.uniform();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(Rng, StateRoundTrips) {
  Rng a(99);
  a.next();
  Rng b(0);
  b.set_state(a.state());
  EXPECT_EQ(a.next(), b.next());
}

std::optional<int> parse_all(std::string_view text) {
  std::size_t pos = 0;
  const auto v = parse_strict_int(text, pos, 1000);
  if (!v || pos != text.size()) return std::nullopt;
  return v;
}

TEST(StrictInt, AcceptsOnlyCanonicalDecimal) {
  EXPECT_EQ(parse_all("0"), 0);
  EXPECT_EQ(parse_all("17"), 17);
  EXPECT_EQ(parse_all("-3"), -3);
  EXPECT_EQ(parse_all("1000"), 1000);
  for (const char* bad : {"", "-", "-0", "+1", "01", "-01", "1001", "1a", " 1", "00"})
    EXPECT_FALSE(parse_all(bad).has_value()) << bad;
}

TEST(Notation, SplitWords) {
  EXPECT_EQ(split_words("  a1  b2\tc3\n"), (std::vector<std::string>{"a1", "b2", "c3"}));
  EXPECT_TRUE(split_words("   ").empty());
}

TEST(SquareSymmetry, EightDistinctMapsOfTheBoard) {
  std::set<std::vector<int>> images;
  for (int s = 0; s < kSquareSymmetries; ++s) {
    std::vector<int> image;
    for (int y = 0; y < 8; ++y)
      for (int x = 0; x < 8; ++x) {
        int tx = x, ty = y;
        square_symmetry(s, tx, ty, 7);
        ASSERT_TRUE(tx >= 0 && tx < 8 && ty >= 0 && ty < 8);
        image.push_back(ty * 8 + tx);
      }
    EXPECT_EQ(std::set<int>(image.begin(), image.end()).size(), 64u) << "not a bijection";
    if (s == 0) {
      for (int i = 0; i < 64; ++i) EXPECT_EQ(image[i], i);
    }
    images.insert(image);
  }
  EXPECT_EQ(images.size(), 8u);
}

TEST(Outcome, ValuesAndStrings) {
  EXPECT_EQ(outcome_value(Outcome::kP0Win, Player::kP0), 1.0f);
  EXPECT_EQ(outcome_value(Outcome::kP0Win, Player::kP1), -1.0f);
  EXPECT_EQ(outcome_value(Outcome::kP1Win, Player::kP1), 1.0f);
  EXPECT_EQ(outcome_value(Outcome::kDraw, Player::kP0), 0.0f);
  EXPECT_EQ(outcome_string(Outcome::kP1Win), "0-1");
  EXPECT_EQ(outcome_string(Outcome::kDraw), "1/2-1/2");
  EXPECT_EQ(swapped(Outcome::kP0Win), Outcome::kP1Win);
  EXPECT_EQ(swapped(Outcome::kP1Win), Outcome::kP0Win);
  EXPECT_EQ(swapped(Outcome::kDraw), Outcome::kDraw);
  for (Outcome o : {Outcome::kP0Win, Outcome::kP1Win, Outcome::kDraw})
    EXPECT_EQ(outcome_value(swapped(o), Player::kP1), outcome_value(o, Player::kP0))
        << "the other colour's view of the exchanged result";
}

// Bad input is quoted back on one line and cut to 80 characters, its length said.
TEST(ErrorText, QuotesBadInputShortAndOnOneLine) {
  EXPECT_EQ(quote_input("P0,0"), "'P0,0'");
  EXPECT_EQ(quote_input("a\nb\tc"), "'a?b?c'");
  const std::string huge(100000, 'x');
  const std::string q = quote_input(huge);
  EXPECT_EQ(q, "'" + std::string(80, 'x') + "...' (100000 characters)");
  try {
    replay(Lignes::from_setup(""), {"P0,0", huge});
    FAIL() << "a malformed action is an error";
  } catch (const Error& e) {
    EXPECT_LT(std::string(e.what()).size(), 200u) << e.what();
  }
}

}  // namespace
}  // namespace azg
