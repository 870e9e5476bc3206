// Isle Arena helper for JavaScript bots: the game's data of the "start" message
// (start.game_data; docs/bot-protocol.md, "The game's data") in handy form.
//
//   const { loadGameData } = require("./game_data.js");
//   const data = loadGameData(start);
//   data.card(12).cost;                       // a card by id
//   data.boats.blue.cells.has("3,4");         // boats by name, cells as "x,y" strings
//   data.placements("cat_07", "blue", occupied);  // where a shape fits (occupied: a Set)
//
// Upload a zip with bot.json ({"entrypoint": "main.js", "language": "node"}), your bot and
// this file, or copy the functions into a one-file bot. Node.js built-ins only.
"use strict";

const key = (x, y) => `${x},${y}`;
const cellSet = (cells) => new Set(cells.map(([x, y]) => key(x, y)));

function loadBoat(name, boat) {
  const rooms = {};
  for (const room of boat.rooms) rooms[room.key] = cellSet(room.cells);
  return {
    name,
    raw: boat,
    cells: cellSet(boat.cells),
    rats: cellSet(boat.rats),
    edge: cellSet(boat.edge),
    maps: Object.fromEntries(Object.entries(boat.maps).map(([c, [x, y]]) => [c, key(x, y)])),
    rooms,
  };
}

function loadGameData(start) {
  const raw = start.game_data;
  const cards = new Map(raw.cards.map((c) => [c.id, c]));
  const boats = {};
  for (const [name, boat] of Object.entries(raw.boats)) boats[name] = loadBoat(name, boat);
  return {
    raw,
    version: raw.version,
    cards,
    boats,
    shapes: raw.shapes,
    island: raw.island || null,
    // id, family, label, cost, speed, basket, baskets, colour, effect and rules
    card: (id) => cards.get(id),
    // The cells ([[x, y], ...]) of every place a tile of `shape` fits on boat `boatName`:
    // inside it, over no occupied cell ("x,y" strings) and, when `touching` and the boat is
    // not empty, next to one. The arena's "legal" list is the authority; this is for planning.
    placements(shape, boatName, occupied = new Set(), touching = true) {
      const boat = boats[boatName];
      const out = [];
      for (const orientation of raw.shapes[shape].orientations) {
        const [x0, y0] = orientation[0];
        for (const at of boat.cells) {
          const [ax, ay] = at.split(",").map(Number);
          const placed = orientation.map(([x, y]) => [ax - x0 + x, ay - y0 + y]);
          const fits = placed.every(([x, y]) => boat.cells.has(key(x, y)) && !occupied.has(key(x, y)));
          const near = !touching || occupied.size === 0 || placed.some(([x, y]) =>
            [[1, 0], [-1, 0], [0, 1], [0, -1]].some(([dx, dy]) => occupied.has(key(x + dx, y + dy))));
          if (fits && near) out.push(placed);
        }
      }
      return out;
    },
  };
}

module.exports = { loadGameData, cellKey: key };
