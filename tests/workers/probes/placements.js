// For tests/workers/test_game_data_probes.py: one case a line on stdin ({"game_data", "shape",
// "boat", "occupied"}), the JavaScript kit's placements of it on stdout, one JSON line each.
"use strict";

const path = require("node:path");
const { loadGameData, cellKey } = require(path.resolve(process.argv[2], "game_data.js"));

require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => {
  const c = JSON.parse(line);
  const occupied = new Set(c.occupied.map(([x, y]) => cellKey(x, y)));
  console.log(JSON.stringify(loadGameData(c).placements(c.shape, c.boat, occupied)));
});
