"""The Duel's components as imported into engine/data/duel, checked against FACTS.md."""

from __future__ import annotations

from collections import Counter

from engine.boat import COLOURS, mask_of
from engine.modes.duel.data import duel_data
from engine.scoring import family_points


def test_45_cats_9_per_colour_with_5_fish_icons() -> None:
    cats = duel_data().cats
    assert len(cats) == 45
    assert Counter(c.colour for c in cats) == dict.fromkeys(COLOURS, 9)
    fish = [c for c in cats if c.fish]
    assert len(fish) == 5
    assert sorted(c.colour for c in fish) == sorted(COLOURS)  # one per colour
    assert {c.shape.key for c in fish} == {"hexomino_408", "T_pentomino", "V_pentomino",
                                           "F_pentomino", "hexomino_416"}
    for colour in COLOURS:
        assert sum(c.shape.size for c in cats if c.colour == colour) == 47


def test_28_treasures_7_of_each_of_4_shapes() -> None:
    d = duel_data()
    assert [s.key for s in d.treasure_shapes] == ["monomino_1", "domino_2", "L_tromino_3",
                                                  "I_tromino_3"]
    assert [s.size for s in d.treasure_shapes] == [1, 2, 3, 3]
    ids = [i for s in d.treasure_shapes for i in d.treasure_ids[s.key]]
    assert ids == list(range(45, 73))


def test_32_cards_6_treasure_4_instant_22_lessons() -> None:
    cards = duel_data().cards
    assert sorted(cards) == list(range(1, 33))
    assert Counter(c.kind for c in cards.values()) == {"treasure": 6, "instant": 4, "lesson": 22}
    assert all(cards[i].kind == "treasure" for i in range(1, 7))
    assert all(cards[i].kind == "instant" for i in range(7, 11))
    assert all(cards[i].scoring for i in range(11, 33))
    assert cards[19].name == "Vandermil Cattery"  # the names printed in the rulebook example
    assert cards[23].name == "Prudent" and cards[24].name == "Sun-powered"


def test_boats_rooms_rats_maps_and_edge() -> None:
    layouts = duel_data().layouts
    assert sorted(layouts) == ["I", "O"]
    sizes = {"O": [13, 13, 13, 21, 18, 4, 62], "I": [10, 11, 11, 23, 19, 10, 60]}
    edges = {"O": 46, "I": 47}
    for name, layout in layouts.items():
        assert layout.size == 144
        assert [r.size for r in layout.rooms] == sizes[name]
        rooms_union = 0
        for room in layout.rooms:
            assert not rooms_union & room.mask, "rooms overlap"
            rooms_union |= room.mask
        assert rooms_union == layout.cells_mask  # every square is in exactly one room
        assert layout.rats_mask.bit_count() == 18
        assert not layout.rats_mask & ~layout.cells_mask
        assert sorted(layout.maps) == sorted(COLOURS)
        assert all(cell & layout.cells_mask for cell in layout.maps.values())
        assert not layout.holes_mask & layout.cells_mask
        assert layout.edge_mask.bit_count() == edges[name]


def test_derived_edge_matches_the_reference_edge() -> None:
    import json
    from importlib import resources

    raw = json.loads(resources.files("engine.data.duel").joinpath("boats.json").read_text())
    for name, layout in duel_data().layouts.items():
        assert layout.edge_mask == mask_of(raw["boats"][name]["edge"])


def test_holes_are_where_facts_put_them() -> None:
    layouts = duel_data().layouts
    assert layouts["O"].holes_mask == mask_of([[1, 2], [1, 6]])
    assert layouts["I"].holes_mask == mask_of([[0, 3], [0, 4], [0, 5], [1, 3], [1, 5]])


def test_island_has_10_cat_and_5_card_spaces_and_symmetric_footprints() -> None:
    island = duel_data().island
    assert island.cat_spaces == (1, 3, 5, 6, 7, 8, 9, 10, 12, 14)
    assert island.card_spaces == (2, 4, 11, 13, 15)
    assert island.start == 1
    for a in range(1, 16):
        for b in range(1, 16):
            assert island.adjacent(a, b) == island.adjacent(b, a)
    # the two one-way links of the reference implementation are walked both ways
    assert island.adjacent(7, 11) and island.adjacent(7, 13)
    assert bin(island.neighbours[7]).count("1") == 6


def test_rules_numbers_and_family_table() -> None:
    rules = duel_data().rules
    assert rules["fish_actions"] == {"move": 1, "jump": 2, "treasure": 2, "discovery": 3}
    assert (rules["start_fish"], rules["round_counter_cats"]) == (3, 3)
    assert (rules["cats_per_day"], rules["cards_per_day"]) == (10, 5)
    table = rules["family_points"]
    for n in (3, 4, 5):
        assert family_points(n) == table[str(n)]
    assert family_points(8) - family_points(5) == 3 * table["each_beyond_5"]
    assert family_points(2) == 0
