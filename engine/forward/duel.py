"""Determinizing the Duel: everything is open but the order of the bag and of the deck.

The observation lists the bag's and the deck's contents (sorted); a determinization shuffles
them. The random stream that later puts a returned round-counter cat back into the bag is
drawn from the determinization's rng too, so nothing comes from the real game's seed.
"""

from __future__ import annotations

from typing import Any

from ..boat import Boat, Tile, mask_of
from ..errors import DeterminizeError
from ..game import Game
from ..modes.duel.data import ISLAND_SPACES, duel_data
from ..modes.duel.game import DuelGame
from ..rng import Rng

PHASES = ("choose_boat", "move", "act", "extra_selection", "place_cat", "place_treasure",
          "return_cat", "over")


def _boat(entry: dict[str, Any]) -> tuple[str | None, Boat | None]:
    name = entry["boat"]
    if name is None:
        if entry.get("tiles"):
            raise DeterminizeError("a seat without a boat has tiles")
        return None, None
    layouts = duel_data().layouts
    if name not in layouts:
        raise DeterminizeError(f"unknown Duel boat {name!r}")
    boat = Boat(layouts[name])
    for t in entry["tiles"]:
        boat.place(Tile(t["kind"], t["colour"], t["shape"], mask_of(t["cells"]), int(t["id"])))
    return name, boat


def determinize_duel(start: dict[str, Any], obs: dict[str, Any], rng: Rng) -> Game:
    data = duel_data()
    if start.get("seats") != 2:
        raise DeterminizeError("a Duel has 2 seats")
    if obs["you"] != start["seat"]:
        raise DeterminizeError(f"the observation is seat {obs['you']}'s, not seat "
                               f"{start['seat']}'s")
    if obs["phase"] not in PHASES:
        raise DeterminizeError(f"unknown Duel phase {obs['phase']!r}")
    g = DuelGame.__new__(DuelGame)
    Game.__init__(g, 2, rng.next_u64(), dict(start.get("options") or {}))
    g.rng = Rng(rng.next_u64(), "bag")
    g.counters = [int(c["id"]) for c in obs["round_counter_cats"]]
    bag = [int(t) for t in obs["bag_contents"]]
    deck = [int(c) for c in obs["deck_contents"]]
    if len(bag) != obs["bag_count"] or len(deck) != obs["deck_count"]:
        raise DeterminizeError("bag_contents or deck_contents disagree with their counts")
    rng.shuffle(bag)
    rng.shuffle(deck)
    g.bag, g.deck = bag, deck
    g.island = [None] * (ISLAND_SPACES + 1)
    for entry in obs["island"]:
        item = entry["item"]
        if item is not None:
            g.island[int(entry["space"])] = int(item["id"])
    g.on_island = sum(1 for x in g.island if x is not None)
    g.box = [int(t) for t in obs["box"]]
    g.discard = [int(c) for c in obs["discard"]]
    players = sorted(obs["players"], key=lambda p: p["seat"])
    if [p["seat"] for p in players] != [0, 1]:
        raise DeterminizeError("a Duel observation lists seats 0 and 1")
    g.layout_names, g.boats = [], []
    for p in players:
        name, boat = _boat(p)
        g.layout_names.append(name)
        g.boats.append(boat)
    on_boats = {t.tile_id for b in g.boats if b is not None for t in b.tiles}
    counts = obs["treasure_supply"]
    g.supply = {}
    for key, ids in data.treasure_ids.items():
        left = [i for i in ids if i not in on_boats]
        if len(left) != counts[key]:
            raise DeterminizeError(f"the treasure supply of {key} disagrees with the boats")
        g.supply[key] = left
    g.fish = [int(p["fish"]) for p in players]
    g.lessons = [[int(c["id"]) for c in p["lessons"]] for p in players]
    g.took = [bool(p["took_discovery_last_turn"]) for p in players]
    g.oshax = int(obs["oshax"])
    g.first = int(obs["first_player"])
    g.day = int(obs["day"])
    g.phase = obs["phase"]
    to_act = obs["to_act"]
    g.current = g.first if to_act is None else int(to_act)
    turn = obs["turn"]
    g.touched = 0
    for s in turn["touched"]:
        g.touched |= 1 << int(s)
    g.steps = int(turn["steps_due"])
    g.jumping = bool(turn["jumping"])
    g.selected = bool(turn["selection_used"])
    g.extra = bool(turn["extra_selection_due"])
    g.placing = None if turn["placing"] is None else int(turn["placing"]["id"])
    g.treasures_due = int(turn["treasures_due"])
    g._fits = {}
    return g
