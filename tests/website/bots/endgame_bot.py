#!/usr/bin/env python3
"""A bot stronger than greedy and quick, for the workshop's browser journey: greedy's choice
all game, and on the Duel's last day (when a playout to the end costs about a millisecond) a
search of fixed rounds among greedy's choice and a few challengers, as examples/bots/
search_bot.py does under a time budget. Fixed rounds rather than a budget: given its seat it
plays the same game on every run, however busy the machine.
"""

import json
import sys

from engine.bots import make_bot
from engine.bots.playout import candidates, playout
from engine.forward import determinize
from engine.rng import Rng

LAST_DAY = 4  # the Duel's last day: the search begins there
ROUNDS = 6  # playout rounds per decision
CANDIDATES = 5  # greedy's choice and four challengers


def choose(start: dict, message: dict, rng: Rng) -> int:
    seat = start["seat"]
    world = determinize(start, message, rng)
    legal = world.legal_actions(seat)
    if len(legal) == 1:
        return 0
    first = make_bot("greedy", world.mode, seat, rng.next_u64()).act(world, seat)
    if getattr(world, "day", 0) < LAST_DAY:
        return legal.index(first)
    options = candidates(world, seat, legal, first, CANDIDATES)
    diffs: list[list[float]] = [[] for _ in options]  # each challenger minus greedy's choice
    for done in range(ROUNDS if len(options) > 1 else 0):
        if done:
            world = determinize(start, message, rng)
        seed = rng.next_u64()
        values = []
        for action in options:
            game = world.clone()
            game.apply_unchecked(seat, action)
            values.append(playout(game, seat, seed, 10_000))
        for i, value in enumerate(values):
            diffs[i].append(value - values[0])
    best, gain = 0, 0.0
    for i in range(1, len(options)):
        mean = sum(diffs[i]) / ROUNDS
        var = sum((d - mean) ** 2 for d in diffs[i]) / (ROUNDS - 1)
        if mean > 0.02 and mean > (var / ROUNDS) ** 0.5 and mean > gain:
            best, gain = i, mean
    return legal.index(options[best])


def main() -> None:
    start: dict = {}
    rng = Rng(0, "endgame")
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            start = message
            rng = Rng(message["seat"], "endgame")
            reply = {"ready": True, "name": "endgame", "protocol": 2}
        elif kind == "decide":
            reply = {"index": choose(start, message, rng)}
        elif kind == "end":
            print(f"final scores: {message['result']['scores']}", file=sys.stderr)
            return
        else:
            continue  # messages of a later protocol version
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
