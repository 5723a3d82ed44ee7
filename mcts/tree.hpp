#pragma once
// The search tree: nodes in one arena addressed by index, each node's children in one
// contiguous block, no allocation per node (the arena grows geometrically, reserved up
// front for the expected size).
#include <cstdint>
#include <vector>

#include "env/common/game.hpp"

namespace azg::mcts {

inline constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;

struct Node {
  std::uint32_t parent = kNoNode;
  std::uint32_t first_child = 0;
  std::uint16_t num_children = 0;
  std::uint8_t flags = 0;
  // The player who chose this node at its parent: value_sum is from his point of view
  // (player 0's when the parent is a chance node). Backups go by this identity, never by
  // depth parity, because a player may act several times in a row.
  Player chooser = Player::kP0;
  Action action = 0;
  float prior = 0.0f;  // policy prior, or the outcome's probability below a chance node
  float value_sum = 0.0f;
  std::int32_t visits = 0;
  std::int32_t in_flight = 0;  // simulations through this node awaiting evaluation

  static constexpr std::uint8_t kExpanded = 1, kPending = 2, kChance = 4;
  bool expanded() const { return flags & kExpanded; }
  bool pending() const { return flags & kPending; }
  bool is_chance() const { return flags & kChance; }
  Player value_view() const { return chooser == Player::kChance ? Player::kP0 : chooser; }
};

class Tree {
 public:
  void reset(std::size_t reserve) {
    nodes_.clear();
    if (nodes_.capacity() < reserve) nodes_.reserve(reserve);
    nodes_.emplace_back();
  }
  Node& operator[](std::uint32_t i) { return nodes_[i]; }
  const Node& operator[](std::uint32_t i) const { return nodes_[i]; }
  std::size_t size() const { return nodes_.size(); }

  // Appends `n` children for `parent`; returns the index of the first.
  std::uint32_t add_children(std::uint32_t parent, std::size_t n) {
    const auto first = static_cast<std::uint32_t>(nodes_.size());
    nodes_.resize(nodes_.size() + n);
    for (std::size_t i = 0; i < n; ++i) nodes_[first + i].parent = parent;
    nodes_[parent].first_child = first;
    nodes_[parent].num_children = static_cast<std::uint16_t>(n);
    return first;
  }

  // Keeps only the subtree below `new_root`, compacted to the front, as the whole tree.
  void reroot(std::uint32_t new_root) {
    scratch_.clear();
    scratch_.reserve(nodes_.size());
    scratch_.push_back(nodes_[new_root]);
    scratch_[0].parent = kNoNode;
    // Breadth first: each copied node's children are copied as one block behind it.
    for (std::size_t i = 0; i < scratch_.size(); ++i) {
      Node& copy = scratch_[i];
      if (copy.num_children == 0) continue;
      const std::uint32_t old_first = copy.first_child;
      copy.first_child = static_cast<std::uint32_t>(scratch_.size());
      for (std::uint32_t c = 0; c < copy.num_children; ++c) {
        scratch_.push_back(nodes_[old_first + c]);
        scratch_.back().parent = static_cast<std::uint32_t>(i);
      }
    }
    nodes_.swap(scratch_);
  }

 private:
  std::vector<Node> nodes_;
  std::vector<Node> scratch_;
};

}  // namespace azg::mcts
