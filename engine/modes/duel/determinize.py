"""Determinizing the Duel (``engine.forward``'s ``determinize`` for mode "duel"): everything
is open but the order of the bag and of the deck.

The observation lists the bag's and the deck's contents (sorted); a determinization shuffles
them. The random stream that later puts a returned round-counter cat back into the bag is
drawn from the determinization's rng too, so nothing comes from the real game's seed. The
game's attributes are set in ``DuelGame.__init__``'s order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...boat import Boat
from ...errors import DeterminizeError
from ...game import Game
from ...rng import Rng
from .data import ISLAND_SPACES, duel_data
from .game import DuelGame

Observation = Mapping[str, Any]

PHASES = ("choose_boat", "move", "act", "extra_selection", "place_cat", "place_treasure",
          "return_cat", "over")


def determinize_duel(start: Observation, obs: Observation, rng: Rng) -> DuelGame:
    _check(start, obs)
    g = DuelGame.__new__(DuelGame)
    Game.__init__(g, 2, rng.next_u64(), dict(start.get("options") or {}))
    g.rng = Rng(rng.next_u64(), "bag")
    g.counters = [int(c["id"]) for c in obs["round_counter_cats"]]
    g.bag, g.deck = _bag_and_deck(obs, rng)
    players = sorted(obs["players"], key=lambda p: p["seat"])
    if [p["seat"] for p in players] != [0, 1]:
        raise DeterminizeError("a Duel observation lists seats 0 and 1")
    boats = [_boat(p) for p in players]
    g.supply = _supply(obs["treasure_supply"], boats)
    g.island = _island(obs["island"])
    g.on_island = sum(1 for x in g.island if x is not None)
    g.box = [int(t) for t in obs["box"]]
    g.discard = [int(c) for c in obs["discard"]]
    g.layout_names = [name for name, _ in boats]
    g.boats = [boat for _, boat in boats]
    g.fish = [int(p["fish"]) for p in players]
    g.lessons = [[int(c["id"]) for c in p["lessons"]] for p in players]
    g.oshax = int(obs["oshax"])
    g.first = int(obs["first_player"])
    g.day = int(obs["day"])
    to_act = obs["to_act"]
    g.current = g.first if to_act is None else int(to_act)
    g.phase = obs["phase"]
    _resume_turn(g, obs["turn"])
    g.took = [bool(p["took_discovery_last_turn"]) for p in players]
    return g


def _check(start: Observation, obs: Observation) -> None:
    if start.get("seats") != 2:
        raise DeterminizeError("a Duel has 2 seats")
    if obs["you"] != start["seat"]:
        raise DeterminizeError(f"the observation is seat {obs['you']}'s, not seat "
                               f"{start['seat']}'s")
    if obs["phase"] not in PHASES:
        raise DeterminizeError(f"unknown Duel phase {obs['phase']!r}")


def _bag_and_deck(obs: Observation, rng: Rng) -> tuple[list[int], list[int]]:
    """The bag's and the deck's contents, each shuffled: their order is hidden."""
    bag = [int(t) for t in obs["bag_contents"]]
    deck = [int(c) for c in obs["deck_contents"]]
    if len(bag) != obs["bag_count"] or len(deck) != obs["deck_count"]:
        raise DeterminizeError("bag_contents or deck_contents disagree with their counts")
    rng.shuffle(bag)
    rng.shuffle(deck)
    return bag, deck


def _boat(entry: Observation) -> tuple[str | None, Boat | None]:
    name = entry["boat"]
    if name is None:
        if entry.get("tiles"):
            raise DeterminizeError("a seat without a boat has tiles")
        return None, None
    layouts = duel_data().layouts
    if name not in layouts:
        raise DeterminizeError(f"unknown Duel boat {name!r}")
    return name, Boat.from_json(layouts[name], entry["tiles"])


def _supply(counts: Mapping[str, int],
            boats: list[tuple[str | None, Boat | None]]) -> dict[str, list[int]]:
    """The treasures neither boat holds, which must be as many as the supply shows."""
    on_boats = {t.tile_id for _, b in boats if b is not None for t in b.tiles}
    supply = {}
    for key, ids in duel_data().treasure_ids.items():
        left = [i for i in ids if i not in on_boats]
        if len(left) != counts[key]:
            raise DeterminizeError(f"the treasure supply of {key} disagrees with the boats")
        supply[key] = left
    return supply


def _island(spaces: list[Observation]) -> list[int | None]:
    island: list[int | None] = [None] * (ISLAND_SPACES + 1)  # index = space
    for entry in spaces:
        item = entry["item"]
        if item is not None:
            island[int(entry["space"])] = int(item["id"])
    return island


def _resume_turn(g: DuelGame, turn: Observation) -> None:
    """The turn in progress, as the observation's ``turn`` shows it."""
    g.touched = 0
    for s in turn["touched"]:
        g.touched |= 1 << int(s)
    g.steps = int(turn["steps_due"])
    g.jumping = bool(turn["jumping"])
    g.selected = bool(turn["selection_used"])
    g.extra = bool(turn["extra_selection_due"])
    g.placing = None if turn["placing"] is None else int(turn["placing"]["id"])
    g.treasures_due = int(turn["treasures_due"])
