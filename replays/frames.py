"""Viewer frames: a replay re-simulated into one view per step, sent compactly.

Pure (no Django). Frame 0 is the view before the first action; frame ``i`` is the view
after step ``i - 1``. Views are ``spectator_view()`` (omniscient) or ``observation(seat)``
(what that seat knew). To keep the payload small, only frame 0 is sent whole and every
later frame is a structural patch against the one before (see ``diff``); boat layouts and
card labels, which never change, are sent once in ``layouts`` and ``cards``.

Patch forms (all plain JSON):

* ``["=", value]`` — replace by ``value``;
* ``["d", {key: patch, ...}, [deleted keys]]`` — patch some keys of an object;
* ``["l", length, {index: patch, ...}]`` — cut or extend a list to ``length`` and patch some
  indices (new indices always come as ``["=", value]``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from typing import Any

from engine.boat import Boat, BoatLayout, base_layouts, cells_of
from engine.cards import base_cards
from engine.game import Game

from .format import expand_action
from .verify import game_from_header

SPECTATOR = "spectator"
MAX_STEPS = 20_000  # no real game comes near; bounds the work an uploaded file can ask for


class FramesError(ValueError):
    """The replay cannot be re-simulated into frames (an illegal step, an unknown seat)."""


class InvalidSeat(FramesError):
    """The requested seat is not ``spectator`` nor a seat of the game."""


def diff(old: Any, new: Any) -> list[Any] | None:
    """The patch turning ``old`` into ``new``, or None when they are equal."""
    if old == new and type(old) is type(new):
        return None
    if isinstance(old, dict) and isinstance(new, dict):
        changed: dict[str, Any] = {}
        for key, value in new.items():
            if key not in old:
                changed[key] = ["=", value]
            else:
                sub = diff(old[key], value)
                if sub is not None:
                    changed[key] = sub
        deleted = [key for key in old if key not in new]
        return ["d", changed, deleted]
    if isinstance(old, list) and isinstance(new, list):
        changed_items: dict[str, Any] = {}
        for i, value in enumerate(new):
            if i >= len(old):
                changed_items[str(i)] = ["=", value]
            else:
                sub = diff(old[i], value)
                if sub is not None:
                    changed_items[str(i)] = sub
        # A rewritten list is cheaper sent whole than patched item by item.
        if len(changed_items) > max(2, len(new) // 2):
            return ["=", new]
        return ["l", len(new), changed_items]
    return ["=", new]


def apply_patch(old: Any, patch: list[Any] | None) -> Any:
    """Inverse of ``diff`` (the viewer does the same in JavaScript); used by the tests."""
    if patch is None:
        return old
    op = patch[0]
    if op == "=":
        return patch[1]
    if op == "d":
        out = {k: v for k, v in old.items() if k not in patch[2]}
        for key, sub in patch[1].items():
            out[key] = apply_patch(old.get(key), sub)
        return out
    if op == "l":
        out_list = list(old[: patch[1]])
        for index, sub in sorted(patch[2].items(), key=lambda kv: int(kv[0])):
            i = int(index)
            if i < len(out_list):
                out_list[i] = apply_patch(out_list[i], sub)
            else:
                out_list.append(apply_patch(None, sub))
        return out_list
    raise ValueError(f"unknown patch op {op!r}")


def layout_json(layout: BoatLayout) -> dict[str, Any]:
    """A boat's printed geometry for drawing: cells, rooms, rats and maps."""
    return {
        "name": layout.name,
        "cells": cells_of(layout.cells_mask),
        "rooms": [{"key": r.key, "name": r.name, "cells": cells_of(r.mask)} for r in layout.rooms],
        "rats": cells_of(layout.rats_mask),
        "maps": {colour: cells_of(mask)[0] for colour, mask in layout.maps.items()},
    }


def _layouts_of(game: Game) -> dict[str, dict[str, Any]]:
    """Every layout the viewer may meet: the base boats, plus any boat the game holds
    (Duel and future modes may bring their own geometry)."""
    found: dict[str, BoatLayout] = dict(base_layouts())

    def visit(value: Any, depth: int) -> None:
        if isinstance(value, Boat):
            found.setdefault(value.layout.name, value.layout)
        elif isinstance(value, BoatLayout):
            found.setdefault(value.name, value)
        elif depth < 2 and isinstance(value, (list, tuple)):
            for item in value:
                visit(item, depth + 1)
        elif depth < 2 and isinstance(value, dict):
            for item in value.values():
                visit(item, depth + 1)

    declared = getattr(type(game), "layouts", None)
    if callable(declared):  # a mode's own boats (Duel), even those nobody chose
        for layout in declared().values():
            visit(layout, 0)
    for value in vars(game).values():
        visit(value, 0)
    return {name: layout_json(layout) for name, layout in found.items()}


def _island(game: Game) -> dict[str, Any] | None:
    """The Duel island's board (spaces with grid positions, the footprint paths between them)
    from the engine's data, for modes whose view has an ``island``."""
    graph = getattr(type(game), "island_graph", None)
    if not callable(graph):
        return None
    try:
        raw = json.loads(resources.files(f"engine.data.{game.mode}").joinpath("island.json")
                         .read_text())
    except (ModuleNotFoundError, FileNotFoundError):
        return None
    return {"spaces": raw["spaces"], "paths": raw["footprints"],
            "start": raw.get("oshax_start")}


def _cards(mode: str) -> dict[str, dict[str, Any]]:
    """Card labels by id: the mode's own catalogue (engine/data/<mode>/cards.json, as Duel
    has) or else the base game's."""
    try:
        raw = json.loads(resources.files(f"engine.data.{mode}").joinpath("cards.json")
                         .read_text())
        own = {str(c["id"]): {"family": c.get("kind") or c.get("family") or "",
                              "label": c.get("name") or c.get("label") or "",
                              "effect": c.get("effect") or ""} for c in raw["cards"]}
    except (ModuleNotFoundError, FileNotFoundError, KeyError, TypeError):
        own = None
    if own is not None:
        return own
    out = {}
    for card_id, card in base_cards().items():
        entry: dict[str, Any] = {"family": card.family, "label": card.label,
                                 "effect": card.effect}
        if card.cost is not None:
            entry["cost"] = card.cost
        out[str(card_id)] = entry
    return out


def parse_seat(value: str | int | None, seats: int) -> int | None:
    """``"spectator"``/None -> None, ``"2"`` -> 2; ``FramesError`` when out of range."""
    if value is None or value == SPECTATOR or value == "":
        return None
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise InvalidSeat(f"seat must be 0..{seats - 1} or 'spectator', not {value!r}") from None
    if not 0 <= seat < seats:
        raise InvalidSeat(f"seat must be 0..{seats - 1} or 'spectator', not {value!r}")
    return seat


def build_frames(doc: Mapping[str, Any], seat: int | None = None) -> dict[str, Any]:
    """The viewer payload of a decoded replay, as ``seat`` saw it (None: spectator)."""
    header = doc["header"]
    if len(doc["steps"]) > MAX_STEPS:
        raise FramesError(f"the replay has {len(doc['steps'])} steps; a game has at most "
                          f"{MAX_STEPS}")
    try:
        game = game_from_header(header)
    except Exception as exc:  # an unknown mode or bad options (files from elsewhere)
        raise FramesError(f"the replay's configuration is rejected: {exc}") from None
    if seat is not None and not 0 <= seat < game.seats:
        raise InvalidSeat(f"seat {seat} is not in this {game.seats}-seat game")

    def view() -> dict[str, Any]:
        return game.spectator_view() if seat is None else game.observation(seat)

    def running() -> list[int | None] | None:
        """Scores as they stand, when the mode can tell (``scores()`` sheets); a seat's
        view only gets its own, since the others' private lessons are hidden from it."""
        sheets_of = getattr(game, "scores", None)
        if not callable(sheets_of):
            return None
        try:
            totals = [sheet["total"] for sheet in sheets_of()]
        except Exception:  # noqa: BLE001 - a mode that cannot score mid-game
            return None
        return totals if seat is None else [t if s == seat else None
                                            for s, t in enumerate(totals)]

    catalogue = header["actions"]
    scores = [running()]
    previous = view()
    base = previous
    patches: list[Any] = []
    steps: list[dict[str, Any]] = []
    for i, row in enumerate(doc["steps"]):
        action_json = expand_action(row[1], catalogue)
        try:
            action = game.apply(row[0], action_json)
        except Exception as exc:  # an engine error of any kind: the replay does not replay
            raise FramesError(f"step {i} cannot be replayed: {exc}") from None
        micros = row[2]
        steps.append({
            "seat": row[0],
            "action": action_json,
            "text": game.codec.text(action),
            "seconds": None if micros is None else micros / 1_000_000,
            "note": row[3] if len(row) > 3 else None,
        })
        current = view()
        scores.append(running())
        patches.append(diff(previous, current))
        previous = current
    events: list[list[dict[str, Any]]] = [[] for _ in range(len(steps) + 1)]
    for event in game.events:
        index = min(max(int(event.get("step", 0)), 0), len(steps))
        events[index].append(event)
    return {
        "header": dict(header),
        "result": doc.get("result"),
        "faults": doc.get("faults") or [],
        "state_hash": doc.get("state_hash"),
        "seat": SPECTATOR if seat is None else seat,
        "seats": game.seats,
        "layouts": _layouts_of(game),
        "cards": _cards(game.mode),
        "island": _island(game),
        "steps": steps,
        "events": events,
        "views": {"base": base, "patches": patches},
        "scores": scores if any(row is not None for row in scores) else None,
    }
