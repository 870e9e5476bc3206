"""The random bot: uniform over the legal actions, seeded, for every mode."""

from __future__ import annotations

from ..actions import Action
from ..game import Game
from ..rng import Rng


class RandomBot:
    name = "random"
    trusted = True

    def __init__(self, seat: int, seed: int) -> None:
        self.rng = Rng(seed, f"bot:random:{seat}")
        self.last_note: str | None = None

    def act(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        return legal[self.rng.randbelow(len(legal))]

    def close(self) -> None:
        pass
