#!/usr/bin/env python3
"""Isle Arena starter bot: search with the engine's forward model, in every mode.

At each decision it rebuilds the game from its own observation with
``engine.forward.determinize`` (the hidden cards, bag and deck sampled afresh each round),
then asks: is the greedy bot's choice the best? Each round plays greedy's choice and a few
challengers on clones of the same determinization, with the same playout seed, and plays
on with the greedy policy for every seat (to the end in the Duel, a few decisions
elsewhere). A challenger replaces greedy's choice only if it wins by a clear margin.

The engine is importable as ``engine`` inside the sandbox (read-only; no bot file can
shadow it). docs/search-bots.md explains the forward model and a shorter flat Monte Carlo.

Try it:  python -m arena play --mode duel --bots examples/bots/search_bot.py,greedy
"""

import json
import sys
import time

from engine.bots import make_bot
from engine.bots.playout import candidates, playout
from engine.forward import determinize
from engine.rng import Rng


def choose(start: dict, message: dict, rng: Rng, budget: float) -> tuple[int, str]:
    """(index of the chosen legal action, a note): greedy's choice unless beaten."""
    deadline = time.process_time() + budget
    seat = start["seat"]
    world = determinize(start, message, rng)
    legal = world.legal_actions(seat)
    if len(legal) == 1:
        return 0, "only move"
    first = make_bot("greedy", world.mode, seat, rng.next_u64()).act(world, seat)
    options = candidates(world, seat, legal, first, 8 if world.mode == "duel" else 5)
    horizon = 10_000 if world.mode == "duel" else 12
    diffs: list[list[float]] = [[] for _ in options]  # challenger minus greedy, per round
    while time.process_time() < deadline:
        if diffs[0]:
            world = determinize(start, message, rng)
        seed = rng.next_u64()
        values = []
        for action in options:
            game = world.clone()
            game.apply_unchecked(seat, action)
            values.append(playout(game, seat, seed, horizon))
            if time.process_time() > deadline:
                break
        if len(values) < len(options):
            break  # an unfinished round is dropped
        for i, v in enumerate(values):
            diffs[i].append(v - values[0])
    rounds = len(diffs[0])
    best, gain = 0, 0.0
    for i in range(1, len(options)):
        if rounds < 4:
            break
        mean = sum(diffs[i]) / rounds
        var = sum((d - mean) ** 2 for d in diffs[i]) / (rounds - 1)
        if mean > 0.02 and mean > (var / rounds) ** 0.5 and mean > gain:
            best, gain = i, mean
    choice = options[best]
    return legal.index(choice), f"{world.action_text(choice)} ({rounds} rounds, {gain:+.2f})"


def main() -> None:
    start: dict = {}
    rng = Rng(0, "search starter")
    budget = 0.2
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            start = message
            rng = Rng(message["seat"], "search starter")
            budget = min(0.2, 0.5 * message["limits"]["decision_seconds"])
            reply = {"ready": True, "name": "search starter"}
        elif kind == "decide":
            index, note = choose(start, message, rng, budget)
            reply = {"index": index, "debug": note}
        elif kind == "end":
            print(f"final scores: {message['result']['scores']}", file=sys.stderr)
            return
        else:
            continue  # messages of a later protocol version: ignore them
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
