"""Shared helpers of the family tests: a started game and the invariants after every action."""

from __future__ import annotations

from engine import new_game
from engine.cards import FAMILY_LESSON_IDS
from engine.modes.family import FamilyGame


def new_family(seats: int, seed: int) -> FamilyGame:
    game = new_game("family", seats, seed)
    assert isinstance(game, FamilyGame)
    return game


def started(seats: int, seed: int) -> FamilyGame:
    """A game past the lesson choice (everybody keeps their first pair)."""
    game = new_family(seats, seed)
    for seat in range(seats):
        game.apply(seat, 0)
    return game


def dealt(game: FamilyGame) -> list[list[int]]:
    """The lessons in each hand while the choice is open."""
    return [sorted(p.hand) for p in game.state.players]


def check_invariants(game: FamilyGame) -> None:
    """No overlap on any boat; every tile and every family lesson in exactly one place."""
    state = game.state
    for p in state.players:
        cells = 0
        for tile in p.boat.tiles:
            assert not cells & tile.mask, "two tiles overlap"
            assert not tile.mask & ~p.boat.layout.cells_mask, "a tile leaves the boat"
            assert tile.kind != "oshax", "no Oshax in the family variant"
            cells |= tile.mask
        assert cells == p.boat.occupied
        assert p.fish == 0 and not p.revealed_rescue
    where = state.tile_locations()  # raises on a tile in two places
    assert sorted(where) == [t.id for t in state.tiles], "a tile is lost"
    cards = state.card_locations()  # raises on a card in two places
    assert sorted(cards) == list(FAMILY_LESSON_IDS), "a lesson card is lost"
    assert all(len(p.private_lessons) in (0, 2) for p in state.players)
