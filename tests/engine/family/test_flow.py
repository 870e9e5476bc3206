"""Family days: fields, free takes, placement, map rewards, passing, turn order, 5 days."""

from __future__ import annotations

import pytest

from engine import Action, IllegalAction, new_game
from engine.modes.family import FamilyGame
from engine.modes.family.game import DAYS


def started(seats: int, seed: int) -> FamilyGame:
    game = new_game("family", seats, seed)
    for seat in range(seats):
        game.apply(seat, 0)
    assert isinstance(game, FamilyGame)
    return game


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fields_hold_two_cats_per_player_and_rare_treasures_go_to_the_supply(seats: int) -> None:
    game = started(seats, 3)
    fill = next(e for e in game.events if e["type"] == "fill")
    assert len(fill["left"]) == len(fill["right"]) == 2 * seats
    assert all(game.table.tiles[i].kind == "cat" for i in fill["left"] + fill["right"])
    assert all(game.table.tiles[i].kind == "rare_treasure" for i in fill["rare_treasures"])
    assert game.table.rare_supply == fill["rare_treasures"]


def test_take_then_place_is_free_and_passes_the_turn() -> None:
    game = started(2, 8)
    seat = game.pending()[0]
    assert seat == 0  # day 1: seat order
    take = game.legal_actions(seat)[0]
    assert take.kind == "take"
    game.apply(seat, take)
    assert game.pending() == (0,) and game.held == take[1]
    legal = game.legal_actions(0)
    assert all(a.kind == "place" for a in legal) and len(legal) > 0
    with pytest.raises(IllegalAction):
        game.apply(0, Action("pass"))
    game.apply(0, legal[0])
    assert game.boats[0].tiles[0].tile_id == take[1]
    if not game.reward:
        assert game.pending() == (1,)


def test_covering_own_colour_map_offers_common_or_rare_treasure() -> None:
    game = started(2, 8)
    boat = game.boats[0]
    take = next(a for a in game.legal_actions(0) if a.kind == "take")
    colour = game.table.tiles[take[1]].colour
    game.apply(0, take)
    cover = next(a for a in game.legal_actions(0) if a[1] & boat.layout.maps[colour])
    rares_before = list(game.table.rare_supply)
    game.apply(0, cover)
    assert game.reward and game.pending() == (0,)
    shapes = {a[1] for a in game.legal_actions(0) if a.kind == "treasure"}
    assert {"monomino_1", "domino_2", "L_tromino_3", "I_tromino_3"} <= shapes
    assert {game.table.tiles[i].shape for i in rares_before} <= shapes
    assert Action("skip") in game.legal_actions(0)
    game.apply(0, Action("treasure", "domino_2"))
    held = game.held
    assert game.table.tiles[held].kind == "common_treasure"
    game.apply(0, game.legal_actions(0)[0])
    assert [t.kind for t in boat.tiles] == ["cat", "common_treasure"]
    assert game.pending() == (1,) and not game.reward


def test_a_cat_not_on_its_own_map_earns_nothing() -> None:
    game = started(2, 8)
    take = next(a for a in game.legal_actions(0) if a.kind == "take")
    colour = game.table.tiles[take[1]].colour
    game.apply(0, take)
    maps = game.boats[0].layout.maps_mask
    off = next(a for a in game.legal_actions(0) if not a[1] & maps)
    game.apply(0, off)
    assert not game.reward and game.pending() == (1,)
    assert colour is not None


def test_passing_is_for_the_rest_of_the_day_and_the_first_player_rotates() -> None:
    game = started(3, 4)
    assert game.order == [0, 1, 2]
    game.apply(0, Action("pass"))
    assert game.pending() == (1,)
    game.apply(1, Action("pass"))
    assert game.pending() == (2,)
    # seat 2 alone keeps taking until it passes
    for _ in range(2):
        game.apply(2, next(a for a in game.legal_actions(2) if a.kind == "take"))
        game.apply(2, game.legal_actions(2)[0])
        if game.reward:
            game.apply(2, Action("skip"))
        assert game.pending() == (2,)
    left = game.table.field_cats()
    game.apply(2, Action("pass"))
    end = next(e for e in reversed(game.events) if e["type"] == "end_day")
    assert sorted(end["fled"]) == sorted(left)
    assert all(i in game.table.removed for i in left)
    assert game.day == 2 and game.order == [1, 2, 0] and game.pending() == (1,)


def test_the_game_lasts_five_days_then_scores() -> None:
    game = started(2, 9)
    while not game.is_over():
        game.apply(game.pending()[0], Action("pass"))
    days = [e["day"] for e in game.events if e["type"] == "day"]
    assert days == list(range(1, DAYS + 1))
    orders = [e["order"] for e in game.events if e["type"] == "day"]
    assert orders == [[0, 1], [1, 0], [0, 1], [1, 0], [0, 1]]
    result = game.result()
    for sheet in result["breakdown"]:  # every rat visible, 7 rooms unfilled, no families
        assert (sheet["rats"], sheet["rooms"], sheet["families"]) == (-19, -35, 0)
        assert sheet["total"] == -54 + sheet["private_lessons"]
    assert result["tiebreak"] == {"name": "filled_rooms", "values": [0, 0]}
    best = max(result["scores"])
    assert result["winners"] == [s for s, v in enumerate(result["scores"]) if v == best]
    assert all(b["rare_treasures"] == 0 and b["public_lessons"] == 0 for b in result["breakdown"])
    with pytest.raises(IllegalAction):
        game.apply(0, Action("pass"))


def test_taking_a_cat_that_is_not_in_a_field_is_illegal_with_a_reason() -> None:
    game = started(2, 2)
    with pytest.raises(IllegalAction) as err:
        game.apply(0, Action("take", 10_000))
    assert "not a cat in a field" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        game.apply(0, Action("treasure", "domino_2"))
    assert "take a cat" in err.value.reason
