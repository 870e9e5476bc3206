#!/usr/bin/env node
// Isle Arena starter bot in JavaScript with a few simple ideas. Node.js built-ins only.
//
// * placing a tile: next to tiles of its colour on our boat (families score), touching as
//   many placed tiles as possible, filling the boat from its stern (low x);
// * otherwise prefer actions that gain something (keep, rescue, take, treasures...) over
//   giving up a turn (pass, done, decline, skip, end_turn), and buy cards only when rich.
// Ties are broken at random. Replies carry a short "debug" note shown by the replay viewer.
// The protocol: docs/bot-protocol.md; the observations: docs/bot-protocol-examples.md.
"use strict";

const readline = require("node:readline");

// Lower is better; kinds not listed rank in the middle (50).
const KIND_RANK = {
  keep: 0, choose_boat: 0, lesson_colour: 0, discard_lessons: 0, remove_treasures: 0,
  return_cat: 0, choose_rescue: 1, take_treasure: 2, treasure: 3, oshax: 3, rescue: 4,
  take: 4, select: 4, place: 5, move: 10, fish_action: 60, play: 70, buy: 80, done: 90,
  pass: 95, decline: 95, skip: 95, end_turn: 99,
};
const RICH = 10; // fish needed before buying more cards

function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = generator(0);

// Protocol 2 (chosen in the ready answer below): in every mode the observation has "seat",
// "you" (our own player, with its tiles and fish) and "decision" (what is asked).
function myTiles(obs) {
  return Array.isArray(obs.you.tiles) ? obs.you.tiles : [];
}

// The tile we are placing, wherever the mode puts it.
function holding(obs) {
  for (const tile of [obs.decision && obs.decision.tile, obs.held, obs.turn && obs.turn.placing]) {
    if (tile && typeof tile === "object") return tile;
  }
  return {};
}

function myFish(obs) {
  return typeof obs.you.fish === "number" ? obs.you.fish : 0;
}

function rank(obs, action) {
  if (action.kind === "buy" && myFish(obs) >= RICH) return 6;
  return KIND_RANK[action.kind] ?? 50;
}

// Placed neighbours of the same colour count 3, others 1; a low x (the stern) breaks ties.
function placementScore(cells, occupied, colour) {
  const mine = new Set(cells.map(([x, y]) => `${x},${y}`));
  const seen = new Set();
  let score = 0;
  for (const [x, y] of cells) {
    for (const [nx, ny] of [[x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]]) {
      const key = `${nx},${ny}`;
      if (mine.has(key) || seen.has(key) || !occupied.has(key)) continue;
      seen.add(key);
      score += colour && occupied.get(key) === colour ? 3 : 1;
    }
  }
  return score - 0.01 * cells.reduce((sum, [x]) => sum + x, 0);
}

function decide(message) {
  const { observation: obs, legal } = message;
  const ranks = legal.map((action) => rank(obs, action));
  const best = Math.min(...ranks);
  let options = legal.map((_, i) => i).filter((i) => ranks[i] === best);
  const kind = legal[options[0]].kind;
  const asked = obs.decision.decision; // what is asked, in every mode
  let note = `${kind} (rank ${best})`;
  if (kind === "place") {
    const occupied = new Map(); // "x,y" -> colour of the tile there
    for (const tile of myTiles(obs)) {
      for (const [x, y] of tile.cells || []) occupied.set(`${x},${y}`, tile.colour);
    }
    const colour = holding(obs).colour;
    const score = (i) => placementScore(legal[i].cells, occupied, colour);
    const scores = new Map(options.map((i) => [i, score(i)]));
    const top = Math.max(...scores.values());
    options = options.filter((i) => scores.get(i) >= top - 1e-9);
    note = `place ${colour || "tile"}: score ${top.toFixed(1)}`;
  }
  return { index: options[Math.floor(random() * options.length)], debug: `${asked}: ${note}` };
}

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    random = generator(message.seat + 1);
    reply({ ready: true, name: "heuristic starter (js)", protocol: 2 });
  } else if (message.type === "decide") {
    reply(decide(message));
  } else if (message.type === "end") {
    process.exit(0);
  }
});
