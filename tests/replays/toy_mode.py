"""A tiny mode for the replay tests: each turn a seat places a drawn cat tile or passes.

Real modes land in engine/modes/ one by one; this one exercises the replay pipeline
(format, verify, frames, viewer) with the real boats, shapes and codec, whatever is
available. It is registered under the name ``toy`` by the ``toy_mode`` fixture only.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, ActionCodec, ActionSpec
from engine.boat import COLOURS, Boat, Tile, base_layouts
from engine.game import Game, GameType
from engine.rng import Rng
from engine.shapes import base_shapes, is_legal_placement, legal_placements

ROUNDS = 6


class ToyGame(Game):
    game_type = GameType("toy", 1, 4, False, False, "replay test mode", {"rounds": [3, 6]})
    codec = ActionCodec([ActionSpec("place", (("cells", "cells"),)), ActionSpec("pass")])

    def __init__(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, seed, options)
        self.rng = Rng(seed, "toy")
        names = list(base_layouts())
        self.boats = [Boat(base_layouts()[names[s]]) for s in range(seats)]
        self.fish = [0] * seats
        self.turn = 0
        self.rounds = self.options.get("rounds", ROUNDS)
        self._draw()

    def _draw(self) -> None:
        cats = base_shapes().cats
        self.shape = cats[self.rng.randbelow(len(cats))]
        self.colour = COLOURS[self.rng.randbelow(len(COLOURS))]
        self.log("draw", seat=self.turn % self.seats, shape=self.shape.key, colour=self.colour)

    def pending(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.turn % self.seats,)

    def legal_actions(self, seat: int):
        if seat not in self.pending():
            return []
        boat = self.boats[seat]
        out = [Action("pass")]
        placements = legal_placements(self.shape, boat.layout, boat.occupied)
        out += [Action("place", m) for m in placements]
        return out

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        if action.kind == "pass":
            return None
        boat = self.boats[seat]
        return is_legal_placement(self.shape, boat.layout, boat.occupied, action[1])

    def _apply(self, seat: int, action: Action) -> None:
        if action.kind == "place":
            self.boats[seat].place(Tile("cat", self.colour, self.shape.key, action[1],
                                        self.turn))
        else:
            self.fish[seat] += 1
        self.turn += 1
        if not self.is_over():
            self._draw()

    def is_over(self) -> bool:
        return self.turn >= self.rounds * self.seats

    def _player(self, s: int) -> dict[str, Any]:
        b = self.boats[s]
        return {"seat": s, "boat": b.layout.name, "fish": self.fish[s],
                "tiles": [t.to_json() for t in b.tiles]}

    def spectator_view(self) -> dict[str, Any]:
        players = [self._player(s) for s in range(self.seats)]
        return {"mode": "toy", "turn": self.turn, "players": players,
                "drawn": {"shape": self.shape.key, "colour": self.colour}}

    def observation(self, seat: int) -> dict[str, Any]:
        view = self.spectator_view()
        view["you"] = seat
        return view

    def result(self) -> dict[str, Any]:
        scores = [b.occupied.bit_count() + self.fish[s] for s, b in enumerate(self.boats)]
        ranks = [1 + sum(o > sc for o in scores) for sc in scores]
        return {"mode": "toy", "seats": self.seats, "seed": self.seed, "scores": scores,
                "ranks": ranks, "winners": [s for s, r in enumerate(ranks) if r == 1],
                "breakdown": [{"cells": b.occupied.bit_count(), "fish": self.fish[s],
                               "total": scores[s]} for s, b in enumerate(self.boats)],
                "boats": [{"boat": b.layout.name, "tiles": [t.to_json() for t in b.tiles]}
                          for b in self.boats],
                "state_hash": self.state_hash()}
