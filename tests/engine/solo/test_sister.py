"""The sister: each basket keyword, renumbering after removals, fallbacks, her cards,
speed and turn order, and the five difficulty set-ups."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from engine.cards import (
    SOLO_ADVANCED_LESSON_IDS,
    SOLO_BASIC_LESSON_IDS,
    SOLO_BASKET_IDS,
    SOLO_COLOUR_IDS,
    base_cards,
)
from engine.modes.solo.sister import (
    Sister,
    SisterTable,
    difficulties,
    play_card,
    rare_numbers,
    switch_cats,
    take_cat,
    take_common_treasure,
    take_oshax,
    take_rare_treasure,
)
from engine.modes.standard.fields import Fields as RealFields


@dataclass
class Cat:
    tile: int
    side: str


@dataclass
class Fields:
    cats: list[Cat] = field(default_factory=list)


@dataclass
class Supply:
    oshax: list[int] = field(default_factory=list)
    rare: list[int] = field(default_factory=list)
    common: dict[str, list[int]] = field(default_factory=dict)


@dataclass(frozen=True)
class Info:
    shape: str


def table(cats: int = 8, oshax: int = 6, rare: tuple[str, ...] = (),
          common: dict[str, int] | None = None) -> SisterTable:
    """Cats 100.. (left field 1-4, right 5-8), Oshax 200.., rare 300.., common 400..."""
    tiles: dict[int, Info] = {300 + i: Info(s) for i, s in enumerate(rare)}
    fields = Fields([Cat(100 + i, "left" if i < cats // 2 else "right") for i in range(cats)])
    supply = Supply(oshax=[200 + i for i in range(oshax)], rare=[300 + i for i in range(len(rare))])
    next_id = 400
    for shape, n in (common or {}).items():
        supply.common[shape] = list(range(next_id, next_id + n))
        for i in range(next_id, next_id + n):
            tiles[i] = Info(shape)
        next_id += n
    return SisterTable(fields, supply, tiles, [])  # type: ignore[arg-type]


def numbers(t: SisterTable) -> list[int]:
    return [c.tile for c in t.fields.cats]


# --- cat N -----------------------------------------------------------------------------------


def test_cat_n_removes_the_nth_cat_and_the_rest_are_renumbered() -> None:
    t = table()
    done = take_cat(t, 3)
    assert done["tile"] == 102 and not done["fallback"] and done["side"] == "left"
    assert numbers(t) == [100, 101, 103, 104, 105, 106, 107]
    assert t.removed == [102]
    assert take_cat(t, 3)["tile"] == 103  # the old cat 4 is cat 3 now


def test_card_187_cat_1_then_cat_5_hits_the_cat_first_numbered_6() -> None:
    t = table()
    done = play_card(t, base_cards()[187])
    assert [d["tile"] for d in done] == [100, 105]


def test_a_missing_cat_number_falls_back_to_the_highest() -> None:
    t = table(cats=4)
    done = take_cat(t, 7)
    assert done["tile"] == 103 and done["fallback"] and done["number"] == 4
    assert numbers(t) == [100, 101, 102]


def test_cats_are_numbered_left_to_right_after_card_77_or_83() -> None:
    """Rulebook: "cat 3 is the third cat counting from left to right" along the line (left
    field, island, right field). A cat moved (77) or drawn (83) into a field joins the end of
    that field's line, so every left-field cat keeps a lower number than the right field's."""
    fields = RealFields()
    for i in range(8):
        fields.add(100 + i, "left" if i < 4 else "right")
    t = SisterTable(fields, Supply(), {}, [])  # type: ignore[arg-type]
    fields.move("left", 0)  # cat 1 goes to the right field: it is cat 8 now
    assert numbers(t) == [101, 102, 103, 104, 105, 106, 107, 100]
    fields.add(108, "left")  # a cat drawn into the left field is cat 4
    assert numbers(t)[3] == 108
    assert take_cat(t, 5)["tile"] == 104  # the first cat of the right field
    assert take_cat(t, 8)["tile"] == 100


def test_no_cat_means_nothing_happens() -> None:
    t = table(cats=0)
    assert take_cat(t, 1)["tile"] is None
    assert t.removed == []


# --- Oshax N, rare treasure N, common treasure --------------------------------------------------


def test_oshax_n_with_renumbering_and_fallback() -> None:
    t = table(oshax=6)
    assert take_oshax(t, 3)["tile"] == 202
    assert take_oshax(t, 3)["tile"] == 203  # renumbered
    done = take_oshax(t, 5)  # only 4 left
    assert done["tile"] == 205 and done["fallback"]
    assert t.supply.oshax == [200, 201, 204]
    empty = table(oshax=0)
    assert take_oshax(empty, 1)["tile"] is None and empty.removed == []


def test_rare_treasures_are_numbered_by_distinct_shape_in_order_of_appearance() -> None:
    t = table(rare=("T", "L", "T", "O"))
    assert rare_numbers(t) == ["T", "L", "O"]
    done = take_rare_treasure(t, 1)  # the top of the T stack: the T drawn last
    assert done["shape"] == "T" and done["tile"] == 302
    assert rare_numbers(t) == ["T", "L", "O"]  # the T stack keeps its place in the line
    done = take_rare_treasure(t, 3)
    assert done["shape"] == "O" and not done["fallback"]
    assert rare_numbers(t) == ["T", "L"]
    assert take_rare_treasure(t, 1)["tile"] == 300  # the stack empties: L becomes rare 1
    assert rare_numbers(t) == ["L"]


def test_a_missing_rare_number_takes_the_highest_and_none_does_nothing() -> None:
    t = table(rare=("I", "S"))
    done = take_rare_treasure(t, 5)
    assert done["shape"] == "S" and done["fallback"]
    assert t.supply.rare == [300]
    none = table(rare=())
    assert take_rare_treasure(none, 2)["tile"] is None and none.removed == []


def test_common_treasure_of_the_shape_if_any_is_left() -> None:
    t = table(common={"domino_2": 1, "monomino_1": 2})
    assert take_common_treasure(t, "domino_2")["tile"] == 400
    assert take_common_treasure(t, "domino_2")["tile"] is None
    assert t.supply.common == {"domino_2": [], "monomino_1": [401, 402]}
    assert t.removed == [400]


# --- switch A, B -------------------------------------------------------------------------------


def test_switch_exchanges_numbers_and_fields() -> None:
    t = table()
    done = switch_cats(t, 1, 6)
    assert done["tiles"] == [100, 105] and not done["fallback"]
    assert numbers(t) == [105, 101, 102, 103, 104, 100, 106, 107]
    sides = {c.tile: c.side for c in t.fields.cats}
    assert sides[105] == "left" and sides[100] == "right"
    assert t.removed == []  # a switch removes nothing and does not compact


def test_switch_with_a_missing_uses_the_second_highest() -> None:
    t = table(cats=4)
    done = switch_cats(t, 5, 2)
    assert done["numbers"] == [3, 2] and done["fallback"]
    assert numbers(t) == [100, 102, 101, 103]


def test_switch_with_b_missing_uses_the_highest() -> None:
    t = table(cats=4)
    done = switch_cats(t, 1, 6)
    assert done["numbers"] == [1, 4]
    assert numbers(t) == [103, 101, 102, 100]


def test_switch_landing_on_one_cat_takes_the_cat_just_before_it() -> None:
    t = table(cats=3)
    done = switch_cats(t, 2, 5)  # b missing -> highest (3); a=2 exists -> fine
    assert done["numbers"] == [2, 3]
    t = table(cats=2)
    done = switch_cats(t, 2, 5)  # b -> highest = 2 = a -> a becomes cat 1
    assert done["numbers"] == [1, 2]
    assert numbers(t) == [101, 100]


def test_switch_with_fewer_than_two_cats_does_nothing() -> None:
    t = table(cats=1)
    assert switch_cats(t, 1, 6)["tiles"] is None
    assert numbers(t) == [100]


def test_card_194_switches_then_takes_cat_1() -> None:
    t = table()
    done = play_card(t, base_cards()[194])  # switch 2,5 then cat 1
    assert done[0]["tiles"] == [101, 104]
    assert done[1]["tile"] == 100
    assert numbers(t) == [104, 102, 103, 101, 105, 106, 107]


def test_every_basket_card_resolves_on_a_full_and_on_an_empty_table() -> None:
    for card_id in SOLO_BASKET_IDS:
        card = base_cards()[card_id]
        full = table(rare=("L", "T", "O", "S", "I"), common={"monomino_1": 5, "domino_2": 5,
                                                             "L_tromino_3": 5, "I_tromino_3": 5})
        done = play_card(full, card)
        assert len(done) == len(card.actions)
        removed = [d["tile"] for d in done if d.get("tile") is not None]
        assert full.removed == removed
        empty = table(cats=0, oshax=0)
        play_card(empty, card)
        assert empty.removed == []


# --- her cards, speed and turn order -------------------------------------------------------------


def test_the_first_card_sets_how_many_she_draws_and_her_speed() -> None:
    for seed in range(30):
        sister = Sister.setup(seed, "easy")
        top = sister.deck[-1]
        drawn = sister.draw_day()
        first = base_cards()[top]
        assert drawn[0] == top
        assert len(drawn) == first.basket_count
        assert sister.speed == first.speed  # the first card only
        assert len(sister.deck) == 23 - len(drawn)


def test_speed_decides_who_goes_first_and_a_tie_keeps_the_order() -> None:
    sister = Sister.setup(1, "easy")
    assert sister.first is False  # the player starts first
    sister.speed = 3
    assert sister.decide_order(3) is False  # tie: previous order (player first)
    assert sister.decide_order(2) is True  # she is faster
    assert sister.decide_order(3) is True  # tie keeps her first
    assert sister.decide_order(4) is False  # the player is faster


def test_cards_are_played_first_card_first_and_discarded_at_end_of_day() -> None:
    sister = Sister.setup(4, "easy")
    drawn = sister.draw_day()
    assert sister.next_card() == drawn[0]
    sister.end_day()
    assert sister.today == [] and sister.discard == drawn
    assert sorted(c for c in sister.cards() if c in SOLO_BASKET_IDS) == list(SOLO_BASKET_IDS)


def test_colour_cards_are_revealed_one_at_a_time_in_shuffled_order() -> None:
    sister = Sister.setup(9, "hard")
    order = [sister.reveal_colour() for _ in range(5)]
    assert sorted(order) == list(SOLO_COLOUR_IDS)
    assert sister.reveal_colour() is None
    assert sister.colour_order == [base_cards()[c].colour for c in order]


@pytest.mark.parametrize(("difficulty", "advanced"),
                         [("easy", 0), ("medium", 1), ("hard", 2), ("very_hard", 3),
                          ("expert", 4)])
def test_the_five_difficulties_set_up_3_basic_plus_0_to_4_advanced(
        difficulty: str, advanced: int) -> None:
    seen: set[int] = set()
    for seed in range(40):
        sister = Sister.setup(seed, difficulty)
        lessons = sister.lessons
        assert len(lessons) == len(set(lessons)) == 3 + advanced
        assert all(c in SOLO_BASIC_LESSON_IDS for c in lessons[:3])
        assert all(c in SOLO_ADVANCED_LESSON_IDS for c in lessons[3:])
        seen.update(lessons)
        assert Sister.setup(seed, difficulty).lessons == lessons  # deterministic
    assert len(seen) > 3 + advanced  # drawn at random, not fixed


def test_difficulties_come_from_data_and_bad_ones_are_refused() -> None:
    assert difficulties() == ("easy", "medium", "hard", "very_hard", "expert")
    with pytest.raises(ValueError, match="difficulty"):
        Sister.setup(1, "impossible")


# --- each basket card (174-196): which tiles it removes ------------------------------------------

# The table of ``stacked()``: cats 100-107 (left field 1-4, right 5-8), Oshax 200-205, rare
# treasures 300 L, 301 T, 302 L, 303 O, 304 S, 305 I (numbers: L=1 with 302 on top, T=2,
# O=3, S=4, I=5), commons 400-404 monomino, 405-409 domino, 410-414 L tromino, 415-419 I
# tromino (a common treasure is taken from the end of its pile). Cats are renumbered after
# each removal ("cat 4" after "cat 5" is the 4th of the remaining cats).
BASKET_CARD_REMOVES = {
    174: [104, 103],  # cat 5, cat 4
    175: [105, 404],  # cat 6, monomino
    176: [102, 202],  # cat 3, Oshax 3
    177: [103, 102],  # cat 4, cat 3
    178: [101, 414],  # cat 2, L tromino
    179: [104, 304],  # cat 5, rare 4 (S)
    180: [101, 301],  # cat 2, rare 2 (T)
    181: [106, 201],  # cat 7, Oshax 2
    182: [103, 302],  # cat 4, rare 1 (the top L of the L stack)
    183: [100, 409],  # cat 1, domino
    184: [105, 305],  # cat 6, rare 5 (I)
    185: [101, 419],  # cat 2, I tromino
    186: [100, 204],  # cat 1, Oshax 5
    187: [100, 105],  # cat 1, then cat 5 = the cat first numbered 6
    188: [102, 414],  # cat 3, L tromino
    189: [105, 100],  # cat 6, cat 1
    190: [106, 409],  # cat 7, domino
    191: [104, 101],  # cat 5, cat 2
    192: [101],  # switch 1 and 6, then cat 2
    193: [105, 303],  # cat 6, rare 3 (O)
    194: [100],  # switch 2 and 5, then cat 1
    195: [107, 200],  # cat 8, Oshax 1
    196: [103, 419],  # cat 4, I tromino
}
SWITCHED_LINE = {  # the cats left in the line after the switch cards, in number order
    192: [105, 102, 103, 104, 100, 106, 107],
    194: [104, 102, 103, 101, 105, 106, 107],
}


def stacked() -> SisterTable:
    return table(rare=("L", "T", "L", "O", "S", "I"),
                 common={"monomino_1": 5, "domino_2": 5, "L_tromino_3": 5, "I_tromino_3": 5})


def test_every_basket_card_has_a_removal_case() -> None:
    assert sorted(BASKET_CARD_REMOVES) == list(SOLO_BASKET_IDS) == list(range(174, 197))


@pytest.mark.parametrize("card_id", sorted(BASKET_CARD_REMOVES))
def test_basket_card_removes_exactly_these_tiles(card_id: int) -> None:
    t = stacked()
    play_card(t, base_cards()[card_id])
    assert t.removed == BASKET_CARD_REMOVES[card_id]
    if card_id in SWITCHED_LINE:
        assert numbers(t) == SWITCHED_LINE[card_id]
        sides = [c.side for c in t.fields.cats]
        assert sides == ["left"] * 3 + ["right"] * 4  # the switch swapped fields too
    else:
        untouched = [c for c in range(100, 108) if c not in t.removed]
        assert numbers(t) == untouched


# --- each colour card (169-173): its colour, scored by reveal position ------------------------

# The player's boat: 1 blue, 2 green, 3 red, 4 purple cats, 4 orange cats and an orange Oshax.
COLOUR_COUNTS_ROW = {4: "opopoprprgrgobO"}  # lonely tiles (touching ones would be one tile)
COLOUR_CARDS = {169: ("blue", 1), 170: ("green", 2), 171: ("purple", 4), 172: ("red", 3),
                173: ("orange", 5)}


def _colour_card_score(card_id: int, position: int) -> dict[str, int]:
    """The sister's score entry of ``card_id`` revealed at ``position`` (1-5), the other
    colour cards revealed before it, as a real ``Sister`` reveals them."""
    from engine.scoring import PlayerFacts, sister_score
    from tests.engine.test_lessons import boat

    others = [c for c in SOLO_COLOUR_IDS if c != card_id][:position - 1]
    sister = Sister("easy", [], colour_deck=[card_id, *reversed(others)])  # next one last
    while sister.reveal_colour() is not None:
        pass
    assert sister.colours_revealed[-1] == card_id
    result = sister_score(PlayerFacts(boat(COLOUR_COUNTS_ROW)), sister.colour_order, [])
    return result["colours"][-1]


def _check_colour_card(card_id: int) -> None:
    colour, count = COLOUR_CARDS[card_id]
    assert base_cards()[card_id].colour == colour
    for position, each in enumerate((5, 4, 3, 2, 1), start=1):
        entry = _colour_card_score(card_id, position)
        assert entry == {"colour": colour, "points_each": each, "count": count,
                         "points": each * count}, (card_id, position)


def test_colour_card_169_blue() -> None:
    _check_colour_card(169)


def test_colour_card_170_green() -> None:
    _check_colour_card(170)


def test_colour_card_171_purple() -> None:
    _check_colour_card(171)


def test_colour_card_172_red() -> None:
    _check_colour_card(172)


def test_colour_card_173_orange_counts_the_orange_oshax() -> None:
    _check_colour_card(173)
