"""A lean copy of a standard, family or solo game for look-ahead (``StandardGame.clone``).

``copy.deepcopy`` of a mid-game 4-player state costs milliseconds, mostly walking immutable
things (tiles, layouts, actions, the rules). This copies what a game changes as it is played
(lists, dicts, the players, boats, fields and supply, the frames, the solo sister) and shares
the rest. Frames refer to each other (a turn to its phase): the references are remapped to
the copies. ``tests/engine/test_clone.py`` plays clones and deep copies side by side.
"""

from __future__ import annotations

import copy
from typing import Any

from ...boat import Boat
from .fields import FieldCat, Fields
from .frames import Frame
from .state import PlayerState, State, Supply


def _player(p: PlayerState) -> PlayerState:
    twin = copy.copy(p)
    b = p.boat
    twin.boat = Boat(b.layout, list(b.tiles), b.occupied, dict(b.colour_masks))
    for name in ("hand", "draft_pile", "kept", "drawn", "bought_now", "private_lessons",
                 "chosen_rescue", "revealed_rescue"):
        setattr(twin, name, list(getattr(p, name)))
    twin._texts = None
    return twin


def clone_state(s: State) -> State:
    twin = copy.copy(s)
    twin.players = [_player(p) for p in s.players]
    twin.bag, twin.deck = list(s.bag), list(s.deck)
    fields = Fields([FieldCat(c.tile, c.side) for c in s.fields.cats])
    twin.fields = fields
    twin.supply = Supply(list(s.supply.oshax), list(s.supply.rare),
                         {k: list(v) for k, v in s.supply.common.items()})
    for name in ("discard", "played", "public_lessons", "public_lessons_pending", "removed",
                 "in_transit", "turn_order"):
        setattr(twin, name, list(getattr(s, name)))
    return twin


def _value(v: Any, frames: dict[int, Frame]) -> Any:
    if isinstance(v, list):
        return [_value(x, frames) for x in v]
    if isinstance(v, dict):
        return {k: _value(x, frames) for k, x in v.items()}
    if isinstance(v, set):
        return set(v)
    if isinstance(v, Frame):
        return frames.get(id(v), v)
    return v  # ints, strings, tuples, None: immutable


def clone_frames(stack: list[Frame]) -> list[Frame]:
    copies: dict[int, Frame] = {id(f): copy.copy(f) for f in stack}
    out = []
    for f in stack:
        twin = copies[id(f)]
        for key, value in vars(f).items():
            setattr(twin, key, _value(value, copies))
        out.append(twin)
    return out


def clone_game(game: Any) -> Any:
    twin = copy.copy(game)
    twin.history = list(game.history)
    twin.events = list(game.events)
    twin.seat_steps = list(game.seat_steps)
    twin.options = dict(game.options)
    twin.state = clone_state(game.state)
    twin.frames = clone_frames(game.frames)
    twin._legal = {}
    sister = getattr(game, "sister", None)
    if sister is not None:
        twin.sister = copy.copy(sister)
        for key, value in vars(sister).items():
            if isinstance(value, list):
                setattr(twin.sister, key, [dict(x) if isinstance(x, dict) else x for x in value])
    return twin
