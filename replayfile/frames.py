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
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any

from engine.boat import Boat, BoatLayout, base_layouts, cells_of
from engine.cards import base_cards
from engine.game import Game
from engine.modes.duel.data import duel_data
from engine.modes.standard.result import table_facts
from engine.narration import Narrator, seat_names
from engine.scoring import sister_score
from engine.shapes import base_shapes

from .fault_notes import default_say, fault_notes
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


def _shapes(mode: str) -> dict[str, list[list[int]]]:
    """Every tile shape's cells by key (the base game's, plus the Duel's), so the viewer can
    draw tiles that are not on a boat yet: the fields, the supply, the island."""
    shapes = base_shapes()
    out = {item.key: [list(c) for c in item.cells]
           for group in (shapes.cats, shapes.oshax, shapes.rare_treasures,
                         shapes.common_treasures) for item in group}
    if mode == "duel":
        out.update({key: [list(c) for c in shape.cells]
                    for key, shape in duel_data().shape_by_key.items()})
    return out


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
        if card.family == "rescue":
            entry["speed"] = card.speed
            entry["basket"] = card.basket
        if card.colour:
            entry["colour"] = card.colour
        if card.basket_count is not None:
            entry["baskets"] = card.basket_count
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


PUBLIC_ONLY = ("you", "decision", "decisions", "seat")  # keys of one seat's secrets


def public_view(game: Game) -> dict[str, Any]:
    """What anybody watching a match that is still running may see: seat 0's observation
    without seat 0's own secrets (its hand, draft, private lessons, pending decision). Used
    for live matches, where the omniscient ``spectator_view`` would show hidden cards."""
    view = dict(game.observation(0))
    for key in PUBLIC_ONLY:
        view.pop(key, None)
    return view


# Keys of a view whose change can change a score (see FrameBuilder.after_step).
SCORE_KEYS = frozenset({"tiles", "boat", "boats", "lessons", "public_lessons",
                        "private_lessons", "fish", "sister", "colour"})


def _touches(patch: Any, keys: frozenset[str]) -> bool:
    """Whether a patch (see ``diff``) changes anything under one of ``keys``; a replaced
    container counts as touching everything in it."""
    if patch is None:
        return False
    op = patch[0]
    if op == "=":
        return isinstance(patch[1], (dict, list))
    if op == "d":
        if any(k in keys for k in patch[2]):
            return True
        return any(k in keys or _touches(sub, keys) for k, sub in patch[1].items())
    if op == "l":
        return any(_touches(sub, keys) for sub in patch[2].values())
    return True


class FrameBuilder:
    """Frames of one game, built step by step: for a whole replay (``build_frames``) or as a
    live match is played (``replays.live``).

    ``seat`` None with ``public`` False is the omniscient spectator of a finished game; a seat
    number is what that seat knew; ``public`` is what anybody may see while the game runs.
    Sentences come from ``engine.narration``; hidden cards are named only to whom may see them.
    """

    def __init__(self, game: Game, header: Mapping[str, Any], seat: int | None = None,
                 *, public: bool = False) -> None:
        self.game = game
        self.header = header
        self.seat = seat
        self.public = public and seat is None
        names = seat_names(header.get("players"), game.seats)
        if self.public:
            can_see = lambda s: False  # noqa: E731
        elif seat is None:
            can_see = lambda s: True  # noqa: E731
        else:
            can_see = lambda s: s == seat  # noqa: E731
        self.narrator = Narrator(game, names, can_see)
        self.catalogue = header.get("actions") or {}
        self.previous = self.view()
        self.base = self.previous
        self.events_seen = 0
        self.steps = 0
        self._scores: list[int | None] | None = None
        self.first_events = self._take_events(None)

    def view(self) -> dict[str, Any]:
        if self.public:
            return public_view(self.game)
        return self.game.spectator_view() if self.seat is None else self.game.observation(self.seat)

    def scores(self) -> list[int | None] | None:
        """Each seat's score if the game ended now (the mode's ``scores()`` sheets). A seat's
        view gets only its own; the public view leaves out the private lessons."""
        sheets_of = getattr(self.game, "scores", None)
        if not callable(sheets_of):
            return None
        try:
            sheets = sheets_of()
            if self.public:
                return [sheet["total"] - int(sheet.get("private_lessons") or 0)
                        for sheet in sheets]
            totals = [sheet["total"] for sheet in sheets]
        except Exception:  # noqa: BLE001 - a mode that cannot score mid-game
            return None
        return totals if self.seat is None else [t if s == self.seat else None
                                                 for s, t in enumerate(totals)]

    def scores_count(self) -> str | None:
        """What the scores of these frames count, for the viewer to say beside them (the
        match's pictures say theirs too, replayfile/images.py): ``"public"`` (the table's view:
        private lessons, face down until the end, not counted), ``"all"`` (the spectator of a
        recorded game: private lessons counted) or ``"own"`` (a seat's view: its score only).
        None in a mode whose score has no private part, where all three agree."""
        if self.seat is not None:
            return "own"
        sheets_of = getattr(self.game, "scores", None)
        try:
            private = callable(sheets_of) and any("private_lessons" in sheet
                                                   for sheet in sheets_of())
        except Exception:  # noqa: BLE001 - a mode that cannot score mid-game
            private = False
        if not private:
            return None
        return "public" if self.public else "all"

    def _visible_event(self, event: Mapping[str, Any]) -> dict[str, Any]:
        if not event.get("hidden") or (self.seat is None and not self.public):
            return dict(event)
        if self.seat is not None and event.get("seat") == self.seat:
            return dict(event)
        return {k: event[k] for k in ("step", "type", "seat", "hidden") if k in event}

    def _take_events(self, step_kind: str | None) -> list[dict[str, Any]]:
        new = self.game.events[self.events_seen:]
        self.events_seen = len(self.game.events)
        out = []
        for event in new:
            shown = self._visible_event(event)
            say = self.narrator.event(event, step_kind)
            if say is not None:
                shown["say"] = say
            out.append(shown)
        return out

    def setup(self) -> dict[str, Any]:
        """Everything that does not change, and frame 0."""
        return {
            "header": dict(self.header),
            "seat": SPECTATOR if self.seat is None else self.seat,
            "seats": self.game.seats,
            "names": self.narrator.names,
            "layouts": _layouts_of(self.game),
            "cards": _cards(self.game.mode),
            "island": _island(self.game),
            "shapes": _shapes(self.game.mode),
            "base": self.base,
            "events0": self.first_events,
            "scores0": self.scores(),
            "scores_count": self.scores_count(),
            "day0": self.base.get("day"),
        }

    def after_step(self, seat: int, action_json: Mapping[str, Any], action: Any,
                   micros: int | None, note: str | None) -> dict[str, Any]:
        """The frame entry of a step just applied to the game."""
        kind = str(action_json.get("kind", ""))
        raw_events = self.game.events[self.events_seen:]
        say = self.narrator.step(seat, action_json, raw_events, self.previous)
        events = self._take_events(kind)
        current = self.view()
        patch = diff(self.previous, current)
        # Scoring is the dearest part of a frame: a step that changed nothing a score is
        # made of (boats, lessons, fish) keeps the scores of the step before.
        if self.steps and self._scores is not None and not _touches(patch, SCORE_KEYS):
            scores = self._scores
        else:
            scores = self.scores()
        self._scores = scores
        entry = {
            "step": {"seat": seat, "action": dict(action_json),
                     "text": self.game.codec.text(action), "say": say,
                     "seconds": None if micros is None else micros / 1_000_000, "note": note},
            "patch": patch,
            "events": events,
            "scores": scores,
            "day": current.get("day"),
        }
        self.previous = current
        self.steps += 1
        return entry


def marks_of(days: list[Any], faults: list[Mapping[str, Any]]) -> dict[str, Any]:
    """Where the score chart and the seek bar mark the start of each day and each fault
    (frame indices; a fault's own ``frame`` when ``fault_notes`` gave it one)."""
    starts = [i for i in range(1, len(days)) if days[i] is not None and days[i] != days[i - 1]]
    fault_marks = []
    for fault in faults:
        step = fault.get("step")
        if isinstance(step, int):
            frame = fault.get("frame", step + 1)
            mark = {"frame": min(frame, len(days) - 1), "seat": fault.get("seat"),
                    "kind": fault.get("kind")}
            if fault.get("say"):
                mark["say"] = fault["say"]
            fault_marks.append(mark)
    return {"days": [{"frame": i, "day": days[i]} for i in starts], "faults": fault_marks}


def sister_total(game: Game) -> int | None:
    """The solo sister's score if the game ended now (as the result scores her: the player's
    table and her colour order and lessons), for the score chart's line of hers; None in other
    modes, or before she can be scored."""
    sister = getattr(game, "sister", None)
    if sister is None:
        return None

    try:
        facts = table_facts(game)
        facts.players[0].turn_position = 1 if sister.first else 0
        return int(sister_score(facts.players[0], sister.colour_order, sister.lessons)["total"])
    except Exception:  # noqa: BLE001 - not scorable yet (no colour order before the draw)
        return None


def replay_start(doc: Mapping[str, Any]) -> Game:
    """The game a decoded replay starts from. ``FramesError`` when the replay has more steps
    than any game (it bounds the work an uploaded file can ask for) or its configuration is
    rejected (an unknown mode or bad options: files from elsewhere)."""
    if len(doc["steps"]) > MAX_STEPS:
        raise FramesError(f"the replay has {len(doc['steps'])} steps; a game has at most "
                          f"{MAX_STEPS}")
    try:
        return game_from_header(doc["header"])
    except Exception as exc:  # an unknown mode or bad options (files from elsewhere)
        raise FramesError(f"the replay's configuration is rejected: {exc}") from None


def replay_apply(game: Game, i: int, row: Sequence[Any], catalogue: Mapping[str, Any]
                 ) -> tuple[dict[str, Any], Any]:
    """Play the replay's step ``i`` (its row) on ``game``: the action as JSON and as the
    engine took it. ``FramesError`` names the step when the engine refuses it."""
    action_json = expand_action(row[1], catalogue)
    try:
        return action_json, game.apply(row[0], action_json)
    except Exception as exc:  # an engine error of any kind: the replay does not replay
        raise FramesError(f"step {i} cannot be replayed: {exc}") from None


def build_frames(doc: Mapping[str, Any], seat: int | None = None) -> dict[str, Any]:
    """The viewer payload of a decoded replay, as ``seat`` saw it (None: spectator)."""
    header = doc["header"]
    game = replay_start(doc)
    if seat is not None and not 0 <= seat < game.seats:
        raise InvalidSeat(f"seat {seat} is not in this {game.seats}-seat game")

    builder = FrameBuilder(game, header, seat)
    setup = builder.setup()
    catalogue = header["actions"]
    patches: list[Any] = []
    steps: list[dict[str, Any]] = []
    events: list[list[dict[str, Any]]] = [setup["events0"]]
    scores = [setup["scores0"]]
    sister = [sister_total(game)]
    days = [setup["day0"]]
    for i, row in enumerate(doc["steps"]):
        action_json, action = replay_apply(game, i, row, catalogue)
        entry = builder.after_step(row[0], action_json, action, row[2],
                                   row[3] if len(row) > 3 else None)
        steps.append(entry["step"])
        patches.append(entry["patch"])
        events.append(entry["events"])
        scores.append(entry["scores"])
        if game.mode == "solo":
            sister.append(sister_total(game))
        days.append(entry["day"])
    # Public fields only (a stored replay of an older build may still carry a fault's stderr),
    # with where each fault happened in words; the faulted seats' later moves are narrated as
    # the default policy's.
    faults, default_steps = fault_notes(doc.get("faults") or [], [row[0] for row in doc["steps"]],
                                        header.get("players"))  # fmt: skip
    names = setup["names"]
    for i, seat in default_steps.items():
        steps[i]["default"] = True
        steps[i]["say"] = default_say(steps[i].get("say") or steps[i].get("text"), names[seat])
    return {
        "header": setup["header"],
        "result": doc.get("result"),
        "faults": faults,
        "state_hash": doc.get("state_hash"),
        "seat": setup["seat"],
        "seats": setup["seats"],
        "names": setup["names"],
        "layouts": setup["layouts"],
        "cards": setup["cards"],
        "island": setup["island"],
        "shapes": setup["shapes"],
        "steps": steps,
        "events": events,
        "views": {"base": setup["base"], "patches": patches},
        "scores": scores if any(row is not None for row in scores) else None,
        "scores_count": setup["scores_count"],
        # solo: the sister's score at each frame, her line on the score chart
        "sister_scores": sister if any(v is not None for v in sister) else None,
        "marks": marks_of(days, faults),
        "live": False,
    }
