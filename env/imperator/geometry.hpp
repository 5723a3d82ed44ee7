#pragma once
// Imperator's board as data, built from triangular-lattice coordinates for a side length:
// cell names, orientation, edge neighbours, rim sides and their protection, vertex pies.
// Vertices sit on rows v = 0..2n; in doubled x-units a vertex row v starts at -v (v <= n)
// or v - 2n (v > n) and its vertices are 2 apart. A cell is a triangle of three vertices.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace azg::imperator {

struct Cell {
  int row = 0, number = 0;  // row a = 0; numbers from 1 at the left
  bool up = false;          // horizontal edge at the bottom
  std::array<int, 3> vertices{};
  std::vector<int> neighbours;  // cells sharing an edge (2 or 3)
  bool rim = false;             // one edge on the hexagon's boundary
  int protects = -1;            // rim cells: 0 (holed, protects Red) or 1 (plain, protects White)
  std::string name;
};

struct Pie {
  std::vector<int> cells;  // in cyclic order around the vertex
  bool cycle = false;      // interior vertex (a full turn) or rim vertex (a path)
};

struct Geometry {
  int side = 4;
  std::vector<Cell> cells;
  std::vector<Pie> pies;                    // per vertex
  std::vector<std::array<int, 3>> corners;  // per cell: its three vertex ids
  std::vector<int> rim_order;               // rim cells anticlockwise from a2
  std::vector<int> row_sizes;
  // The hexagon's 12 symmetries as cell permutations: 0 identity, 1..5 rotations by
  // 60 degrees x k (anticlockwise), 6..11 the left-right mirror followed by rotation
  // k - 6. Each either keeps every rim cell's protection or swaps every one of them
  // (then it maps a position onto one with the players' colours exchanged).
  std::vector<std::vector<int>> symmetries;
  std::vector<bool> symmetry_swaps_colours;

  int index(const std::string& name) const;  // -1 when unknown
};

Geometry build_geometry(int side);
// The board of side 3, 4 or 5, built once (throws azg::Error for another side).
const Geometry& geometry(int side);
// The default board (side 4).
inline const Geometry& default_geometry() {
  return geometry(4);
}

// Cell `cell`'s column when each row's cells are centred on a grid `width` columns wide
// (the planes' layout and the text picture).
inline int column_of(const Geometry& g, int width, int cell) {
  const auto& c = g.cells[cell];
  return (width - g.row_sizes[c.row]) / 2 + c.number - 1;
}

}  // namespace azg::imperator
