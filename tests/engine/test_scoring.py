"""Final scoring: the family table, rats, rooms, rare treasures, public lessons for every
player, the solo halving, the family variant, and the rulebook's worked example (Sara's
boat, with the lessons "Sun-Powered" = card 135 and "Mhoxxite Cattery" = card 131).

Boats are ASCII pictures on the blue boat (``Boat.from_text``); characters in a legend are
one tile each, so touching cats of one colour stay separate tiles.
"""

from __future__ import annotations

import pytest

from engine.boat import Boat, base_layouts
from engine.cards import base_cards
from engine.scoring import PlayerFacts, TableFacts, family_points, lesson_points, score_table

LAYOUT = base_layouts()["blue"]
EMPTY = str(Boat(LAYOUT))
SHEET_KEYS = ["rats", "rooms", "families", "rare_treasures", "private_lessons", "public_lessons"]


def boat(text: str, legend: dict[str, tuple[str, str | None]] | None = None) -> Boat:
    return Boat.from_text(LAYOUT, text, legend)


def sheet(b: Boat, **table: object) -> dict[str, object]:
    return score_table(TableFacts([PlayerFacts(b)], **table))[0]  # type: ignore[arg-type]


# --- the rulebook's worked example ---------------------------------------------------------
# Sara's boat (base rulebook, "Example" under Scoring): 2 visible rats; 4 unfilled rooms
# (dining room, store room, both bedrooms); families of 3 red, 3 green (her Oshax is green),
# two orange families of 3 and 5 blue; 1 green, 1 red (touching the red family only
# diagonally) and 2 purple cats outside families; 1 rare and 8 common treasures; 13 cats on
# the edge; 6 orange cats. Blue 1-5, orange 6-8 and k-m, red h-j, green q/s, purple u/v are
# single cats; A-J are single common treasures.
SARA = """\
       rr..6666
    hhh....77777.
 1111hhiiiijjjj8888
22331Fgxx..GGGqqqqqqA
23334FgggHHGGGssII..AA
22444F....HDDDss**JJC
 5555vvvvkkllEEu**.
    .....+klmmuu.
       ...klmmu"""
SARA_LEGEND: dict[str, tuple[str, str | None]] = {
    **{ch: ("cat", "blue") for ch in "12345"},
    **{ch: ("cat", "orange") for ch in "678klm"},
    **{ch: ("cat", "red") for ch in "hij"},
    **{ch: ("cat", "green") for ch in "qs"},
    **{ch: ("cat", "purple") for ch in "uv"},
    **{ch: ("common_treasure", None) for ch in "ACDEFHIJ"},
}
SUN_POWERED = 135  # "1 point per 2 cats touching the edge of your boat"
MHOXXITE_CATTERY = 131  # "9 points if you have exactly 5 orange cats on your boat"
COMMON_TREASURES_PUBLIC = 148  # all players: 2 points per common treasure


def test_sara_round_trips_as_drawn() -> None:
    colours = str.maketrans("12345678klmhijqsuvACDEFHIJ", "bbbbboooooorrrggpp$$$$$$$$")
    assert str(boat(SARA, SARA_LEGEND)) == SARA.translate(colours)


def test_rulebook_worked_example() -> None:
    """Rulebook: rats -2, rooms -20, families 47, rare 3, Sun-Powered 6 (13 edge cats),
    Mhoxxite Cattery 0 (6 orange cats). Its "Organised" (7) is not a card of our deck and
    its "Prospector" counts rare treasures too; our card 148 counts common ones (see
    docs/rules-notes.md), so the public lesson gives 16 where the book's gives 18."""
    table = TableFacts(
        [PlayerFacts(boat(SARA, SARA_LEGEND), private_lessons=(SUN_POWERED, MHOXXITE_CATTERY))],
        public_lessons=((COMMON_TREASURES_PUBLIC, None),),
    )
    result = score_table(table)[0]
    assert {k: result[k] for k in SHEET_KEYS} == {
        "rats": -2, "rooms": -20, "families": 47, "rare_treasures": 3,
        "private_lessons": 6, "public_lessons": 16,
    }
    assert result["total"] == 50  # the book's 59 - 7 (Organised) - 2 (Prospector's rare)
    assert sorted((f["colour"], f["size"], f["points"]) for f in result["families_detail"]) == [
        ("blue", 5, 15), ("green", 3, 8), ("orange", 3, 8), ("orange", 3, 8), ("red", 3, 8)]
    assert result["lessons"] == [
        {"card": SUN_POWERED, "points": 6, "public": False, "colour": None},
        {"card": MHOXXITE_CATTERY, "points": 0, "public": False, "colour": None},
        {"card": COMMON_TREASURES_PUBLIC, "points": 16, "public": True, "colour": None},
    ]


def test_mhoxxite_cattery_scores_with_exactly_five_orange() -> None:
    legend = {**SARA_LEGEND, "m": ("cat", "red")}  # one orange cat of Sara's turned red
    table = TableFacts([PlayerFacts(boat(SARA, legend))])
    assert lesson_points(MHOXXITE_CATTERY, 0, table) == 9
    assert score_table(table)[0]["families"] == 39  # that orange family is down to 2


# --- families --------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "points"), [
    (0, 0), (1, 0), (2, 0), (3, 8), (4, 11), (5, 15), (6, 20), (7, 25), (8, 30), (9, 35),
    (12, 50),
])
def test_family_table(size: int, points: int) -> None:
    assert family_points(size) == points


CHAIN = "123456789@&%"  # single blue cats


@pytest.mark.parametrize("size", range(1, 13))
def test_a_row_of_touching_cats_scores_the_family_table(size: int) -> None:
    row4 = CHAIN[:size] + EMPTY.split("\n")[4][size:]
    text = "\n".join(row4 if y == 4 else line for y, line in enumerate(EMPTY.split("\n")))
    result = sheet(boat(text, {ch: ("cat", "blue") for ch in CHAIN}))
    assert result["families"] == family_points(size)
    detail = [{"colour": "blue", "size": size, "points": family_points(size)}]
    assert result["families_detail"] == (detail if size >= 3 else [])


DIAGONAL = """\
       +...xxxx
    x.........+..
 ................xx
.+.....xx..........x.
..........1...........
...........2.......+.
 x..........3..x...
    .....+....xx.
       ...x..xx"""


def test_diagonal_cats_are_not_a_family() -> None:
    result = sheet(boat(DIAGONAL, {ch: ("cat", "blue") for ch in "123"}))
    assert result["families"] == 0


OSHAX_JOINS = """\
       +...xxxx
    x.........+..
 ................xx
.+.....xx..........x.
.........12R..........
..........3........+.
 x.............x...
    .....+....xx.
       ...x..xx"""


def test_oshax_joins_its_colours_family() -> None:
    result = sheet(boat(OSHAX_JOINS, {ch: ("cat", "red") for ch in "123"}))
    assert result["families_detail"] == [{"colour": "red", "size": 4, "points": 11}]
    as_blue = sheet(boat(OSHAX_JOINS.replace("R", "B"), {ch: ("cat", "red") for ch in "123"}))
    assert as_blue["families_detail"] == [{"colour": "red", "size": 3, "points": 8}]


TREASURE_SPLITS = """\
       +...xxxx
    x.........+..
 ................xx
.+.....xx..........x.
.......123$456........
...........7.......+.
 x.............x...
    .....+....xx.
       ...x..xx"""


def test_a_treasure_splits_a_family() -> None:
    legend = {ch: ("cat", "green") for ch in "1234567"}
    result = sheet(boat(TREASURE_SPLITS, legend))
    assert sorted(f["size"] for f in result["families_detail"]) == [3, 4]  # 1-3 and 4-7
    joined = sheet(boat(TREASURE_SPLITS.replace("$", "8"), {**legend, "8": ("cat", "green")}))
    assert [f["size"] for f in joined["families_detail"]] == [8]


def test_every_family_of_a_colour_scores() -> None:
    text = EMPTY.split("\n")
    text[4] = "123.456.789" + text[4][11:]
    result = sheet(boat("\n".join(text), {ch: ("cat", "purple") for ch in "123456789"}))
    assert result["families"] == 24


# --- rats, rooms, rare treasures -----------------------------------------------------------


def test_empty_boat_loses_every_rat_and_room() -> None:
    result = sheet(Boat(LAYOUT))
    assert result == {"rats": -19, "rooms": -35, "families": 0, "rare_treasures": 0,
                      "private_lessons": 0, "public_lessons": 0, "total": -54,
                      "lessons": [], "families_detail": []}


COVER = """\
       +...$$$$
    $.........+..
 ................xx
.+.....xx..........x$
...................$$$
xx..................$
 x.............x...
    .....+....xx.
       ...x..xx"""  # 5 rats covered (rows 0-1), the 4-square captain's room filled


def test_covered_rats_and_filled_rooms() -> None:
    result = sheet(boat(COVER))
    assert result["rats"] == -14
    assert result["rooms"] == -30


def test_a_room_with_one_empty_square_is_unfilled() -> None:
    result = sheet(boat(COVER.replace("...................$$$", "...................$$.")))
    assert result["rooms"] == -35


RARES = """\
       +...xxxx
    x.........+..
 ................xx
.+.....xx..........x.
..**..**..$$..........
..**...**..........+.
 x.............x...
    .....+....xx.
       ...x..xx"""  # 2 rare treasures, 1 common


def test_rare_treasures_score_three_but_not_in_the_family_variant() -> None:
    assert sheet(boat(RARES))["rare_treasures"] == 6
    assert sheet(boat(RARES), mode="solo")["rare_treasures"] == 6
    assert sheet(boat(RARES), mode="family")["rare_treasures"] == 0


# --- lessons on the sheet ------------------------------------------------------------------

TWO_BLUE = EMPTY.replace("......................", "b.b...................")
SEVEN_BLUE = EMPTY.replace("......................", "b.b.b.b.b.b.b.........")


def test_public_lessons_score_for_every_player() -> None:
    table = TableFacts(
        [PlayerFacts(boat(TWO_BLUE)), PlayerFacts(boat(SEVEN_BLUE)), PlayerFacts(Boat(LAYOUT))],
        public_lessons=((144, "blue"), (150, None)),
    )
    results = score_table(table)
    assert [r["public_lessons"] for r in results] == [2 + 25, 7 + 25, 0 + 25]
    assert results[1]["lessons"] == [
        {"card": 144, "points": 7, "public": True, "colour": "blue"},
        {"card": 150, "points": 25, "public": True, "colour": None},
    ]


def test_private_lessons_score_only_for_their_owner() -> None:
    table = TableFacts([PlayerFacts(Boat(LAYOUT), private_lessons=(125,)),
                        PlayerFacts(Boat(LAYOUT))])
    assert [r["private_lessons"] for r in score_table(table)] == [38, 0]


def test_solo_public_lessons_are_halved_rounding_up_per_card() -> None:
    table = TableFacts([PlayerFacts(boat(SEVEN_BLUE))],
                       public_lessons=((144, "blue"), (145, "blue")), mode="solo")
    result = score_table(table)[0]
    assert [le["points"] for le in result["lessons"]] == [4, 3]  # ceil(7/2), ceil(5/2)
    assert result["public_lessons"] == 7  # per card: not ceil(12/2) = 6


def test_solo_largest_family_needs_seven() -> None:
    legend = {ch: ("cat", "blue") for ch in "1234567"}
    six = EMPTY.replace("......................", "123456................")
    seven = EMPTY.replace("......................", "1234567...............")
    for text, points in ((six, 0), (seven, 10)):
        table = TableFacts([PlayerFacts(boat(text, legend), private_lessons=(121,))],
                           mode="solo")
        assert score_table(table)[0]["private_lessons"] == points
    # the same six-cat family wins the multiplayer lesson against a smaller family
    table = TableFacts([PlayerFacts(boat(six, legend), private_lessons=(121,)),
                        PlayerFacts(boat(TWO_BLUE))])
    assert score_table(table)[0]["private_lessons"] == 10


def test_family_variant_scores_family_lessons_as_private() -> None:
    table = TableFacts([PlayerFacts(boat(RARES), private_lessons=(164, 166))], mode="family")
    result = score_table(table)[0]
    assert result["private_lessons"] == 2 * 3 + 2 * 19
    assert result["total"] == -19 - 35 + 44


def test_total_is_the_sum_of_the_lines() -> None:
    table = TableFacts(
        [PlayerFacts(boat(SARA, SARA_LEGEND), fish=6, private_lessons=(120, 142, 126))],
        public_lessons=((146, "purple"), (149, "blue")),
    )
    result = score_table(table)[0]
    assert result["total"] == sum(result[k] for k in SHEET_KEYS)
    assert result["private_lessons"] == sum(le["points"] for le in result["lessons"]
                                            if not le["public"])


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(("table", "message"), [
    (TableFacts([], mode="standard"), "at least one player"),
    (TableFacts([PlayerFacts(Boat(LAYOUT))], mode="duel"), "unknown scoring mode"),
    (TableFacts([PlayerFacts(Boat(LAYOUT))] * 2, mode="solo"), "exactly one player"),
    (TableFacts([PlayerFacts(Boat(LAYOUT))], public_lessons=((148, None),), mode="family"),
     "no public lessons"),
    (TableFacts([PlayerFacts(Boat(LAYOUT), private_lessons=(151,))]), "not a private lesson"),
    (TableFacts([PlayerFacts(Boat(LAYOUT), private_lessons=(113,))], mode="family"),
     "not a private lesson"),
    (TableFacts([PlayerFacts(Boat(LAYOUT))], public_lessons=((113, None),)),
     "not a public lesson"),
    (TableFacts([PlayerFacts(Boat(LAYOUT), private_lessons=(50,))]), "not a lesson card"),
])
def test_bad_tables_are_refused(table: TableFacts, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_table(table)


def test_scoring_is_repeatable() -> None:
    """Final scoring of a 4-player table with every lesson gives the same sheets each time and
    leaves its input alone. (Its speed is a figure of `python -m engine bench`, not a test.)"""
    players = [PlayerFacts(boat(SARA, SARA_LEGEND), private_lessons=tuple(range(113, 143)))
               for _ in range(4)]
    public = ((143, "red"), (144, "blue"), (145, "green"), (146, "orange"), (147, None),
              (148, None), (149, "purple"), (150, None))
    table = TableFacts(players, public_lessons=public)
    boats = [str(p.boat) for p in players]
    first = score_table(table)
    for _ in range(10):
        assert score_table(table) == first
    assert [str(p.boat) for p in players] == boats


def test_card_148_counts_common_treasures_where_the_books_prospector_counts_all() -> None:
    """Issue 11, card 148 re-read against the rulebook's worked example. The book's
    "Prospector" ("2 points per treasure on their boat") gives Sara 18 for 8 common + 1 rare;
    card 148's own text is "+2 for every common treasure tile", so it gives 16. The two
    differ by exactly the rare treasure; the engine's "treasures" count (used by family
    lesson 164, "common or rare") gives the book's 18. We follow the card (docs/rules-notes.md)."""
    card = base_cards()[COMMON_TREASURES_PUBLIC]
    assert "common treasure" in card.effect and card.scoring["count_of"] == "common_treasures"
    table = TableFacts([PlayerFacts(boat(SARA, SARA_LEGEND))])
    assert lesson_points(COMMON_TREASURES_PUBLIC, 0, table) == 16
    assert lesson_points(164, 0, table) == 18  # 2 per treasure, common or rare: the book's sum
