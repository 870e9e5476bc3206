"""Every discovery card that acts during play, grouped by kind: Oshax (1-6), rescue (7-66),
anytime (67-97) and treasure (98-112, both options). Lessons (113-150) are scored by
engine/scoring.py; test_lessons_timing.py checks when they are read."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.boat import COLOURS
from engine.cards import base_cards
from engine.modes.standard import Step
from engine.modes.standard.phases.anytime import is_playable
from engine.modes.standard.phases.rescue import basket_kinds

from .helpers import (
    act,
    cat,
    choose_and_reveal,
    empty_hands,
    game,
    give,
    jump,
    kinds,
    placement_avoiding,
    placement_covering,
    put_tile,
    rare_finds_turn,
    rescue_turn,
    tiles_of,
)

CARDS = base_cards()


def ids_of(anytime_type: str) -> list[int]:
    return [c.id for c in CARDS.values() if c.anytime_type == anytime_type]


def anytime_turn(g, *cards: int, left: tuple[int, ...] = ()) -> int:  # noqa: ANN001
    """A rescue turn of the first seat, holding ``cards``; a red cat waits in the left field."""
    seat = rescue_turn(g, left=left or (cat(g, "red", "cat_01"),))
    give(g, seat, *cards)
    return seat


# --- Oshax -----------------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", range(1, 7))
def test_oshax_card_takes_any_oshax_in_the_colour_chosen(card_id: int) -> None:
    g = game()
    seat = rare_finds_turn(g, [card_id])
    shape, colour = f"oshax_{card_id}", COLOURS[(card_id - 1) % 5]
    offered = {(a[2], a[3]) for a in g.legal_actions(seat) if a.kind == "oshax"}
    assert offered == {(f"oshax_{k}", c) for k in range(1, 7) for c in COLOURS}
    act(g, seat, "oshax", card_id, shape, colour)
    boat = g.state.players[seat].boat
    mask = placement_avoiding(g, seat, shape, boat.layout.maps[colour])
    act(g, seat, "place", mask)
    tile = boat.tiles[-1]
    assert (tile.kind, tile.colour, tile.shape, tile.mask) == ("oshax", colour, shape, mask)
    assert boat.colour_masks[colour] == mask, "it counts as a cat of that colour"
    assert card_id in g.state.played
    assert shape not in [g.state.tiles[t].shape for t in g.state.supply.oshax]


def test_oshax_on_the_map_of_its_chosen_colour_earns_a_treasure() -> None:
    g = game()
    seat = rare_finds_turn(g, [1])
    act(g, seat, "oshax", 1, "oshax_2", "purple")
    boat = g.state.players[seat].boat
    act(g, seat, "place", placement_covering(g, seat, "oshax_2", boat.layout.maps["purple"]))
    assert kinds(g, seat) == {"take_treasure", "decline"}


def test_oshax_card_is_not_playable_without_oshax_in_the_supply() -> None:
    g = game()
    g.state.removed.extend(g.state.supply.oshax)
    g.state.supply.oshax.clear()
    seat = g.state.turn_order[0]
    empty_hands(g)
    give(g, seat, 1)
    jump(g, Step.RARE_FINDS)
    assert g.step is not Step.RARE_FINDS, "nothing to play: the seat passed at once"
    assert 1 in g.state.players[seat].hand


# --- rescue cards ----------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", range(7, 67))
def test_rescue_card_gives_its_speed_and_its_basket(card_id: int) -> None:
    data = CARDS[card_id]
    g = game()
    seat = g.state.turn_order[0]
    choose_and_reveal(g, {seat: [card_id]})
    me = g.state.players[seat]
    assert me.speed == data.speed
    me.baskets_used = me.baskets
    expected = {"full": ("full",), "half": (), None: ()}[data.basket]
    assert basket_kinds(me) == expected, "a lone half basket is no basket"
    if data.basket == "half":
        partner = 15 if card_id != 15 else 16
        g = game()
        choose_and_reveal(g, {seat: [card_id, partner]})
        me = g.state.players[seat]
        me.baskets_used = me.baskets
        assert basket_kinds(me) == ("half",)
        assert me.speed == data.speed + CARDS[partner].speed


# --- anytime cards: gaining fish -------------------------------------------------------------


@pytest.mark.parametrize("card_id", ids_of("gain_fish_per_oshax"))
def test_gain_fish_per_oshax(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    for t in tiles_of(g, "oshax")[:2]:
        put_tile(g, seat, t, "blue")
    before = g.state.players[seat].fish
    act(g, seat, "play", card_id)
    assert g.state.players[seat].fish == before + 4
    assert card_id in g.state.played


@pytest.mark.parametrize("card_id", ids_of("gain_fish_per_private_lesson"))
def test_gain_fish_per_private_lesson(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    g.state.players[seat].private_lessons.extend([113, 114, 115])
    g.state.deck = [c for c in g.state.deck if c not in (113, 114, 115)]
    before = g.state.players[seat].fish
    act(g, seat, "play", card_id)
    assert g.state.players[seat].fish == before + 3


@pytest.mark.parametrize("card_id", ids_of("gain_fish_per_rare_treasure"))
def test_gain_fish_per_rare_treasure(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    for t in tiles_of(g, "rare_treasure")[:2]:
        put_tile(g, seat, t)
    put_tile(g, seat, tiles_of(g, "common_treasure")[0])
    before = g.state.players[seat].fish
    act(g, seat, "play", card_id)
    assert g.state.players[seat].fish == before + 4


@pytest.mark.parametrize("card_id", ids_of("gain_fish_per_common_treasure"))
def test_gain_fish_per_common_treasure(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    for t in tiles_of(g, "common_treasure")[:3]:
        put_tile(g, seat, t)
    put_tile(g, seat, tiles_of(g, "rare_treasure")[0])
    before = g.state.players[seat].fish
    act(g, seat, "play", card_id)
    assert g.state.players[seat].fish == before + 3


@pytest.mark.parametrize("card_id", ids_of("gain_fish_per_colour"))
def test_gain_fish_per_colour_does_not_count_oshax_colours(card_id: int) -> None:
    # The printed card: Oshax do not count as colours (FACTS §8.7: BGA counts them).
    g = game()
    seat = anytime_turn(g, card_id)
    for colour in ("red", "red", "blue", "green"):
        shape = "cat_02" if colour == "red" and not g.state.players[seat].boat.tiles else "cat_03"
        put_tile(g, seat, cat(g, colour, shape))
    put_tile(g, seat, tiles_of(g, "oshax")[0], "orange")
    before = g.state.players[seat].fish
    act(g, seat, "play", card_id)
    assert g.state.players[seat].fish == before + 3


@pytest.mark.parametrize("card_id", ids_of("gain_fish_per_cat_of_colour"))
def test_gain_fish_per_cat_of_the_best_colour(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    for shape in ("cat_05", "cat_06", "cat_07"):
        put_tile(g, seat, cat(g, "purple", shape))
    put_tile(g, seat, cat(g, "blue", "cat_05"))
    put_tile(g, seat, tiles_of(g, "oshax")[0], "purple")
    before = g.state.players[seat].fish
    act(g, seat, "play", card_id)
    assert g.state.players[seat].fish == before + 4


@pytest.mark.parametrize("card_id", ids_of("discard_basket_gain_fish"))
def test_discard_a_basket_for_five_fish(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    me = g.state.players[seat]
    me.baskets, me.baskets_used = 2, 1
    before = me.fish
    act(g, seat, "play", card_id)
    assert (me.baskets, me.baskets_used, me.fish) == (1, 0, before + 5), "a used one goes first"


# --- anytime cards: baskets, extra cats, placing anywhere ------------------------------------


@pytest.mark.parametrize("card_id", ids_of("gain_basket"))
def test_gain_a_permanent_basket_usable_at_once(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    me = g.state.players[seat]
    me.baskets_used = me.baskets
    act(g, seat, "play", card_id)
    assert me.baskets == 2 and me.free_baskets == 1
    assert "rescue" in kinds(g, seat)


@pytest.mark.parametrize("card_id", ids_of("discard_2_lessons_gain_basket"))
def test_give_up_two_private_lessons_for_a_basket(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    me = g.state.players[seat]
    assert not is_playable(g, seat, card_id, "window"), "needs two lessons on the table"
    lessons = [113, 114, 115]
    g.state.deck = [c for c in g.state.deck if c not in lessons]
    me.private_lessons.extend(lessons)
    act(g, seat, "play", card_id)
    assert kinds(g, seat) == {"discard_lessons"} and len(g.legal_actions(seat)) == 3
    act(g, seat, "discard_lessons", (115, 113))
    assert me.private_lessons == [114] and {113, 115} <= set(g.state.discard)
    assert me.baskets == 2


@pytest.mark.parametrize("card_id", ids_of("discard_2_treasures_gain_basket"))
def test_remove_two_treasures_from_the_boat_for_a_basket(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    me = g.state.players[seat]
    rare, common = tiles_of(g, "rare_treasure")[0], tiles_of(g, "common_treasure")[0]
    put_tile(g, seat, cat(g, "red", "cat_09"))
    rare_mask = put_tile(g, seat, rare)
    common_mask = put_tile(g, seat, common)
    act(g, seat, "play", card_id)
    act(g, seat, "remove_treasures", (rare, common))
    assert not me.boat.occupied & (rare_mask | common_mask), "the squares are empty again"
    assert {rare, common} <= set(g.state.removed)
    assert me.baskets == 2


@pytest.mark.parametrize("card_id", ids_of("rescue_extra_cat"))
def test_rescue_an_extra_cat_on_the_next_rescue_turn(card_id: int) -> None:
    g = game()
    cats = (cat(g, "red", "cat_01"), cat(g, "red", "cat_02"))
    seat = anytime_turn(g, card_id, left=cats)
    me = g.state.players[seat]
    me.baskets = 2
    act(g, seat, "play", card_id)
    assert me.extra_cats == 1
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", placement_avoiding(g, seat, "cat_01", me.boat.layout.maps["red"]))
    assert g.pending() == (seat,) and "rescue" in kinds(g, seat)
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert me.extra_cats == 0, "used up by this turn"


@pytest.mark.parametrize("card_id", ids_of("next_shape_anywhere"))
def test_place_anywhere_once_and_not_twice_pending(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, 69, 70)
    put_tile(g, seat, tiles_of(g, "common_treasure")[0])
    me = g.state.players[seat]
    act(g, seat, "play", card_id)
    assert me.anywhere
    other = 70 if card_id == 69 else 69
    with pytest.raises(IllegalAction, match="already pending"):
        act(g, seat, "play", other)
    act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "place", g.legal_actions(seat)[-1][1])
    assert not me.anywhere


# --- anytime cards: drawing cards and tiles, moving cats -------------------------------------


@pytest.mark.parametrize("card_id", ids_of("draw_2_cards") + ids_of("draw_3_cards"))
def test_draw_cards_buy_any_and_discard_the_rest(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    me = g.state.players[seat]
    me.fish = 30
    count = CARDS[card_id].params["draw"]
    top = list(reversed(g.state.deck[-count:]))
    act(g, seat, "play", card_id)
    assert sorted(me.drawn) == sorted(top)
    keep = top[0]
    act(g, seat, "buy", keep)
    assert me.fish == 30 - (CARDS[keep].cost or 0) and keep in me.hand
    act(g, seat, "done")
    assert set(top[1:]) <= set(g.state.discard) and me.drawn == []


@pytest.mark.parametrize("card_id", ids_of("draw_tile_to_boat"))
def test_draw_a_tile_and_place_it_for_free(card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    me = g.state.players[seat]
    top = g.state.bag[-1]
    fish, used = me.fish, me.baskets_used
    act(g, seat, "play", card_id)
    assert g.frames[-1].name == "place" and g.frames[-1].tile == top
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert me.boat.tiles[-1].tile_id == top
    assert (me.fish, me.baskets_used) == (fish, used), "no fish, no basket"


def test_draw_tile_that_fits_nowhere_is_discarded() -> None:
    g = game()
    seat = anytime_turn(g, 75)
    from engine.boat import Tile

    boat = g.state.players[seat].boat
    boat.place(Tile("common_treasure", None, "custom", boat.layout.cells_mask & ~(1 << 100), -1))
    top = g.state.bag[-1]
    act(g, seat, "play", 75)
    assert top in g.state.removed and 75 in g.state.played


def test_place_anywhere_may_be_played_while_placing_the_drawn_tile() -> None:
    g = game()
    seat = anytime_turn(g, 75, 69)
    put_tile(g, seat, tiles_of(g, "common_treasure")[0])
    act(g, seat, "play", 75)
    assert "play" in kinds(g, seat)
    act(g, seat, "play", 69)
    assert g.state.players[seat].anywhere and g.frames[-1].name == "place"


@pytest.mark.parametrize("card_id", ids_of("move_cats_between_fields"))
def test_move_up_to_three_cats_to_the_other_field(card_id: int) -> None:
    g = game()
    cats = [cat(g, "blue", f"cat_0{i}") for i in range(1, 5)]
    seat = rescue_turn(g, left=cats[:2], right=cats[2:])
    give(g, seat, card_id)
    act(g, seat, "play", card_id)
    act(g, seat, "move_cat", "right", 0)
    act(g, seat, "move_cat", "left", 0)
    act(g, seat, "move_cat", "left", 0)
    assert g.frames[-1].name != "move_cats", "three moves end the card"
    fields = g.state.fields
    # a moved cat joins the end of the other field's line
    assert fields.side("left") == [cats[2]] and fields.side("right") == [cats[3], cats[0], cats[1]]


@pytest.mark.parametrize("card_id", ids_of("draw_tiles_to_fields"))
def test_draw_four_tiles_cats_to_the_chosen_field_rare_treasures_to_the_supply(
        card_id: int) -> None:
    g = game()
    seat = anytime_turn(g, card_id)
    state = g.state
    rare = next(t for t in state.bag if state.tiles[t].kind == "rare_treasure")
    cats = [t for t in state.bag if state.tiles[t].kind == "cat"][:3]
    for t in (rare, *cats):
        state.bag.remove(t)
    state.bag.extend([cats[2], cats[1], rare, cats[0]])  # drawn: cat, rare, cat, cat
    act(g, seat, "play", card_id)
    act(g, seat, "to_field", "right")
    assert rare in state.supply.rare
    act(g, seat, "to_field", "left")
    act(g, seat, "to_field", "right")
    assert state.fields.side("right")[-2:] == [cats[0], cats[2]]
    assert state.fields.side("left")[-1] == cats[1]


# --- treasure cards --------------------------------------------------------------------------


def _rare_in_supply(g) -> int:  # noqa: ANN001
    tile = next(t for t in g.state.bag if g.state.tiles[t].kind == "rare_treasure")
    g.state.bag.remove(tile)
    g.state.supply.rare.append(tile)
    return tile


@pytest.mark.parametrize("card_id", range(98, 107))
def test_one_rare_treasure_option(card_id: int) -> None:
    g = game()
    rare = _rare_in_supply(g)
    seat = rare_finds_turn(g, [card_id])
    act(g, seat, "treasure", card_id, 0)
    assert {a.kind for a in g.legal_actions(seat)} == {"take_treasure"}, "compulsory"
    act(g, seat, "take_treasure", g.state.tiles[rare].shape)
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert g.state.players[seat].boat.tiles[-1].tile_id == rare
    assert card_id in g.state.played


@pytest.mark.parametrize("card_id", range(98, 107))
def test_two_common_treasures_option(card_id: int) -> None:
    g = game()
    g.state.bag.extend(g.state.supply.rare)  # no rare treasure on offer
    g.state.supply.rare.clear()
    seat = rare_finds_turn(g, [card_id])
    assert ("treasure", card_id, 0) not in g.legal_actions(seat), "no rare treasure on offer"
    act(g, seat, "treasure", card_id, 1)
    act(g, seat, "take_treasure", "I_tromino_3")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert "decline" in kinds(g, seat), "the second treasure is optional"
    act(g, seat, "take_treasure", "L_tromino_3")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert [t.shape for t in g.state.players[seat].boat.tiles] == ["I_tromino_3", "L_tromino_3"]


@pytest.mark.parametrize("card_id", range(107, 113))
def test_two_small_treasures_option(card_id: int) -> None:
    g = game()
    seat = rare_finds_turn(g, [card_id])
    fish = g.state.players[seat].fish
    act(g, seat, "treasure", card_id, 0)
    assert g.state.players[seat].fish == fish, "this option is free"
    assert {a[1] for a in g.legal_actions(seat)} == {"monomino_1", "domino_2"}
    act(g, seat, "take_treasure", "domino_2")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    act(g, seat, "take_treasure", "monomino_1")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    assert [t.shape for t in g.state.players[seat].boat.tiles] == ["domino_2", "monomino_1"]


@pytest.mark.parametrize("card_id", range(107, 113))
def test_two_common_treasures_for_one_fish_option(card_id: int) -> None:
    g = game()
    seat = rare_finds_turn(g, [card_id])
    me = g.state.players[seat]
    me.fish = 0
    g.state_changed()
    assert ("treasure", card_id, 1) not in g.legal_actions(seat), "fish never go negative"
    with pytest.raises(IllegalAction, match="not enough fish"):
        act(g, seat, "treasure", card_id, 1)
    me.fish = 1
    act(g, seat, "treasure", card_id, 1)
    assert me.fish == 0
    act(g, seat, "take_treasure", "L_tromino_3")
    act(g, seat, "place", g.legal_actions(seat)[0][1])
    act(g, seat, "decline")
    assert [t.shape for t in me.boat.tiles] == ["L_tromino_3"]


def test_treasure_card_needs_a_treasure_on_offer() -> None:
    g = game()
    supply = g.state.supply
    for ids in [*supply.common.values(), supply.rare]:
        g.state.removed.extend(ids)
        ids.clear()
    seat = g.state.turn_order[0]
    empty_hands(g)
    give(g, seat, 98, 107)
    jump(g, Step.RARE_FINDS)
    assert g.step is not Step.RARE_FINDS, "nothing to take: the seat passed at once"
    assert {98, 107} <= set(g.state.players[seat].hand)
