// A probe bot (tests/workers/test_game_data_probes.py): reads game_data through the C++ kit's
// helper (examples/cpp/arena.hpp, arena::GameData) and exits with status 1, a fault, when a
// card's cost, a boat's cells or a tile's shape is missing, or when a legal placement or a
// placed tile leaves its boat's cells. It plays the first legal action, noting what it checked.
#include <cstdlib>
#include <iostream>
#include <string>

#include "arena.hpp"

namespace {

arena::GameData data;
int seat = 0;
int placements = 0, tiles = 0;

void fail(const std::string& why) {
  std::cerr << "probe: " << why << std::endl;
  std::exit(1);
}

void on_start(const arena::Value& start) {
  if (!start.has("game_data")) fail("no game_data in start");
  data = arena::GameData::load(start);
  seat = start["seat"].as_int();
  const std::string mode = start["mode"].str();
  if (data.cards.empty()) fail("no cards");
  bool priced = false;
  for (const auto& entry : start["game_data"]["cards"].items) {
    if (!entry.has("cost")) fail("a card without its cost");
  }
  for (const auto& [id, card] : data.cards) priced = priced || card.cost > 0;
  if ((mode == "standard" || mode == "solo") && !priced) fail("no card has a price");
  if (data.boats.empty()) fail("no boats");
  for (const auto& [name, boat] : data.boats) {
    if (boat.cells.size() < 100) fail("boat " + name + " without its cells");
  }
}

std::string on_decide(const arena::Value& message) {
  const arena::Value& players = message["observation"]["players"];
  for (const arena::Value& player : players.items) {
    auto boat = data.boats.find(player["boat"].str());
    for (const arena::Value& tile : player["tiles"].items) {
      if (boat == data.boats.end() || !data.shapes.count(tile["shape"].str())) fail("unknown shape or boat");
      for (const arena::Cell& c : arena::cells_of(tile["cells"])) {
        if (!boat->second.contains(c)) fail("a tile off its boat");
      }
      ++tiles;
    }
  }
  auto mine = data.boats.find(players[seat]["boat"].str());
  for (const arena::Value& action : message["legal"].items) {
    if (!action.has("cells")) continue;
    if (mine == data.boats.end()) fail("a placement without my boat");
    for (const arena::Cell& c : arena::cells_of(action["cells"])) {
      if (!mine->second.contains(c)) fail("a placement off my boat");
    }
    ++placements;
  }
  return "{\"index\": 0, \"debug\": \"placements " + std::to_string(placements) + " tiles " +
         std::to_string(tiles) + "\"}";
}

}  // namespace

int main() {
  arena::run("game data probe (c++)", on_start, on_decide);
}
