#!/usr/bin/env node
// Isle Arena starter bot in JavaScript: plays a random legal action. Node.js built-ins only.
//
// The protocol (docs/bot-protocol.md): one JSON message per line on stdin; answer "start"
// with {"ready": true}, every "decide" with {"index": i} (a position in its "legal" list),
// and stop at "end". Print nothing else on stdout: log with console.error (stderr).
//
// Try it:  python -m arena play --mode duel --bots examples/js/random_bot.js,random
"use strict";

const readline = require("node:readline");

// A small seeded generator (mulberry32), so that a game can be replayed exactly.
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

function reply(message) {
  process.stdout.write(JSON.stringify(message) + "\n");
}

const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "start") {
    random = generator(message.seat + 1); // reproducible games for the same seat
    reply({ ready: true, name: "random starter (js)", protocol: 2 }); // the shared shape
  } else if (message.type === "decide") {
    reply({ index: Math.floor(random() * message.legal.length) });
  } else if (message.type === "end") {
    console.error(`final scores: ${JSON.stringify(message.result.scores)}`);
    process.exit(0);
  }
  // any other type comes from a later protocol version: ignore it
});
