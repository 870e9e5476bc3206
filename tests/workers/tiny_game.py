"""A tiny mode for the workers' protocol and fault tests: take 1-3 fish or pass, in turn.

Registered as ``tiny`` by the ``tiny_mode`` fixture only. It makes a match of a few
dozen decisions that needs nothing of the real modes, so the sandbox tests stay fast
and independent of the rules engines.
"""

from __future__ import annotations

from typing import Any

from engine.actions import Action, ActionCodec, ActionSpec
from engine.game import Game, GameType


class TinyGame(Game):
    game_type = GameType("tiny", 1, 4, False, False, "workers test mode",
                         {"rounds": list(range(1, 201))})  # fmt: skip
    codec = ActionCodec([ActionSpec("take", (("n", "int"),), "take n fish"), ActionSpec("pass")])

    def __init__(self, seats: int, seed: int, options: dict[str, Any] | None = None) -> None:
        super().__init__(seats, seed, options)
        self.rounds = self.options.get("rounds", 6)
        self.fish = [0] * seats
        self.turn = 0

    def pending(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.turn % self.seats,)

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.pending():
            return []
        return [Action("pass"), *(Action("take", n) for n in (1, 2, 3))]

    def _apply(self, seat: int, action: Action) -> None:
        if action.kind == "take":
            self.fish[seat] += action[1]
        self.turn += 1

    def observation(self, seat: int) -> dict[str, Any]:
        return {"turn": self.turn, "fish": list(self.fish), "seat": seat}

    def spectator_view(self) -> dict[str, Any]:
        return {"turn": self.turn, "fish": list(self.fish)}

    def is_over(self) -> bool:
        return self.turn >= self.rounds * self.seats

    def result(self) -> dict[str, Any]:
        ranks = [1 + sum(f > mine for f in self.fish) for mine in self.fish]
        return {"mode": "tiny", "seats": self.seats, "seed": self.seed, "scores": list(self.fish),
                "ranks": ranks, "winners": [s for s, r in enumerate(ranks) if r == 1],
                "state_hash": self.state_hash()}  # fmt: skip
