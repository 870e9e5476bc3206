"""Shared helpers of the family tests: invariants checked after every action."""

from __future__ import annotations

from engine.cards import FAMILY_LESSON_IDS
from engine.modes.family import FamilyGame


def check_invariants(game: FamilyGame) -> None:
    """No overlap on any boat; every tile and every family lesson in exactly one place."""
    placed: list[int] = []
    for boat in game.boats:
        cells = 0
        for tile in boat.tiles:
            assert not cells & tile.mask, "two tiles overlap"
            assert not tile.mask & ~boat.layout.cells_mask, "a tile leaves the boat"
            cells |= tile.mask
            placed.append(tile.tile_id)
            assert tile.kind != "oshax", "no Oshax in the family variant"
        assert cells == boat.occupied
    table = game.table
    places = (table.bag + table.fields["left"] + table.fields["right"] + table.rare_supply
              + table.common_supply + table.removed + placed
              + ([game.held] if game.held is not None else []))
    assert sorted(places) == [t.id for t in table.tiles], "a tile is lost or duplicated"
    if game.phase == "lessons":
        cards = [c for d in game.dealt for c in d] + game.lesson_deck
    else:
        cards = [c for k in game.kept for c in (k or ())] + game.discarded + game.lesson_deck
    assert sorted(cards) == list(FAMILY_LESSON_IDS), "a lesson card is lost or duplicated"
