/* Isle Arena starter bot in C with a few simple ideas, uploaded as a static executable
 * (the same ideas as the Python, JavaScript and C++ heuristic starters). See README.md.
 *
 * - placing a tile: next to tiles of its colour on our boat (families score), touching as
 *   many placed tiles as possible, filling the boat from its stern (low x);
 * - otherwise prefer actions that gain something (keep, rescue, take, treasures...) over
 *   giving up a turn (pass, done, decline, skip, end_turn); buy cards only when rich. */
#include "arena.h"

#define BOAT 32 /* boats are smaller than 32 x 32 cells */
#define RICH 10 /* fish needed before buying more cards */

static const struct { const char *kind; int rank; } KIND_RANK[] = {
    {"keep", 0}, {"choose_boat", 0}, {"lesson_colour", 0}, {"discard_lessons", 0},
    {"remove_treasures", 0}, {"return_cat", 0}, {"choose_rescue", 1}, {"take_treasure", 2},
    {"treasure", 3}, {"oshax", 3}, {"rescue", 4}, {"take", 4}, {"select", 4}, {"place", 5},
    {"move", 10}, {"fish_action", 60}, {"play", 70}, {"buy", 80}, {"done", 90}, {"pass", 95},
    {"decline", 95}, {"skip", 95}, {"end_turn", 99}};

static int seat = 0;
static unsigned long long state = 1;

static size_t pick(size_t n) {
  state = state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (size_t)((state >> 33) % n);
}

static int rank(const json *obs, const json *action) {
  const char *kind = json_str(json_get(action, "kind"));
  if (strcmp(kind, "buy") == 0) {
    const json *fish = json_get(json_get(obs, "you"), "fish");
    if (fish->kind != J_NUMBER) fish = json_get(json_at(json_get(obs, "players"), seat), "fish");
    if (json_int(fish) >= RICH) return 6;
  }
  for (size_t i = 0; i < sizeof KIND_RANK / sizeof KIND_RANK[0]; i++)
    if (strcmp(kind, KIND_RANK[i].kind) == 0) return KIND_RANK[i].rank;
  return 50;
}

/* Our boat as a grid of colours: "" for an empty cell. */
static const char *grid[BOAT][BOAT];

static void fill_grid(const json *obs) {
  memset(grid, 0, sizeof grid);
  const json *tiles = json_get(json_at(json_get(obs, "players"), seat), "tiles");
  if (tiles->kind != J_ARRAY) tiles = json_get(json_at(json_get(obs, "boats"), seat), "tiles");
  for (const json *tile = tiles->child; tile; tile = tile->next) {
    const char *colour = json_str(json_get(tile, "colour"));
    for (const json *cell = json_get(tile, "cells")->child; cell; cell = cell->next) {
      int x = json_int(json_at(cell, 0)), y = json_int(json_at(cell, 1));
      if (x >= 0 && x < BOAT && y >= 0 && y < BOAT) grid[x][y] = colour;
    }
  }
}

static const char *holding(const json *obs) {
  const json *tiles[3] = {json_get(json_get(obs, "decision"), "tile"), json_get(obs, "held"),
                          json_get(json_get(obs, "turn"), "placing")};
  for (int i = 0; i < 3; i++)
    if (tiles[i]->kind == J_OBJECT) return json_str(json_get(tiles[i], "colour"));
  return "";
}

static double placement_score(const json *cells, const char *colour) {
  static int mine[BOAT][BOAT], seen[BOAT][BOAT], stamp = 0;
  double score = 0;
  stamp++;
  for (const json *cell = cells->child; cell; cell = cell->next) {
    int x = json_int(json_at(cell, 0)), y = json_int(json_at(cell, 1));
    if (x >= 0 && x < BOAT && y >= 0 && y < BOAT) mine[x][y] = stamp;
  }
  for (const json *cell = cells->child; cell; cell = cell->next) {
    int x = json_int(json_at(cell, 0)), y = json_int(json_at(cell, 1));
    int around[4][2] = {{x + 1, y}, {x - 1, y}, {x, y + 1}, {x, y - 1}};
    score -= 0.01 * x;
    for (int k = 0; k < 4; k++) {
      int nx = around[k][0], ny = around[k][1];
      if (nx < 0 || nx >= BOAT || ny < 0 || ny >= BOAT) continue;
      if (mine[nx][ny] == stamp || seen[nx][ny] == stamp || !grid[nx][ny]) continue;
      seen[nx][ny] = stamp;
      score += (*colour && strcmp(grid[nx][ny], colour) == 0) ? 3 : 1;
    }
  }
  return score;
}

static void decide(const json *message) {
  const json *obs = json_get(message, "observation"), *legal = json_get(message, "legal");
  size_t n = legal->count, *options = malloc((n ? n : 1) * sizeof *options), kept = 0;
  double *scores = malloc((n ? n : 1) * sizeof *scores), top = -1e9;
  int best = 1000;
  const json *action;
  for (action = legal->child; action; action = action->next) {
    int r = rank(obs, action);
    if (r < best) best = r;
  }
  size_t i = 0;
  for (action = legal->child; action; action = action->next, i++)
    if (rank(obs, action) == best) options[kept++] = i;
  const char *kind = json_str(json_get(json_at(legal, options[0]), "kind"));
  char note[160];
  snprintf(note, sizeof note, "%s (rank %d)", kind, best);
  if (strcmp(kind, "place") == 0) {
    const char *colour = holding(obs);
    fill_grid(obs);
    for (i = 0; i < kept; i++) {
      scores[i] = placement_score(json_get(json_at(legal, options[i]), "cells"), colour);
      if (scores[i] > top) top = scores[i];
    }
    size_t m = 0;
    for (i = 0; i < kept; i++)
      if (scores[i] >= top - 1e-9) options[m++] = options[i];
    kept = m;
    snprintf(note, sizeof note, "place %s: score %.1f", *colour ? colour : "tile", top);
  }
  char out[256];
  snprintf(out, sizeof out, "{\"index\": %zu, \"debug\": \"%s\"}", options[pick(kept)], note);
  reply(out);
  free(options);
  free(scores);
}

int main(void) {
  char *line;
  while ((line = read_line()) != NULL) {
    json *message = json_parse(line);
    free(line);
    if (!message) return 1;
    const char *type = json_str(json_get(message, "type"));
    if (strcmp(type, "start") == 0) {
      seat = json_int(json_get(message, "seat"));
      state = (unsigned long long)seat + 1;
      reply("{\"ready\": true, \"name\": \"heuristic starter (c)\"}");
    } else if (strcmp(type, "decide") == 0) {
      decide(message);
    } else if (strcmp(type, "end") == 0) {
      json_free(message);
      return 0;
    }
    json_free(message);
  }
  return 0;
}
