/* A probe bot (tests/workers/test_game_data_probes.py): reads game_data through the C kit's
 * look-ups (examples/binary/arena.h) and exits with status 1, a fault, when a card's cost, a
 * boat's cells or a tile's shape is missing, or when a legal placement or a placed tile leaves
 * its boat's cells. It plays the first legal action, noting what it checked. */
#include "arena.h"

static json *start = NULL;
static const json *data = NULL;
static int placements = 0, tiles = 0;

static void fail(const char *why) {
  fprintf(stderr, "probe: %s\n", why);
  exit(1);
}

static void on_start(void) {
  data = json_get(start, "game_data");
  if (data->kind != J_OBJECT) fail("no game_data in start");
  const char *mode = json_str(json_get(start, "mode"));
  int priced = 0;
  const json *cards = json_get(data, "cards");
  if (cards->count == 0) fail("no cards");
  for (const json *c = cards->child; c; c = c->next) {
    if (json_get(c, "cost") == &json_none) fail("a card without its cost");
    if (game_card_cost(data, json_int(json_get(c, "id"))) > 0) priced = 1;
  }
  if ((strcmp(mode, "standard") == 0 || strcmp(mode, "solo") == 0) && !priced) fail("no card has a price");
  const json *boats = json_get(data, "boats");
  if (boats->count == 0) fail("no boats");
  for (const json *b = boats->child; b; b = b->next)
    if (json_get(b, "cells")->count < 100) fail("a boat without its cells");
}

static void on_decide(const json *message) {
  int seat = json_int(json_get(start, "seat"));
  const json *players = json_get(json_get(message, "observation"), "players");
  for (const json *p = players->child; p; p = p->next) {
    const json *boat = game_boat(data, json_str(json_get(p, "boat")));
    for (const json *t = json_get(p, "tiles")->child; t; t = t->next) {
      if (boat->kind != J_OBJECT || game_shape(data, json_str(json_get(t, "shape")))->kind != J_OBJECT)
        fail("unknown shape or boat");
      for (const json *c = json_get(t, "cells")->child; c; c = c->next)
        if (!game_has_cell(json_get(boat, "cells"), json_int(json_at(c, 0)), json_int(json_at(c, 1))))
          fail("a tile off its boat");
      tiles++;
    }
  }
  const json *mine = game_boat(data, json_str(json_get(json_at(players, (size_t)seat), "boat")));
  for (const json *a = json_get(message, "legal")->child; a; a = a->next) {
    const json *cells = json_get(a, "cells");
    if (cells->kind != J_ARRAY) continue;
    if (mine->kind != J_OBJECT) fail("a placement without my boat");
    for (const json *c = cells->child; c; c = c->next)
      if (!game_has_cell(json_get(mine, "cells"), json_int(json_at(c, 0)), json_int(json_at(c, 1))))
        fail("a placement off my boat");
    placements++;
  }
}

int main(void) {
  char *line;
  while ((line = read_line()) != NULL) {
    json *message = json_parse(line);
    free(line);
    if (!message) return 1;
    const char *type = json_str(json_get(message, "type"));
    if (strcmp(type, "start") == 0) {
      start = message; /* kept: data points into it */
      on_start();
      reply("{\"ready\": true, \"name\": \"game data probe (c)\"}");
      continue;
    }
    if (strcmp(type, "decide") == 0) {
      on_decide(message);
      char out[96];
      snprintf(out, sizeof out, "{\"index\": 0, \"debug\": \"placements %d tiles %d\"}", placements, tiles);
      reply(out);
    } else if (strcmp(type, "end") == 0) {
      return 0;
    }
    json_free(message);
  }
  return 0;
}
