#!/usr/bin/env python3
"""Isle Arena starter bot with a few simple ideas. Standard library only; every mode.

It speaks protocol 2, where every mode's observation has the same keys for who we are
("seat", "you": our own player) and what is asked ("decision"), and reads it a little
(see docs/bot-protocol-examples.md):

* placing a tile: put it next to tiles of the same colour (families score),
  touching as many placed tiles as possible, filling the boat from one end;
* taking a cat: prefer the colours already on your boat;
* otherwise: prefer actions that gain something (keep, rescue, take, select,
  treasures) over giving up a turn (pass, done, decline, skip, end_turn), and
  buy cards only while rich in fish.

Ties are broken at random. Replies carry a short "debug" note that the
replay viewer shows. Protocol: docs/bot-protocol.md.
"""

import json
import random
import sys

# lower is better; kinds not listed rank in the middle (50).
KIND_RANK = {
    "keep": 0, "choose_boat": 0, "lesson_colour": 0, "discard_lessons": 0, "remove_treasures": 0,
    "return_cat": 0, "choose_rescue": 1, "take_treasure": 2, "treasure": 3, "oshax": 3,
    "rescue": 4, "take": 4, "select": 4, "place": 5, "move": 10, "fish_action": 60,
    "play": 70, "buy": 80, "done": 90, "pass": 95, "decline": 95, "skip": 95, "end_turn": 99,
}  # fmt: skip
PASSIVE = ("done", "pass", "decline", "skip", "end_turn")
RICH = 10  # fish needed before buying more cards


def my_tiles(obs):
    """Our placed tiles: protocol 2 gives our own player as "you" in every mode."""
    return obs["you"].get("tiles", [])


def holding(obs):
    """The tile we are placing, wherever the mode puts it."""
    decision = obs.get("decision")
    if isinstance(decision, dict) and isinstance(decision.get("tile"), dict):
        return decision["tile"]
    if isinstance(obs.get("held"), dict):
        return obs["held"]
    turn = obs.get("turn")
    if isinstance(turn, dict) and isinstance(turn.get("placing"), dict):
        return turn["placing"]
    return {}


def my_fish(obs):
    return obs["you"].get("fish", 0)


def placement_score(cells, tiles, colour):
    """Neighbours of the same colour count 3, other placed tiles 1; low x breaks ties."""
    owner = {}
    for tile in tiles:
        for x, y in tile.get("cells", []):
            owner[(x, y)] = tile.get("colour")
    mine = {tuple(c) for c in cells}
    score = 0.0
    seen = set()
    for x, y in mine:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if n in mine or n in seen or n not in owner:
                continue
            seen.add(n)
            score += 3 if colour and owner[n] == colour else 1
    return score - 0.01 * sum(x for x, _ in mine)


def colour_counts(tiles):
    counts = {}
    for tile in tiles:
        if tile.get("colour"):
            counts[tile["colour"]] = counts.get(tile["colour"], 0) + 1
    return counts


def cat_colour(obs, action):
    """The colour of the cat a rescue/take action would get, if the observation shows it."""
    fields = obs.get("fields")
    if action["kind"] in ("rescue", "take") and "field" in action and isinstance(fields, dict):
        cats = fields.get(action.get("field"), [])
        if 0 <= action.get("index", -1) < len(cats):
            return cats[action["index"]].get("colour")
    if action["kind"] == "take" and isinstance(fields, dict):
        for cats in fields.values():
            for cat in cats if isinstance(cats, list) else []:
                if cat.get("id") == action.get("tile"):
                    return cat.get("colour")
    return None


def rank(obs, action):
    kind = action["kind"]
    value = KIND_RANK.get(kind, 50)
    if kind == "buy" and my_fish(obs) >= RICH:
        value = 6
    return value


def decide(message, rng):
    obs, legal = message["observation"], message["legal"]
    asked = obs["decision"]["decision"]  # what is asked, in every mode (protocol 2)
    best = min(rank(obs, a) for a in legal)
    options = [i for i, a in enumerate(legal) if rank(obs, a) == best]
    kind = legal[options[0]]["kind"]
    tiles = my_tiles(obs)
    if kind == "place":
        colour = holding(obs).get("colour")
        scores = {i: placement_score(legal[i]["cells"], tiles, colour) for i in options}
        top = max(scores.values())
        options = [i for i in options if scores[i] >= top - 1e-9]
        note = f"place {colour or 'tile'}: score {top:.1f}"
    elif kind in ("rescue", "take"):
        counts = colour_counts(tiles)
        values = {i: counts.get(cat_colour(obs, legal[i]), 0) for i in options}
        top = max(values.values())
        options = [i for i in options if values[i] == top]
        note = f"{kind}: {top} tiles of that colour already"
    elif kind in PASSIVE:
        note = f"nothing better than {kind}"
    else:
        note = f"{kind} (rank {best})"
    return {"index": rng.choice(options), "debug": f"{asked}: {note}"}


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message["type"]
        if kind == "start":
            rng.seed(message["seat"])
            # Protocol 2: every mode's observation has "seat", "you" (our own player) and
            # "decision" (what is asked); the server announces it in start's "protocols".
            reply = {"ready": True, "name": "heuristic starter", "protocol": 2}
        elif kind == "decide":
            reply = decide(message, rng)
        elif kind == "end":
            return
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
