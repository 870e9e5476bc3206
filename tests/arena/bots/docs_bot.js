// A JavaScript bot written only from docs/bot-protocol.md (no other file of the project was
// read to write it). It uses both reply forms the page describes: the action object itself
// on even steps, the index of a legal action on odd steps, each with a debug note; it
// checks the protocol version, keeps its seat, and ignores message types it does not know.
"use strict";

const readline = require("node:readline");

const WRITTEN_FOR = 1; // "Protocol version: 1"
let seat = null;
let state = 1;

function next(n) {
  // a small seeded generator: "seed its random generator (for instance from your seat)"
  state = (Math.imul(state, 1103515245) + 12345) >>> 0;
  return state % n;
}

function send(reply) {
  // "One JSON object per line, UTF-8, ended by \n." process.stdout on a pipe writes at once.
  process.stdout.write(JSON.stringify(reply) + "\n");
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  const message = JSON.parse(line);
  switch (message.type) {
    case "start": {
      if (message.protocol !== WRITTEN_FOR) {
        console.error(`written for protocol ${WRITTEN_FOR}, got ${message.protocol}`);
      }
      seat = message.seat;
      state = 1000 + seat;
      const kinds = (message.catalogue || []).map((entry) => entry.kind);
      console.error(`${message.mode}: seat ${seat} of ${message.seats}; kinds ${kinds.join(",")}`);
      send({ ready: true, name: "docs bot (js)" });
      break;
    }
    case "decide": {
      if (message.seat !== seat) console.error(`asked for seat ${message.seat}, we are ${seat}`);
      const legal = message.legal;
      const index = next(legal.length);
      const note = `step ${message.step}: ${legal[index].kind} of ${legal.length}`;
      if (message.step % 2 === 0) {
        send({ ...legal[index], debug: note }); // the action object, exactly as in legal
      } else {
        send({ index, debug: note });
      }
      break;
    }
    case "end":
      console.error(`result: ${JSON.stringify(message.result.scores)}`);
      process.exit(0);
      break;
    default:
      break; // "ignore messages whose type you do not know"
  }
});
