// Isle Arena starter bot in C++ with a few simple ideas (the same as the Python and
// JavaScript heuristic starters). See README.md.
//
// * placing a tile: next to tiles of its colour on our boat (families score), touching as
//   many placed tiles as possible, filling the boat from its stern (low x);
// * otherwise prefer actions that gain something (keep, rescue, take, treasures...) over
//   giving up a turn (pass, done, decline, skip, end_turn), and buy cards only when rich.
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "arena.hpp"

using arena::Value;

static const std::map<std::string, int> KIND_RANK = {
    {"keep", 0}, {"choose_boat", 0}, {"lesson_colour", 0}, {"discard_lessons", 0},
    {"remove_treasures", 0}, {"return_cat", 0}, {"choose_rescue", 1}, {"take_treasure", 2},
    {"treasure", 3}, {"oshax", 3}, {"rescue", 4}, {"take", 4}, {"select", 4}, {"place", 5},
    {"move", 10}, {"fish_action", 60}, {"play", 70}, {"buy", 80}, {"done", 90}, {"pass", 95},
    {"decline", 95}, {"skip", 95}, {"end_turn", 99}};
static const int RICH = 10;  // fish needed before buying more cards

// Protocol 2 (arena::run chooses it): "you" is our own player in every mode.
static const Value& my_tiles(const Value& obs) { return obs["you"]["tiles"]; }

static int my_fish(const Value& obs) {
  return obs["you"]["fish"].kind == Value::Number ? obs["you"]["fish"].as_int() : 0;
}

static const Value& holding(const Value& obs) {
  for (const Value* tile : {&obs["decision"]["tile"], &obs["held"], &obs["turn"]["placing"]}) {
    if (tile->kind == Value::Object) return *tile;
  }
  return obs["held"];
}

static int rank(const Value& obs, const Value& action) {
  const std::string& kind = action["kind"].str();
  if (kind == "buy" && my_fish(obs) >= RICH) return 6;
  auto it = KIND_RANK.find(kind);
  return it == KIND_RANK.end() ? 50 : it->second;
}

int main() {
  std::mt19937 rng(0);
  arena::run(
      "heuristic starter (c++)",
      [&](const Value& start) { rng.seed(start["seat"].as_int() + 1); },
      [&](const Value& message) {
        const Value& obs = message["observation"];
        const Value& legal = message["legal"];
        std::vector<int> ranks;
        int best = 1000;
        for (const Value& action : legal.items) {
          ranks.push_back(rank(obs, action));
          best = std::min(best, ranks.back());
        }
        std::vector<size_t> options;
        for (size_t i = 0; i < ranks.size(); ++i)
          if (ranks[i] == best) options.push_back(i);
        std::string kind = legal[options[0]]["kind"].str();
        const std::string asked = obs["decision"]["decision"].str();  // in every mode
        std::string note = kind + " (rank " + std::to_string(best) + ")";
        if (kind == "place") {
          std::map<std::pair<int, int>, std::string> occupied;  // cell -> colour
          for (const Value& tile : my_tiles(obs).items)
            for (const Value& cell : tile["cells"].items)
              occupied[{cell[0].as_int(), cell[1].as_int()}] = tile["colour"].str();
          const std::string& colour = holding(obs)["colour"].str();
          std::vector<double> scores;
          double top = -1e9;
          for (size_t i : options) {
            std::set<std::pair<int, int>> mine, seen;
            double score = 0;
            for (const Value& cell : legal[i]["cells"].items) mine.insert({cell[0].as_int(), cell[1].as_int()});
            for (auto [x, y] : mine) {
              score -= 0.01 * x;
              for (auto n : {std::make_pair(x + 1, y), std::make_pair(x - 1, y),
                             std::make_pair(x, y + 1), std::make_pair(x, y - 1)}) {
                auto it = occupied.find(n);
                if (mine.count(n) || seen.count(n) || it == occupied.end()) continue;
                seen.insert(n);
                score += !colour.empty() && it->second == colour ? 3 : 1;
              }
            }
            scores.push_back(score);
            top = std::max(top, score);
          }
          std::vector<size_t> kept;
          for (size_t k = 0; k < options.size(); ++k)
            if (scores[k] >= top - 1e-9) kept.push_back(options[k]);
          options = kept;
          note = "place " + (colour.empty() ? std::string("tile") : colour) + ": score " +
                 std::to_string(static_cast<int>(top * 10) / 10.0).substr(0, 5);
        }
        std::uniform_int_distribution<size_t> pick(0, options.size() - 1);
        return "{\"index\": " + std::to_string(options[pick(rng)]) +
               ", \"debug\": " + arena::quote(asked + ": " + note) + "}";
      });
}
