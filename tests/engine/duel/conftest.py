"""Helpers for the Duel tests: a game past set-up, a hand-set island, boats from cell lists."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import pytest

from engine import new_game
from engine.boat import Boat, Tile, mask_of
from engine.modes.duel import DuelGame
from engine.modes.duel.data import duel_data


@dataclass
class DuelKit:
    """Builders shared by the Duel tests (a fixture, as tests are not a package)."""

    def game(self, seed: int = 1, boats: Sequence[str] = ("O", "O")) -> DuelGame:
        """A game whose two boats are chosen: day 1, the first player's turn, Oshax on 1."""
        game = new_game("duel", 2, seed)
        assert isinstance(game, DuelGame)
        first = game.current
        game.apply(first, {"kind": "choose_boat", "boat": boats[0]})
        game.apply(1 - first, {"kind": "choose_boat", "boat": boats[1]})
        return game

    def set_island(self, game: DuelGame, items: Mapping[int, int]) -> None:
        """Replace the island's contents: ``{space: tile or card id}``."""
        game.island = [None] * 16
        for space, item in items.items():
            game.island[space] = item
        game.state_changed()

    def walk(self, game: DuelGame, *spaces: int) -> None:
        seat = game.current
        for s in spaces:
            game.apply(seat, {"kind": "move", "to": s})

    def boat(self, layout: str, tiles: Iterable[tuple[str | None, Sequence[Sequence[int]]]]
             ) -> Boat:
        """A boat holding one tile per entry: (colour or None for a treasure, cells)."""
        boat = Boat(duel_data().layouts[layout])
        for i, (colour, cells) in enumerate(tiles):
            kind = "cat" if colour else "common_treasure"
            boat.place(Tile(kind, colour, "custom", mask_of(cells), 1000 + i))
        return boat

    def kinds(self, game: DuelGame, seat: int) -> list[str]:
        return [a[0] for a in game.legal_actions(seat)]


@pytest.fixture
def kit() -> DuelKit:
    return DuelKit()
