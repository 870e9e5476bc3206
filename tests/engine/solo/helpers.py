"""Shared helpers of the solo tests: playing seeded games and the invariants."""

from __future__ import annotations

from collections.abc import Callable

from engine import new_game
from engine.cards import (
    DISCOVERY_IDS,
    SOLO_ADVANCED_LESSON_IDS,
    SOLO_BASIC_LESSON_IDS,
    SOLO_BASKET_IDS,
    SOLO_COLOUR_IDS,
)
from engine.modes.solo import SoloGame
from engine.rng import Rng


def solo(seed: int, difficulty: str = "easy") -> SoloGame:
    game = new_game("solo", 1, seed, {"difficulty": difficulty})
    assert isinstance(game, SoloGame)
    return game


def play_random(game: SoloGame, seed: int,
                after: Callable[[SoloGame], None] | None = None) -> SoloGame:
    rng = Rng(seed, "solo-test")
    while not game.is_over():
        legal = game.legal_actions(0)
        game.apply_unchecked(0, legal[rng.randbelow(len(legal))])
        if after is not None:
            after(game)
    return game


def check_invariants(game: SoloGame) -> None:
    """No overlap; every tile and every card in exactly one place; fish never negative."""
    state = game.state
    me = state.players[0]
    cells = 0
    for tile in me.boat.tiles:
        assert not cells & tile.mask, "two tiles overlap"
        assert not tile.mask & ~me.boat.layout.cells_mask, "a tile leaves the boat"
        cells |= tile.mask
    assert cells == me.boat.occupied
    where = state.tile_locations()  # raises on a tile in two places
    assert sorted(where) == [t.id for t in state.tiles], "a tile is lost"
    cards = state.card_locations()  # raises on a card in two places
    assert sorted(cards) == list(DISCOVERY_IDS), "a discovery card is lost"
    sister = sorted(game.sister.cards())
    solo_ids = [*SOLO_COLOUR_IDS, *SOLO_BASKET_IDS]
    assert set(solo_ids) <= set(sister)
    assert len(sister) == len(set(sister)), "a solo card is in two places"
    assert set(sister) - set(solo_ids) <= set(SOLO_BASIC_LESSON_IDS) | set(
        SOLO_ADVANCED_LESSON_IDS)
    assert me.fish >= 0, "fish went negative"
