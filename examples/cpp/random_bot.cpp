// Isle Arena starter bot in C++: plays a random legal action. See README.md.
#include <random>
#include <string>

#include "arena.hpp"

int main() {
  std::mt19937 rng(0);
  arena::run(
      "random starter (c++)",
      [&](const arena::Value& start) { rng.seed(start["seat"].as_int() + 1); },
      [&](const arena::Value& decide) {
        std::uniform_int_distribution<size_t> pick(0, decide["legal"].size() - 1);
        return "{\"index\": " + std::to_string(pick(rng)) + "}";
      });
}
