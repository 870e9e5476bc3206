"""One test per lesson card: private and public lessons (113-150), family lessons (151-168)
and the sister's solo lessons (197-215), each on a boat where it scores and one where it
does not; plus the sister's colour cards and lesson 204 ("best lesson scores twice").

Boats are ASCII pictures drawn over the empty blue boat: ``rows`` maps a row number to a
string laid over that row from column 0 (a space keeps the picture's cell, any other
character replaces it). Lower-case colour initials are cats, upper-case are Oshax, ``$``
and ``*`` are common and rare treasures; ``LEGEND`` characters are single cats, so that
touching cats of one colour stay separate tiles (a family).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from engine.boat import Boat, base_layouts
from engine.cards import base_cards
from engine.scoring import COUNTS, KINDS, PlayerFacts, TableFacts, lesson_points, sister_score

LAYOUT = base_layouts()["blue"]
EMPTY_ROWS = str(Boat(LAYOUT)).split("\n")
LEGEND = {
    **{ch: ("cat", "blue") for ch in "123456789"},
    **{ch: ("cat", "red") for ch in "hijklmn"},
    **{ch: ("cat", "green") for ch in "qstuvw"},
}


def draw(rows: dict[int, str]) -> str:
    """The empty blue boat with ``rows`` laid over it (see the module docstring)."""
    lines = list(EMPTY_ROWS)
    for y, overlay in rows.items():
        line = list(lines[y].ljust(len(overlay)))
        for x, ch in enumerate(overlay):
            if ch != " ":
                line[x] = ch
        lines[y] = "".join(line)
    return "\n".join(lines)


def boat(rows: dict[int, str]) -> Boat:
    return Boat.from_text(LAYOUT, draw(rows), LEGEND)


def test_draw_keeps_the_boat_outline() -> None:
    """The overlay helper itself: a drawn boat prints back as drawn."""
    rows = {0: "       bgrpo", 4: "bb.R$**", 8: "       ..$"}
    assert str(boat(rows)) == draw(rows)
    assert str(boat({4: "123"})) == draw({4: "bbb"})  # legend characters print as colours


# --- the boats ---------------------------------------------------------------------------------

EMPTY: dict[int, str] = {}
FULL = {y: "".join("$" if ch != " " else " " for ch in row) for y, row in enumerate(EMPTY_ROWS)}
FULL_BUT_EDGE = {**FULL, 0: "       .$$$$$$$"}  # one edge cell (7, 0) left empty
EDGE5 = {0: "       bgrpo"}  # one cat of every colour on the top edge
EDGE4 = {0: "       bgrp", 4: "          o"}  # orange is only in the middle
EDGE13 = {0: "       bgbgbgbg", 8: "       bgbgb"}  # 13 cats on the edge (the rulebook's Sara)
MIDDLE = {4: "    bgb"}  # cats touching no edge cell
FIFTEEN = {4: "bgrpobgrpobgrpO"}  # 15 lonely tiles, 3 of each colour (one orange Oshax)
FIFTEEN_CATS = {4: "bgrpobgrpobgrpo"}
FOURTEEN = {4: "bgrpobgrpobgrp"}  # only 2 orange
TWENTY_CATS = {4: "bgrpobgrpobgrpobgrpo"}
NINETEEN_CATS_AND_OSHAX = {4: "bgrpobgrpobgrpobgrpO"}
SEVENTEEN = {4: "bgrpobgrpobgrpobG"}
FAMS_543 = {4: "12345.hijk.qst"}  # families of 5 blue, 4 red, 3 green
FAMS_54 = {4: "12345.hijk"}
FAMS_541 = {4: "12345.hijk.q"}  # three families, the third a lonely cat
FAM4 = {4: "1234"}
FAM3 = {4: "    123"}
PAIR = {4: "12"}
NO_RATS = {0: "           $$$$", 1: "    $", 2: "                 $$", 3: "       $$          $",
           5: "$$", 6: " $             $", 7: "              $$", 8: "          $  $$"}
RATS5 = {y: NO_RATS[y] for y in (0, 1, 2, 3, 5, 6)}  # the 5 rats of rows 7-8 stay visible
RATS4 = {**RATS5, 7: "              $"}
CAPTAINS = {2: " $$$", 3: "$$$$                $", 4: "$$$$                $$",
            5: "$$$$                $", 6: " $$$"}  # both captain's rooms (parrot) filled
CAPTAINS_BUT_ONE = {**CAPTAINS, 6: " $$."}
MOON_TOP_CAT = {0: "       b"}
DINING_CAT = {4: "     b"}
MIDDLE_ROW_FULL = {4: "$" * 22}
MIDDLE_ROW_BUT_ONE = {4: "$" * 21}
T4 = {4: "$.$.$.*"}
T5 = {4: "$.$.$.*.*"}  # 3 common + 2 rare treasures, none touching
T8 = {4: "$.$.$.$.$.$.*.*"}
T9 = {4: "$.$.$.$.$.$.*.*.*"}
MAPS_ALL = {0: "       $", 1: "              $", 3: " $", 5: "                   $",
            7: "         $"}
MAPS2 = {0: "       $", 3: " $"}  # green and red maps covered, 3 left open
TOUCH_RED = {4: "r$r.$b.$.*r"}  # 2 treasures touch red (the first touches two red cats)
TOUCH_BLUE = {4: "b$b"}
ALL_TOUCH_TREASURE = {4: "b$g$r$p$o"}
SOME_TOUCH_TREASURE = {4: "b$g.r.p"}  # blue and green touch; red, purple and orange do not
BY_RATS = {1: "           bgrp", 2: "                o"}  # every colour next to a visible rat
BY_COVERED_RATS = {0: "           $$$$", 1: "           bgrp", 2: "                o$"}
RED_EDGE = {0: "       rgr", 4: "     r"}  # two red cats on the edge, one in the middle
RED_MIDDLE = {4: "     r"}
OSHAX2 = {4: "B.G"}


def five(colour: str, extra: int = 0, oshax: bool = True) -> dict[int, str]:
    """Exactly five (plus ``extra``) tiles of one colour, none touching."""
    c = colour[0]
    last = c.upper() if oshax else c
    return {4: ".".join([c] * (4 + extra) + [last])}


@dataclass(frozen=True)
class Scene:
    """One player's end of game: a boat plus what scoring knows besides it."""

    rows: dict[int, str] = field(default_factory=dict)
    fish: int = 0
    lessons: tuple[int, ...] = ()
    baskets: int = 1
    position: int = 0
    others: tuple[dict[int, str], ...] = ()  # opponents' boats
    colour: str | None = None  # colour chosen at purchase (public lessons)


def S(rows: dict[int, str] | None = None, **kw: object) -> Scene:  # noqa: N802
    return Scene(rows or {}, **kw)  # type: ignore[arg-type]


def mode_of(card_id: int) -> str:
    if 151 <= card_id <= 168:
        return "family"
    if 197 <= card_id <= 215:
        return "solo"
    return "standard"


def score(card_id: int, scene: Scene) -> int:
    me = PlayerFacts(boat(scene.rows), fish=scene.fish, private_lessons=scene.lessons,
                     permanent_baskets=scene.baskets, turn_position=scene.position)
    others = [PlayerFacts(boat(rows), turn_position=i + 1)
              for i, rows in enumerate(scene.others)]
    table = TableFacts([me, *others], mode=mode_of(card_id))
    return lesson_points(card_id, 0, table, scene.colour)


SIX_LESSONS = (113, 114, 115, 116, 117, 118)

# card: (a scene where it scores, the points, a scene where it scores nothing)
CASES: dict[int, tuple[Scene, int, Scene]] = {
    113: (S(FULL), 12, S(FULL_BUT_EDGE)),
    114: (S(FIFTEEN), 10, S(FOURTEEN)),
    115: (S(FIFTEEN), 15, S(FOURTEEN)),
    116: (S(EDGE5), 7, S(EDGE4)),
    117: (S({0: "       bgbgb"}), 3, S(MIDDLE)),
    118: (S(baskets=3), 7, S(baskets=2)),
    119: (S(position=0), 7, S(position=1)),
    120: (S(FIFTEEN), 15, S(FAM3)),
    121: (S(FAMS_543, others=({4: "12345"},)), 10, S(FAMS_543, others=({4: "123456"},))),
    122: (S(T5), 4, S(EMPTY)),
    123: (S(T5), 3, S(EMPTY)),
    124: (S(NO_RATS), 10, S(RATS5)),
    125: (S(RATS5), 10, S(NO_RATS)),
    126: (S(lessons=(126, 113, 114)), 3, S(lessons=())),
    127: (S(five("blue")), 9, S(five("blue", extra=1))),
    128: (S(five("green")), 9, S(five("green", extra=1))),
    129: (S(five("purple")), 9, S(five("purple", extra=1))),
    130: (S(five("red")), 9, S(five("red", extra=1))),
    131: (S(five("orange")), 9, S(five("orange", extra=1))),
    132: (S(RATS5), 10, S(RATS4)),
    133: (S(lessons=(*SIX_LESSONS[:5], 133)), 7, S(lessons=SIX_LESSONS[:5])),
    134: (S(T5), 9, S(T4)),
    135: (S(EDGE13), 6, S(MOON_TOP_CAT | MIDDLE)),
    136: (S(CAPTAINS), 12, S(CAPTAINS_BUT_ONE)),
    137: (S(EMPTY), 18, S(MOON_TOP_CAT)),
    138: (S(FAMS_543), 8, S(FAM3)),
    139: (S(OSHAX2), 6, S(FIFTEEN_CATS)),
    140: (S(EMPTY), 15, S(DINING_CAT)),
    141: (S(FAMS_543), 8, S(FAMS_54)),
    142: (S(fish=5), 7, S(fish=4)),
    143: (S(RED_EDGE, colour="red"), 4, S(RED_MIDDLE, colour="red")),
    144: (S(FIFTEEN, colour="blue"), 3, S(EMPTY, colour="blue")),
    145: (S(FIFTEEN, colour="purple"), 5, S(EDGE5, colour="purple")),
    146: (S(FIFTEEN, colour="green"), 9, S(FAMS_543, colour="green")),
    147: (S(lessons=(113, 114)), 4, S(lessons=())),
    148: (S(T5), 6, S(EMPTY)),
    149: (S(TOUCH_RED, colour="red"), 2, S(TOUCH_BLUE, colour="red")),
    150: (S(MAPS2), 15, S(MAPS_ALL)),
    151: (S({0: "       gbgbg"}), 3, S(MIDDLE)),
    152: (S(EDGE5), 9, S(EDGE4)),
    153: (S(EDGE13), 6, S(MOON_TOP_CAT | MIDDLE)),
    154: (S(NO_RATS), 10, S(RATS5)),
    155: (S(MIDDLE_ROW_FULL), 10, S(MIDDLE_ROW_BUT_ONE)),
    156: (S(FULL), 12, S(FULL_BUT_EDGE)),
    157: (S(TWENTY_CATS), 10, S(NINETEEN_CATS_AND_OSHAX)),
    158: (S(FIFTEEN_CATS), 15, S(FOURTEEN)),
    159: (S(five("blue", oshax=False)), 9, S(five("blue", extra=1, oshax=False))),
    160: (S(five("green", oshax=False)), 9, S(five("green", extra=1, oshax=False))),
    161: (S(five("purple", oshax=False)), 9, S(five("purple", extra=1, oshax=False))),
    162: (S(five("red", oshax=False)), 9, S(five("red", extra=1, oshax=False))),
    163: (S(five("orange", oshax=False)), 9, S(five("orange", extra=1, oshax=False))),
    164: (S(T5), 10, S(EMPTY)),
    165: (S(FAMS_543, others=({4: "hijkl"},)), 10, S(FAMS_543, others=({4: "hijklm"},))),
    166: (S(RATS5), 10, S(NO_RATS)),
    167: (S(CAPTAINS), 4, S(EMPTY)),
    168: (S(FAMS_543), 8, S(FAMS_541)),
    197: (S(SOME_TOUCH_TREASURE), 15, S(ALL_TOUCH_TREASURE)),
    198: (S(FAM4), 8, S(PAIR)),
    199: (S(T8), 10, S(T9)),
    200: (S(fish=3), 12, S(fish=0)),
    201: (S(EMPTY), 95, S(NO_RATS)),
    202: (S(SEVENTEEN), 10, S(FIFTEEN)),
    203: (S(EDGE4), 5, S(EDGE5)),
    205: (S(CAPTAINS), 6, S(EMPTY)),
    206: (S(FIFTEEN), 75, S(FAM3)),
    207: (S(lessons=(113, 114)), 6, S(lessons=())),
    208: (S(FAMS_543), 15, S(PAIR)),
    209: (S(FAMS_543), 11, S(FAM3)),
    210: (S(T5), 9, S(EMPTY)),
    211: (S(SOME_TOUCH_TREASURE), 6, S(ALL_TOUCH_TREASURE)),
    212: (S(MAPS2), 8, S(EMPTY)),
    213: (S(FAMS_543), 15, S(FIFTEEN)),
    214: (S(EDGE5), 5, S(MIDDLE)),
    215: (S(BY_COVERED_RATS), 25, S(BY_RATS)),
}
TESTED_ELSEWHERE = {204}  # scored only together with the sister's other lessons, see below


@pytest.mark.parametrize("card_id", sorted(CASES))
def test_lesson_scores(card_id: int) -> None:
    scoring, points, _ = CASES[card_id]
    assert score(card_id, scoring) == points


@pytest.mark.parametrize("card_id", sorted(CASES))
def test_lesson_does_not_score(card_id: int) -> None:
    _, _, missing = CASES[card_id]
    assert score(card_id, missing) == 0


def test_every_lesson_card_is_tested() -> None:
    expected = set(range(113, 169)) | set(range(197, 216))
    assert set(CASES) | TESTED_ELSEWHERE == expected
    lessons = {c.id for c in base_cards().values()
               if c.scoring and c.family != "solo_colour"}
    assert lessons == expected


def test_every_rule_word_in_the_data_is_interpreted() -> None:
    """The interpreter is data-driven: each kind and count_of of cards.json has a function."""
    for card in base_cards().values():
        rule = card.scoring
        if not rule or rule["kind"] in ("sister_colour_multiplier",
                                        "repeat_best_other_solo_lesson"):
            continue
        assert rule["kind"] in KINDS, card.id
        if "count_of" in rule:
            assert rule["count_of"].partition(":")[0] in COUNTS, card.id


# --- details the table above does not show --------------------------------------------------


def test_third_family_needs_three_families_and_rescores_the_third() -> None:
    assert score(141, S(FAMS_541)) == 0  # a lonely third family scores 0 again
    assert score(141, S({4: "12345.hijk.qst.uvw"})) == 8  # two families of 3: one is "third"


def test_largest_family_ties_score_and_an_empty_boat_never_does() -> None:
    assert score(121, S(FAM3, others=({4: "hij"}, {4: "qs"}))) == 10
    assert score(121, S(EMPTY, others=(EMPTY,))) == 0


def test_largest_family_in_solo_needs_seven() -> None:
    table = TableFacts([PlayerFacts(boat({4: "123456"}))], mode="solo")
    assert lesson_points(121, 0, table) == 0
    table = TableFacts([PlayerFacts(boat({4: "1234567"}))], mode="solo")
    assert lesson_points(121, 0, table) == 10


def test_best_colour_is_chosen_for_colour_on_the_edge() -> None:
    table = TableFacts([PlayerFacts(boat({0: "       gbgbg", 8: "       g"}))])
    assert lesson_points(117, 0, table) == 4  # green (4) beats blue (2)


def test_oshax_count_for_colour_lessons() -> None:
    assert score(144, S({4: "b.B.b"}, colour="blue")) == 3
    assert score(146, S({4: "b.B.bB"}, colour="blue")) == 6  # b and B touch: not lonely


def test_public_colour_lessons_need_the_colour() -> None:
    with pytest.raises(ValueError, match="colour chosen at purchase"):
        score(144, S(FIFTEEN))
    with pytest.raises(ValueError, match="takes no colour"):
        score(148, S(T5, colour="red"))


def test_not_a_lesson_card_is_refused() -> None:
    table = TableFacts([PlayerFacts(boat(EMPTY))])
    with pytest.raises(ValueError, match="not a lesson card"):
        lesson_points(7, 0, table)
    with pytest.raises(ValueError, match="sister_score"):
        lesson_points(204, 0, table)


# --- the sister -----------------------------------------------------------------------------


def test_sister_colour_cards_score_by_reveal_order() -> None:
    player = PlayerFacts(boat(FIFTEEN))  # 3 tiles of each colour, orange with an Oshax
    order = ["red", "blue", "orange", "green", "purple"]
    result = sister_score(player, order, [])
    assert [(c["colour"], c["points_each"], c["count"], c["points"]) for c in result["colours"]] \
        == [("red", 5, 3, 15), ("blue", 4, 3, 12), ("orange", 3, 3, 9), ("green", 2, 3, 6),
            ("purple", 1, 3, 3)]
    assert result["total"] == 45
    assert sister_score(player, order[:2], [])["total"] == 27  # only revealed colours score


def test_sister_best_lesson_scores_twice() -> None:
    player = PlayerFacts(boat(T5), fish=2)  # 200: 8 points, 210: 9 points, 199: 10 points
    result = sister_score(player, ["blue"], [200, 204, 210, 199])
    assert result["lessons"] == [{"card": 200, "points": 8}, {"card": 204, "points": 10},
                                 {"card": 210, "points": 9}, {"card": 199, "points": 10}]
    assert result["total"] == 37  # no blue tiles on the boat


def test_sister_lesson_204_alone_scores_nothing() -> None:
    result = sister_score(PlayerFacts(boat(EMPTY)), [], [204])
    assert result["lessons"] == [{"card": 204, "points": 0}]
    assert result["total"] == 0


def test_sister_lessons_are_scored_as_solo() -> None:
    """Her lessons read the player's boat with solo rules (121 is not hers, 198 is)."""
    result = sister_score(PlayerFacts(boat(FAMS_543)), [], [198, 208, 209, 213])
    assert [le["points"] for le in result["lessons"]] == [10, 15, 11, 15]


def test_sister_refuses_bad_input() -> None:
    player = PlayerFacts(boat(EMPTY))
    with pytest.raises(ValueError, match="not a solo lesson"):
        sister_score(player, [], [113])
    with pytest.raises(ValueError, match="distinct colours"):
        sister_score(player, ["red", "red"], [])
    with pytest.raises(ValueError, match="unknown colour"):
        sister_score(player, ["pink"], [])
