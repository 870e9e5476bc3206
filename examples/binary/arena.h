/* Isle Arena helper for C bots: a small JSON parser (a tree of nodes), reply helpers and
 * look-ups in the game's data (game_card, game_boat, game_shape, ...).
 * Copy it next to your bot; C99 and the C library only. Protocol: docs/bot-protocol.md.
 * Nodes live in one arena per message: json_parse() allocates, json_free() releases. */
#ifndef ISLE_ARENA_H
#define ISLE_ARENA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { J_NULL, J_BOOL, J_NUMBER, J_STRING, J_ARRAY, J_OBJECT } json_kind;

typedef struct json {
  json_kind kind;
  double number;        /* J_NUMBER, J_BOOL (0 or 1) */
  char *text;           /* J_STRING */
  char *key;            /* the key of an object member */
  struct json *child;   /* first element or member */
  struct json *next;    /* next sibling */
  size_t count;         /* elements or members */
} json;

static const json json_none = {J_NULL, 0, NULL, NULL, NULL, NULL, 0};

static inline void json_free(json *node) {
  while (node) {
    json *next = node->next;
    json_free(node->child);
    free(node->text);
    free(node->key);
    free(node);
    node = next;
  }
}

/* The member `key` of an object, or a null node (so lookups can be chained). */
static inline const json *json_get(const json *node, const char *key) {
  if (node && node->kind == J_OBJECT)
    for (const json *m = node->child; m; m = m->next)
      if (m->key && strcmp(m->key, key) == 0) return m;
  return &json_none;
}

/* Element `i` of an array, or a null node. */
static inline const json *json_at(const json *node, size_t i) {
  if (node && node->kind == J_ARRAY)
    for (const json *e = node->child; e; e = e->next, --i)
      if (i == 0) return e;
  return &json_none;
}

static inline int json_int(const json *node) { return node->kind == J_NUMBER ? (int)node->number : 0; }
static inline const char *json_str(const json *node) {
  return node->kind == J_STRING && node->text ? node->text : "";
}

typedef struct { const char *s; int error; } json_cursor;

static inline void json_space(json_cursor *c) {
  while (*c->s == ' ' || *c->s == '\t' || *c->s == '\r' || *c->s == '\n') c->s++;
}

static inline char *json_string(json_cursor *c) {
  size_t cap = 16, len = 0;
  char *out = malloc(cap);
  if (!out || *c->s != '"') { c->error = 1; return out; }
  c->s++;
  while (*c->s && *c->s != '"') {
    char ch = *c->s++;
    if (ch == '\\') {
      char e = *c->s ? *c->s++ : 0;
      ch = e == 'n' ? '\n' : e == 't' ? '\t' : e == 'r' ? '\r' : e == 'b' ? '\b' : e == 'f' ? '\f' : e;
      if (e == 'u') { /* code points below 0x80 as they are, others as '?' */
        unsigned code = 0;
        for (int k = 0; k < 4 && *c->s; k++, c->s++)
          code = code * 16 + (unsigned)(*c->s <= '9' ? *c->s - '0' : (*c->s | 32) - 'a' + 10);
        ch = code < 0x80 ? (char)code : '?';
      }
    }
    if (len + 2 > cap) {
      char *bigger = realloc(out, cap *= 2);
      if (!bigger) { c->error = 1; return out; }
      out = bigger;
    }
    out[len++] = ch;
  }
  out[len] = 0;
  if (*c->s == '"') c->s++; else c->error = 1;
  return out;
}

static inline json *json_value(json_cursor *c);

static inline json *json_items(json_cursor *c, json *node, char close, int members) {
  json **tail = &node->child;
  c->s++;
  json_space(c);
  if (*c->s == close) { c->s++; return node; }
  for (;;) {
    char *key = NULL;
    json_space(c);
    if (members) {
      key = json_string(c);
      json_space(c);
      if (*c->s != ':') c->error = 1; else c->s++;
    }
    json *item = json_value(c);
    if (!item) { free(key); c->error = 1; return node; }
    item->key = key;
    *tail = item;
    tail = &item->next;
    node->count++;
    json_space(c);
    if (*c->s == ',') { c->s++; continue; }
    if (*c->s == close) { c->s++; return node; }
    c->error = 1;
    return node;
  }
}

static inline json *json_value(json_cursor *c) {
  json *node = calloc(1, sizeof *node);
  if (!node) return NULL;
  json_space(c);
  if (*c->s == '{') { node->kind = J_OBJECT; return json_items(c, node, '}', 1); }
  if (*c->s == '[') { node->kind = J_ARRAY; return json_items(c, node, ']', 0); }
  if (*c->s == '"') { node->kind = J_STRING; node->text = json_string(c); return node; }
  if (strncmp(c->s, "true", 4) == 0) { node->kind = J_BOOL; node->number = 1; c->s += 4; return node; }
  if (strncmp(c->s, "false", 5) == 0) { node->kind = J_BOOL; c->s += 5; return node; }
  if (strncmp(c->s, "null", 4) == 0) { c->s += 4; return node; }
  char *end = NULL;
  node->kind = J_NUMBER;
  node->number = strtod(c->s, &end);
  if (end == c->s) c->error = 1;
  c->s = end;
  return node;
}

/* Parse one message; NULL if it is not valid JSON. */
static inline json *json_parse(const char *text) {
  json_cursor c = {text, 0};
  json *root = json_value(&c);
  if (root && !c.error) return root;
  json_free(root);
  return NULL;
}

/* Read one line of any length from stdin (NULL at the end); free() it after use. fgets
   copies a whole run of the stdio buffer at a time: a decide line is kilobytes long, and
   reading it with getchar() cost more than the rest of the bot's turn. */
static inline char *read_line(void) {
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap);
  while (buf) {
    if (!fgets(buf + len, (int)(cap - len), stdin)) break;
    len += strlen(buf + len);
    if (len > 0 && buf[len - 1] == '\n') { buf[--len] = 0; return buf; }
    if (len + 1 >= cap) {
      char *bigger = realloc(buf, cap *= 2);
      if (!bigger) { free(buf); return NULL; }
      buf = bigger;
    }
  }
  if (!buf || len == 0) { free(buf); return NULL; }
  buf[len] = 0;
  return buf;
}

/* --- The game's data ---------------------------------------------------------------------
 * start's "game_data" (docs/bot-protocol.md, "The game's data"): keep the start message's
 * tree (do not json_free it) and pass json_get(start, "game_data") to these look-ups. */

/* The card with this id (id, family, label, cost, speed, baskets, effect, rules), or null. */
static inline const json *game_card(const json *game_data, int id) {
  for (const json *c = json_get(game_data, "cards")->child; c; c = c->next)
    if (json_int(json_get(c, "id")) == id) return c;
  return &json_none;
}

/* Its cost in fish; -1 for a card that is never bought (or unknown). */
static inline int game_card_cost(const json *game_data, int id) {
  const json *cost = json_get(game_card(game_data, id), "cost");
  return cost->kind == J_NUMBER ? (int)cost->number : -1;
}

/* A boat by the name observations give (cells, rats, maps, rooms, edge), or null. */
static inline const json *game_boat(const json *game_data, const char *name) {
  return json_get(json_get(game_data, "boats"), name);
}

/* Whether [x, y] is in a list of cells (a boat's "cells", "rats", "edge", a room's "cells"). */
static inline int game_has_cell(const json *cells, int x, int y) {
  for (const json *c = cells->child; c; c = c->next)
    if (json_int(json_at(c, 0)) == x && json_int(json_at(c, 1)) == y) return 1;
  return 0;
}

/* A shape by the key tiles carry: "orientations" lists the cells of each, from [0, 0]. */
static inline const json *game_shape(const json *game_data, const char *key) {
  return json_get(json_get(game_data, "shapes"), key);
}

/* One reply line on stdout, flushed at once (the arena waits for it). */
static inline void reply(const char *line) {
  fputs(line, stdout);
  fputc('\n', stdout);
  fflush(stdout);
}

#endif
