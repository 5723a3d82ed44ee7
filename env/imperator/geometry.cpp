#include "env/imperator/geometry.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/error.hpp"

namespace azg::imperator {

int Geometry::index(const std::string& name) const {
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (cells[i].name == name) return static_cast<int>(i);
  return -1;
}

Geometry build_geometry(int n) {
  Geometry g;
  g.side = n;
  // Vertices: (row v, doubled x).
  std::map<std::pair<int, int>, int> vertex_id;
  std::vector<std::pair<int, int>> vertex_at;
  auto row_start = [n](int v) { return v <= n ? -v : v - 2 * n; };
  auto row_length = [n](int v) { return v <= n ? n + 1 + v : 3 * n + 1 - v; };
  for (int v = 0; v <= 2 * n; ++v)
    for (int k = 0; k < row_length(v); ++k) {
      vertex_id[{v, row_start(v) + 2 * k}] = static_cast<int>(vertex_at.size());
      vertex_at.push_back({v, row_start(v) + 2 * k});
    }
  auto vid = [&](int v, int x) {
    const auto it = vertex_id.find({v, x});
    return it == vertex_id.end() ? -1 : it->second;
  };
  // Cells, row by row, left to right by centroid.
  for (int r = 0; r < 2 * n; ++r) {
    std::vector<std::pair<int, Cell>> row;  // (doubled centroid x, cell)
    for (int k = 0; k < row_length(r); ++k) {
      const int x = row_start(r) + 2 * k;
      // Up: two vertices below, one above; down: one below, two above.
      const int a = vid(r, x), b = vid(r, x + 2), top = vid(r + 1, x + 1);
      if (a >= 0 && b >= 0 && top >= 0) {
        Cell c;
        c.up = true;
        c.vertices = {a, b, top};
        row.push_back({x + 1, c});
      }
    }
    for (int k = 0; k < row_length(r + 1); ++k) {
      const int x = row_start(r + 1) + 2 * k;
      const int a = vid(r + 1, x), b = vid(r + 1, x + 2), bottom = vid(r, x + 1);
      if (a >= 0 && b >= 0 && bottom >= 0) {
        Cell c;
        c.up = false;
        c.vertices = {bottom, a, b};
        row.push_back({x + 1, c});
      }
    }
    std::sort(row.begin(), row.end(),
              [](const auto& p, const auto& q) { return p.first < q.first; });
    g.row_sizes.push_back(static_cast<int>(row.size()));
    for (std::size_t i = 0; i < row.size(); ++i) {
      Cell c = row[i].second;
      c.row = r;
      c.number = static_cast<int>(i) + 1;
      c.name = std::string(1, static_cast<char>('a' + r)) + std::to_string(c.number);
      g.cells.push_back(c);
    }
  }
  const int cells = static_cast<int>(g.cells.size());
  // Edges: neighbours share two vertices; an edge used by one cell only is a rim side.
  std::map<std::pair<int, int>, std::vector<int>> edges;
  for (int i = 0; i < cells; ++i) {
    const auto& v = g.cells[i].vertices;
    for (int e = 0; e < 3; ++e) {
      const int p = v[e], q = v[(e + 1) % 3];
      edges[{std::min(p, q), std::max(p, q)}].push_back(i);
    }
  }
  for (const auto& [edge, users] : edges) {
    if (users.size() == 2) {
      g.cells[users[0]].neighbours.push_back(users[1]);
      g.cells[users[1]].neighbours.push_back(users[0]);
    } else {
      g.cells[users[0]].rim = true;
    }
  }
  for (auto& c : g.cells) std::sort(c.neighbours.begin(), c.neighbours.end());
  // Positions in real coordinates (x, y) for angles.
  auto position = [&](int vertex) {
    return std::pair<double, double>{vertex_at[vertex].second / 2.0,
                                     vertex_at[vertex].first * std::sqrt(3.0) / 2.0};
  };
  auto centroid = [&](int cell) {
    double x = 0, y = 0;
    for (const int v : g.cells[cell].vertices) {
      x += position(v).first / 3;
      y += position(v).second / 3;
    }
    return std::pair<double, double>{x, y};
  };
  // Rim order: anticlockwise by angle about the centre, starting at a2.
  std::vector<int> rim;
  for (int i = 0; i < cells; ++i)
    if (g.cells[i].rim) rim.push_back(i);
  double cx = 0, cy = 0;
  for (int i = 0; i < cells; ++i) {
    cx += centroid(i).first / cells;
    cy += centroid(i).second / cells;
  }
  auto angle = [&](int cell) {
    const auto [x, y] = centroid(cell);
    return std::atan2(y - cy, x - cx);
  };
  std::sort(rim.begin(), rim.end(), [&](int a, int b) { return angle(a) < angle(b); });
  const int start = g.index("a2");
  std::rotate(rim.begin(), std::find(rim.begin(), rim.end(), start), rim.end());
  g.rim_order = rim;
  for (std::size_t k = 0; k < rim.size(); ++k) g.cells[rim[k]].protects = static_cast<int>(k % 2);
  // Pies: the cells around each vertex in angular order; a rim vertex's pie is a path.
  g.pies.assign(vertex_at.size(), Pie{});
  g.corners.resize(cells);
  for (int i = 0; i < cells; ++i)
    for (int e = 0; e < 3; ++e) {
      g.pies[g.cells[i].vertices[e]].cells.push_back(i);
      g.corners[i][e] = g.cells[i].vertices[e];
    }
  for (std::size_t v = 0; v < g.pies.size(); ++v) {
    auto& pie = g.pies[v].cells;
    // Plain variables, not a structured binding: clang before 16 cannot capture those.
    const auto vertex = position(static_cast<int>(v));
    const auto vx = vertex.first, vy = vertex.second;
    std::sort(pie.begin(), pie.end(), [&](int a, int b) {
      return std::atan2(centroid(a).second - vy, centroid(a).first - vx) <
             std::atan2(centroid(b).second - vy, centroid(b).first - vx);
    });
    auto adjacent = [&](int a, int b) {
      const auto& nb = g.cells[a].neighbours;
      return std::find(nb.begin(), nb.end(), b) != nb.end();
    };
    g.pies[v].cycle = pie.size() == 6;
    if (!g.pies[v].cycle && pie.size() > 1) {
      // Open the cycle at the gap (two angular neighbours that share no edge).
      for (std::size_t k = 0; k < pie.size(); ++k)
        if (!adjacent(pie[k], pie[(k + 1) % pie.size()])) {
          std::rotate(pie.begin(), pie.begin() + static_cast<long>((k + 1) % pie.size()),
                      pie.end());
          break;
        }
    }
  }
  // The symmetries, by centroids: rotate about the centre, mirror in the vertical axis.
  constexpr double kPi = 3.14159265358979323846;
  for (int s = 0; s < 12; ++s) {
    const double turn = kPi / 3 * (s % 6);
    const bool mirror = s >= 6;
    std::vector<int> image(cells, -1);
    for (int i = 0; i < cells; ++i) {
      double x = centroid(i).first - cx, y = centroid(i).second - cy;
      if (mirror) x = -x;
      const double u = cx + x * std::cos(turn) - y * std::sin(turn),
                   w = cy + x * std::sin(turn) + y * std::cos(turn);
      for (int j = 0; j < cells; ++j)
        if (std::abs(centroid(j).first - u) < 1e-6 && std::abs(centroid(j).second - w) < 1e-6)
          image[i] = j;
      if (image[i] < 0)
        throw Error("imperator geometry: symmetry " + std::to_string(s) + " leaves the board");
    }
    int kept = 0, swapped = 0;
    for (const int c : g.rim_order)
      (g.cells[image[c]].protects == g.cells[c].protects ? kept : swapped)++;
    if (kept != 0 && swapped != 0)
      throw Error("imperator geometry: symmetry " + std::to_string(s) + " mixes rim protections");
    g.symmetries.push_back(std::move(image));
    g.symmetry_swaps_colours.push_back(swapped != 0);
  }
  return g;
}

const Geometry& geometry(int side) {
  static const Geometry boards[] = {build_geometry(3), build_geometry(4), build_geometry(5)};
  if (side < 3 || side > 5)
    throw Error("imperator boards have side 3, 4 or 5, not " + std::to_string(side));
  return boards[side - 3];
}

}  // namespace azg::imperator
