// For tests/workers/test_game_data_probes.py: one case a line on stdin ({"game_data", "shape",
// "boat", "occupied"}), the C++ kit's placements of it on stdout, one JSON line each.
#include <iostream>
#include <set>
#include <string>

#include "arena.hpp"

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    arena::Value c = arena::parse(line);
    std::set<arena::Cell> occupied;
    for (const arena::Cell& x : arena::cells_of(c["occupied"])) occupied.insert(x);
    auto all = arena::GameData::load(c).placements(c["shape"].str(), c["boat"].str(), occupied);
    std::string out = "[";
    for (size_t i = 0; i < all.size(); ++i) {
      out += i ? ",[" : "[";
      for (size_t j = 0; j < all[i].size(); ++j) {
        out += (j ? ",[" : "[") + std::to_string(all[i][j].x) + "," + std::to_string(all[i][j].y) + "]";
      }
      out += "]";
    }
    std::cout << out << "]" << std::endl;
  }
}
