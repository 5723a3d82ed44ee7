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
  std::vector<Pie> pies;                     // per vertex
  std::vector<std::array<int, 3>> corners;   // per cell: its three vertex ids
  std::vector<int> rim_order;                // rim cells anticlockwise from a2
  std::vector<int> row_sizes;
  std::vector<int> half_turn;                // cell -> its image under a half turn

  int index(const std::string& name) const;  // -1 when unknown
};

Geometry build_geometry(int side);
// The default board (side 4), built once.
const Geometry& default_geometry();

}  // namespace azg::imperator
