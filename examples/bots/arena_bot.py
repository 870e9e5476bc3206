"""A small helper for Isle Arena bots written in Python: copy it next to your bot.

It owns the protocol (docs/bot-protocol.md): the read loop, the answer to
"start", flushing every reply, and the "end" message. You write one function
that takes a "decide" message and returns your choice::

    from arena_bot import run, choose_index

    def decide(message, game):
        return choose_index(0, debug="first legal action")

    run(decide)

Upload it as a zip: bot.json ({"entrypoint": "main.py", "language": "python3"}),
main.py and this file. Standard library only; protocol version 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any, TextIO

PROTOCOL_VERSION = 1


class GameInfo:
    """What the "start" message told us: mode, seat, seats, options, limits, catalogue."""

    def __init__(self, start: dict[str, Any]) -> None:
        self.start = start
        self.mode: str = start["mode"]
        self.seat: int = start["seat"]
        self.seats: int = start["seats"]
        self.options: dict[str, Any] = start.get("options", {})
        self.limits: dict[str, Any] = start.get("limits", {})
        self.catalogue: list[dict[str, Any]] = start.get("catalogue", [])


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
