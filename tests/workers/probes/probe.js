// A probe bot (tests/workers/test_game_data_probes.py): reads game_data through the JavaScript
// kit's helper (examples/js/game_data.js) and exits with status 1, a fault, when a card's cost,
// a boat's cells or a tile's shape is missing, or when a legal placement or a placed tile
// leaves its boat's cells. It plays the first legal action, noting what it checked.
"use strict";

const readline = require("node:readline");
const { loadGameData, cellKey } = require("./game_data.js");

let data = null;
let seat = 0;
const checked = { placements: 0, tiles: 0 };

function fail(why) {
  console.error(`probe: ${why}`);
  process.exit(1);
}

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

function onStart(start) {
  if (!start.game_data) fail("no game_data in start");
  data = loadGameData(start);
  seat = start.seat;
  const cards = [...data.cards.values()];
  if (cards.length === 0 || cards.some((c) => !("cost" in c))) fail("a card without its cost");
  if (["standard", "solo"].includes(start.mode) && !cards.some((c) => Number.isInteger(c.cost) && c.cost > 0)) {
    fail("no card has a price");
  }
  const boats = Object.values(data.boats);
  if (boats.length === 0 || boats.some((b) => b.cells.size < 100)) fail("a boat without its cells");
}

function onDecide(message) {
  const players = message.observation.players || [];
  for (const player of players) {
    for (const tile of player.tiles || []) {
      const boat = data.boats[player.boat];
      if (!data.shapes[tile.shape] || !boat) fail(`unknown shape ${tile.shape} or boat ${player.boat}`);
      if (tile.cells.some(([x, y]) => !boat.cells.has(cellKey(x, y)))) fail(`tile ${JSON.stringify(tile)} off its boat`);
      checked.tiles += 1;
    }
  }
  const mine = players[seat] ? data.boats[players[seat].boat] : undefined;
  for (const action of message.legal) {
    if (!action.cells) continue;
    if (!mine || action.cells.some(([x, y]) => !mine.cells.has(cellKey(x, y)))) {
      fail(`placement ${JSON.stringify(action.cells)} off my boat`);
    }
    checked.placements += 1;
  }
  reply({ index: 0, debug: `placements ${checked.placements} tiles ${checked.tiles}` });
}

readline.createInterface({ input: process.stdin, terminal: false }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    onStart(message);
    reply({ ready: true, name: "game data probe (js)" });
  } else if (message.type === "decide") {
    onDecide(message);
  } else if (message.type === "end") {
    process.exit(0);
  }
});
