"""The engine's data files (engine/data/base/) hold the component counts of the game:
tiles, boats and cards, as FACTS.md and the rulebook list them."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources

import pytest

from engine.boat import COLOURS, base_layouts, mask_of
from engine.cards import base_cards, base_cards_meta
from engine.shapes import base_shapes

# --- tiles --------------------------------------------------------------------------------


def test_cat_tiles_are_five_colours_of_seventeen_shapes() -> None:
    shapes = base_shapes()
    assert shapes.colours == COLOURS
    assert len(shapes.cats) == 17
    assert len(shapes.colours) * len(shapes.cats) == 85
    assert {s.size for s in shapes.cats} == {4, 5, 6}
    assert len({s.cells for s in shapes.cats}) == 17  # no shape listed twice


def test_rare_treasures_are_five_of_each_tetromino() -> None:
    shapes = base_shapes()
    assert len(shapes.rare_treasures) == 5
    assert all(s.size == 4 for s in shapes.rare_treasures)
    assert shapes.rare_counts == {s.key: 5 for s in shapes.rare_treasures}
    assert sum(shapes.rare_counts.values()) == 25
    # the five tetrominoes (L, T, O, S, I) are pairwise different up to symmetry
    canonical = {min(o.cells for o in s.orientations) for s in shapes.rare_treasures}
    assert len(canonical) == 5


def test_six_oshax_of_six_squares() -> None:
    shapes = base_shapes()
    assert len(shapes.oshax) == 6
    assert all(s.size == 6 for s in shapes.oshax)
    assert len({min(o.cells for o in s.orientations) for s in shapes.oshax}) == 6


def test_common_treasures_per_player_count() -> None:
    shapes = base_shapes()
    assert sorted(s.size for s in shapes.common_treasures) == [1, 2, 3, 3]
    small = {s.key for s in shapes.common_treasures if s.size <= 2}
    assert shapes.small_common == small
    assert shapes.common_count_per_shape == {1: 5, 2: 5, 3: 8, 4: 11}


# --- boats --------------------------------------------------------------------------------

ROOM_SIZES = [18, 11, 11, 18, 20, 4, 60]


@pytest.mark.parametrize("colour", ["blue", "green", "red", "purple"])
def test_boat(colour: str) -> None:
    layout = base_layouts()[colour]
    assert layout.size == 142
    assert [r.size for r in layout.rooms] == ROOM_SIZES
    union = 0
    for room in layout.rooms:
        assert not room.mask & union, "rooms overlap"
        union |= room.mask
    assert union == layout.cells_mask, "every cell is in exactly one room"
    assert layout.rats_mask.bit_count() == 19
    assert not layout.rats_mask & ~layout.cells_mask
    assert sorted(layout.maps) == sorted(COLOURS)
    assert all(m.bit_count() == 1 and m & layout.cells_mask for m in layout.maps.values())
    assert layout.maps_mask.bit_count() == 5
    assert not layout.maps_mask & layout.rats_mask
    assert layout.edge_mask.bit_count() == 44


def test_boats_share_one_outline_and_differ_in_rats_and_maps() -> None:
    layouts = list(base_layouts().values())
    assert len(layouts) == 4
    assert len({(lay.cells_mask, lay.edge_mask) for lay in layouts}) == 1
    assert len({lay.rats_mask for lay in layouts}) == 4
    assert len({tuple(sorted(lay.maps.items())) for lay in layouts}) == 4
    map_cells = {lay.maps_mask for lay in layouts}
    assert len(map_cells) == 1, "the 5 map squares are the same, their colours differ"


def test_derived_edge_equals_the_data_edge_list() -> None:
    raw = json.loads(resources.files("engine.data.base").joinpath("boats.json").read_text())
    listed = mask_of(raw["outline"]["edge"])
    assert len(raw["outline"]["edge"]) == 44
    for layout in base_layouts().values():
        assert layout.edge_mask == listed


# --- cards --------------------------------------------------------------------------------

FAMILY_COUNTS = {
    "oshax": 6, "rescue": 60, "anytime": 31, "treasure": 15, "private_lesson": 30,
    "public_lesson": 8, "family_lesson": 18, "solo_colour": 5, "solo_basket": 23,
    "solo_lesson_basic": 10, "solo_lesson_advanced": 9,
}
FAMILY_IDS = {
    "oshax": range(1, 7), "rescue": range(7, 67), "anytime": range(67, 98),
    "treasure": range(98, 113), "private_lesson": range(113, 143),
    "public_lesson": range(143, 151), "family_lesson": range(151, 169),
    "solo_colour": range(169, 174), "solo_basket": range(174, 197),
    "solo_lesson_basic": range(197, 207), "solo_lesson_advanced": range(207, 216),
}


def test_all_215_cards() -> None:
    cards = base_cards()
    assert sorted(cards) == list(range(1, 216))
    assert Counter(c.family for c in cards.values()) == FAMILY_COUNTS
    assert base_cards_meta()["counts_by_family"] == FAMILY_COUNTS
    assert sum(FAMILY_COUNTS.values()) == 215
    discovery = [c for c in cards.values() if c.id <= 150]
    assert len(discovery) == 150


@pytest.mark.parametrize("family", sorted(FAMILY_IDS))
def test_card_families_by_id_range(family: str) -> None:
    cards = base_cards()
    assert {c.id for c in cards.values() if c.family == family} == set(FAMILY_IDS[family])


def test_card_costs() -> None:
    cards = base_cards()
    assert {cards[i].cost for i in range(1, 7)} == {5}
    assert {cards[i].cost for i in range(98, 107)} == {2}
    assert {cards[i].cost for i in range(107, 113)} == {1}
    assert {cards[i].cost for i in range(113, 143)} == {2}
    assert {cards[i].cost for i in range(143, 151)} == {1}
    assert {cards[i].cost for i in range(7, 67)} <= {0, 1, 2, 3}
    assert all(0 <= cards[i].cost <= 6 for i in range(67, 98))  # type: ignore[operator]
    assert all(cards[i].cost is None for i in range(151, 216))  # not bought


def test_rescue_cards_speed_and_baskets_by_id() -> None:
    cards = base_cards()
    speed_only = [cards[i] for i in range(7, 15)]
    assert all(c.basket is None and c.speed == 4 and c.cost == 1 for c in speed_only)
    assert {cards[i].basket for i in range(15, 43)} == {"half"}
    assert {cards[i].basket for i in range(43, 67)} == {"full"}
    assert all(0 <= cards[i].speed <= 4 for i in range(7, 67))


def test_colour_lessons_and_solo_cards() -> None:
    cards = base_cards()
    chosen = {c.id for c in cards.values() if c.needs_colour == "on_purchase"}
    assert chosen == {143, 144, 145, 146, 149}
    assert sorted(cards[i].colour for i in range(169, 174)) == sorted(COLOURS)
    assert {cards[i].basket_count for i in range(174, 197)} <= {1, 2, 3, 4}
    assert all(cards[i].actions for i in range(174, 197))
    lessons = {c.id for c in cards.values() if c.is_lesson}
    assert lessons == set(range(113, 174)) | set(range(197, 216))  # 169-173: sister colours
