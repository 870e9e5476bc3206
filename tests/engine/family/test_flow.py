"""Family days: fields, free takes, placement, map rewards, passing, turn order, 5 days."""

from __future__ import annotations

import pytest

from engine import Action, IllegalAction

from .helpers import started


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_fields_hold_two_cats_per_player_and_rare_treasures_go_to_the_supply(seats: int) -> None:
    game = started(seats, 3)
    fill = next(e for e in game.events if e["type"] == "fill_fields")
    assert len(fill["left"]) == len(fill["right"]) == 2 * seats
    tiles = game.state.tiles
    assert all(tiles[i].kind == "cat" for i in fill["left"] + fill["right"])
    rare = [i for i in fill["drawn"] if tiles[i].kind == "rare_treasure"]
    assert game.state.supply.rare == rare


def test_take_then_place_is_free_and_passes_the_turn() -> None:
    game = started(2, 8)
    seat = game.pending()[0]
    assert seat == game.state.turn_order[0]
    take = game.legal_actions(seat)[0]
    assert take.kind == "take"
    tile = game.state.fields.side(take[1])[take[2]]
    game.apply(seat, take)
    assert game.pending() == (seat,) and game.frames[-1].name == "place"
    legal = game.legal_actions(seat)
    assert len(legal) > 0 and all(a.kind == "place" for a in legal)
    with pytest.raises(IllegalAction):
        game.apply(seat, Action("pass"))
    game.apply(seat, legal[0])
    assert game.state.players[seat].boat.tiles[0].tile_id == tile
    assert game.state.players[seat].fish == 0
    if game.frames[-1].name != "take_treasure":
        assert game.pending() == (1 - seat,)


def _cover_own_map_with_rare_in_supply() -> tuple[object, int]:
    """A family game where the first seat has just covered the map of its cat's colour
    while a rare treasure lies in the supply; returns the game and the seat."""
    for seed in range(60):
        game = started(2, seed)
        if not game.state.supply.rare:
            continue
        seat = game.pending()[0]
        boat = game.state.players[seat].boat
        take = next(a for a in game.legal_actions(seat) if a.kind == "take")
        colour = game.state.tiles[game.state.fields.side(take[1])[take[2]]].colour
        game.apply(seat, take)
        cover = next(a for a in game.legal_actions(seat) if a[1] & boat.layout.maps[colour])
        game.apply(seat, cover)
        return game, seat
    pytest.fail("no seed drew a rare treasure on day 1")


def test_covering_own_colour_map_offers_only_common_treasures() -> None:
    """Summary 002: in the family variant the maps work "as usual", and the base rules
    give "any one of the four common treasures" - never a rare one, even when the
    supply holds some."""
    game, seat = _cover_own_map_with_rare_in_supply()
    boat = game.state.players[seat].boat
    assert game.frames[-1].name == "take_treasure" and game.pending() == (seat,)
    assert game.observation(seat)["decision"]["pool"] == "common_any"
    offer = {a[1] for a in game.legal_actions(seat) if a.kind == "take_treasure"}
    assert offer == {"monomino_1", "domino_2", "L_tromino_3", "I_tromino_3"}
    assert Action("decline") in game.legal_actions(seat)
    game.apply(seat, Action("take_treasure", "domino_2"))
    game.apply(seat, game.legal_actions(seat)[0])
    assert [t.kind for t in boat.tiles] == ["cat", "common_treasure"]
    assert game.pending() == (1 - seat,)


def test_a_rare_treasure_is_never_the_map_reward() -> None:
    game, seat = _cover_own_map_with_rare_in_supply()
    shape = game.state.tiles[game.state.supply.rare[0]].shape
    with pytest.raises(IllegalAction, match="no .* treasure that fits your boat is on offer"):
        game.apply(seat, Action("take_treasure", shape))


def test_a_cat_not_on_its_own_map_earns_nothing() -> None:
    game = started(2, 8)
    seat = game.pending()[0]
    game.apply(seat, next(a for a in game.legal_actions(seat) if a.kind == "take"))
    maps = game.state.players[seat].boat.layout.maps_mask
    game.apply(seat, next(a for a in game.legal_actions(seat) if not a[1] & maps))
    assert game.frames[-1].name == "family_turn" and game.pending() == (1 - seat,)


def test_passing_is_for_the_rest_of_the_day_and_the_first_player_rotates() -> None:
    game = started(3, 4)
    order = list(game.state.turn_order)
    a, b, c = order
    game.apply(a, Action("pass"))
    assert game.pending() == (b,)
    game.apply(b, Action("pass"))
    assert game.pending() == (c,)
    for _ in range(2):  # the last one keeps taking until it passes
        game.apply(c, next(x for x in game.legal_actions(c) if x.kind == "take"))
        game.apply(c, game.legal_actions(c)[0])
        if game.frames[-1].name == "take_treasure":
            game.apply(c, Action("decline"))
        assert game.pending() == (c,)
    left = [x.tile for x in game.state.fields.cats]
    game.apply(c, Action("pass"))
    end = next(e for e in reversed(game.events) if e["type"] == "end_of_day")
    assert sorted(end["fled"]) == sorted(left)
    assert set(left) <= set(game.state.removed)
    assert game.state.day == 2 and game.state.turn_order == [b, c, a]
    assert game.pending() == (b,)


def test_the_game_lasts_five_days_then_scores() -> None:
    game = started(2, 9)
    first = list(game.state.turn_order)
    while not game.is_over():
        game.apply(game.pending()[0], Action("pass"))
    days = [e["day"] for e in game.events if e["type"] == "end_of_day"]
    assert days == [1, 2, 3, 4, 5]
    orders = [e["turn_order"] for e in game.events if e["type"] == "turn_order"]
    assert orders == [first[::-1], first, first[::-1], first]
    result = game.result()
    for sheet in result["breakdown"]:  # every rat visible, 7 rooms unfilled, no families
        assert (sheet["rats"], sheet["rooms"], sheet["families"]) == (-19, -35, 0)
        assert sheet["total"] == -54 + sheet["private_lessons"]
        assert sheet["rare_treasures"] == 0 and sheet["public_lessons"] == 0
    assert result["tiebreak"] == {"name": "filled_rooms", "values": [0, 0]}
    best = max(result["scores"])
    assert result["winners"] == [s for s, v in enumerate(result["scores"]) if v == best]
    with pytest.raises(IllegalAction):
        game.apply(0, Action("pass"))


def test_bad_takes_are_illegal_with_a_reason() -> None:
    game = started(2, 2)
    seat = game.pending()[0]
    with pytest.raises(IllegalAction) as err:
        game.apply(seat, Action("take", "left", 99))
    assert "no cat 99" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        game.apply(seat, Action("take", "middle", 0))
    assert "'left' or 'right'" in err.value.reason
    with pytest.raises(IllegalAction):
        game.apply(seat, Action("take_treasure", "domino_2"))
