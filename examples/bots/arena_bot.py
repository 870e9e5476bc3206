"""A small helper for Isle Arena bots written in Python: copy it next to your bot.

It owns the protocol (docs/bot-protocol.md): the read loop, the answer to
"start", flushing every reply, and the "end" message. You write one function
that takes a "decide" message and returns your choice::

    from arena_bot import run, choose_index

    def decide(message, game):
        return choose_index(0, debug="first legal action")

    run(decide)

``game.data`` is the game's data from "start" (docs/bot-protocol.md, "The game's data"):
``game.data.card(12)["cost"]``, ``game.data.boats["blue"].cells``,
``game.data.placements("cat_07", "blue", occupied)``.

Upload it as a zip: bot.json ({"entrypoint": "main.py", "language": "python3"}),
main.py and this file. Standard library only; protocol version 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

PROTOCOL_VERSION = 1


Cell = tuple[int, int]


class Boat:
    """One boat of the game's data, its cells as sets of ``(x, y)`` for quick tests."""

    def __init__(self, name: str, data: dict[str, Any]) -> None:
        self.name = name
        self.data = data
        self.cells: set[Cell] = {(x, y) for x, y in data["cells"]}
        self.rats: set[Cell] = {(x, y) for x, y in data["rats"]}
        self.edge: set[Cell] = {(x, y) for x, y in data["edge"]}
        self.maps: dict[str, Cell] = {c: (x, y) for c, (x, y) in data["maps"].items()}
        self.rooms: dict[str, set[Cell]] = {
            r["key"]: {(x, y) for x, y in r["cells"]} for r in data["rooms"]}


class GameData:
    """The game's data of the match's mode: every card in play (by id), every boat (by the
    name observations give), every shape (by the key tiles carry) and, in the Duel, the
    island. ``raw`` is the ``game_data`` object as sent."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.raw = data
        self.version: str = data["version"]
        self.cards: dict[int, dict[str, Any]] = {c["id"]: c for c in data["cards"]}
        self.boats: dict[str, Boat] = {n: Boat(n, b) for n, b in data["boats"].items()}
        self.shapes: dict[str, dict[str, Any]] = data["shapes"]
        self.island: dict[str, Any] | None = data.get("island")

    def card(self, card_id: int) -> dict[str, Any]:
        """id, family, label, cost, speed, basket, baskets, colour, effect and rules."""
        return self.cards[card_id]

    def orientations(self, shape: str) -> list[list[Cell]]:
        """Every rotation and reflection of a shape, each starting at (0, 0)."""
        return [[(x, y) for x, y in o] for o in self.shapes[shape]["orientations"]]

    def placements(
        self, shape: str, boat: str, occupied: set[Cell] = frozenset(), *, touching: bool = True
    ) -> list[list[list[int]]]:
        """The cells of every place a tile of ``shape`` fits on ``boat``: inside it, over no
        ``occupied`` cell and, when ``touching`` and the boat is not empty, next to one (the
        placement rule). The engine's ``legal`` list is the authority; this is for planning."""
        cells = self.boats[boat].cells
        free = cells - set(occupied)
        near = {(x + dx, y + dy) for x, y in occupied
                for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))}
        out = []
        for orientation in self.orientations(shape):
            x0, y0 = orientation[0]
            for cx, cy in cells:  # the orientation's first cell on each cell of the boat
                placed = [(cx - x0 + x, cy - y0 + y) for x, y in orientation]
                if all(c in free for c in placed) and (
                    not touching or not occupied or any(c in near for c in placed)
                ):
                    out.append([[x, y] for x, y in placed])
        return out


class GameInfo:
    """What the "start" message told us: mode, seat, seats, options, limits, catalogue, and
    the game's data (``data``; None only from an arena too old to send it)."""

    def __init__(self, start: dict[str, Any]) -> None:
        self.start = start
        self.mode: str = start["mode"]
        self.seat: int = start["seat"]
        self.seats: int = start["seats"]
        self.options: dict[str, Any] = start.get("options", {})
        self.limits: dict[str, Any] = start.get("limits", {})
        self.catalogue: list[dict[str, Any]] = start.get("catalogue", [])
        self.data: GameData | None = (
            GameData(start["game_data"]) if "game_data" in start else None)


def choose_index(index: int, debug: str | None = None) -> dict[str, Any]:
    """Reply with the position of a legal action in the message's "legal" list."""
    reply: dict[str, Any] = {"index": index}
    if debug:
        reply["debug"] = debug
    return reply


def choose_action(action: dict[str, Any], debug: str | None = None) -> dict[str, Any]:
    """Reply with an action object, e.g. {"kind": "place", "cells": [[3, 4], [4, 4]]}."""
    reply = dict(action)
    if debug:
        reply["debug"] = debug
    return reply


def log(*parts: Any) -> None:
    """Write to stderr: the arena keeps your last lines when something goes wrong."""
    print(*parts, file=sys.stderr, flush=True)


Decide = Callable[[dict[str, Any], GameInfo], "dict[str, Any] | int"]


def run(
    decide: Decide,
    *,
    name: str | None = None,
    on_start: Callable[[GameInfo], None] | None = None,
    on_end: Callable[[dict[str, Any], GameInfo], None] | None = None,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> None:
    """Play one match: read messages until "end" (or until stdin closes)."""
    source = stdin or sys.stdin
    sink = stdout or sys.stdout
    game: GameInfo | None = None
    for line in source:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "start":
            if message.get("protocol") != PROTOCOL_VERSION:
                log(
                    f"arena_bot: written for protocol {PROTOCOL_VERSION}, "
                    f"the arena speaks {message.get('protocol')}"
                )
            game = GameInfo(message)
            if on_start is not None:
                on_start(game)
            reply: dict[str, Any] | int = {"ready": True}
            if name:
                reply["name"] = name  # type: ignore[index]
        elif kind == "decide":
            assert game is not None, "decide before start"
            reply = decide(message, game)
            if isinstance(reply, int):
                reply = choose_index(reply)
        elif kind == "end":
            if on_end is not None and game is not None:
                on_end(message, game)
            return
        else:
            continue  # a message from a later protocol version
        sink.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sink.flush()
