"""A probe bot (tests/workers/test_game_data_probes.py): it reads ``game_data`` through the
Python kit's helper (examples/bots/arena_bot.py) and exits with status 1, a fault, when a
card's cost, a boat's cells or a tile's shape is missing, or when a legal placement or a
placed tile leaves its boat's cells. It plays the first legal action, noting what it checked."""

import sys

from arena_bot import GameData, GameInfo, log, run

checked = {"placements": 0, "tiles": 0}
data: GameData | None = None


def fail(why: str) -> None:
    log(f"probe: {why}")
    sys.exit(1)


def on_start(game: GameInfo) -> None:
    global data
    if game.data is None:
        fail("no game_data in start")
    data = game.data
    if not data.cards or any("cost" not in c for c in data.cards.values()):
        fail("a card without its cost")
    if game.mode in ("standard", "solo") and not any(
            isinstance(c["cost"], int) and c["cost"] > 0 for c in data.cards.values()):
        fail("no card has a price")
    if not data.boats or any(len(b.cells) < 100 for b in data.boats.values()):
        fail("a boat without its cells")


def my_boat(observation: dict, seat: int) -> str | None:
    players = observation.get("players") or []
    return players[seat].get("boat") if seat < len(players) else None


def decide(message: dict, game: GameInfo) -> dict:
    assert data is not None
    observation = message["observation"]
    for player in observation.get("players") or []:
        for tile in player.get("tiles", []):
            boat = data.boats.get(player.get("boat"))
            if tile["shape"] not in data.shapes or boat is None:
                fail(f"unknown shape {tile['shape']} or boat {player.get('boat')}")
            if any(tuple(c) not in boat.cells for c in tile["cells"]):
                fail(f"tile {tile} off its boat")
            checked["tiles"] += 1
    boat = data.boats.get(my_boat(observation, game.seat) or "")
    for action in message["legal"]:
        if "cells" in action:
            if boat is None or any(tuple(c) not in boat.cells for c in action["cells"]):
                fail(f"placement {action['cells']} off boat {my_boat(observation, game.seat)}")
            checked["placements"] += 1
    return {"index": 0, "debug": f"placements {checked['placements']} tiles {checked['tiles']}"}


run(decide, name="game data probe (python)", on_start=on_start)
