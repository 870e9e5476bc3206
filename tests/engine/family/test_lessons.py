"""Every family lesson (151-168) in play: dealt, kept 2 of 3, and scored at the end.

The points are checked against a small oracle written here from the card texts
(FACTS §6, §8), independent of engine/scoring.py's interpreter.
"""

from __future__ import annotations

import pytest

from engine.boat import COLOURS, Boat
from engine.bots import make_bot
from engine.cards import FAMILY_LESSON_IDS
from engine.play import play_game

from .helpers import dealt, new_family


def _table(size: int) -> int:
    return 0 if size < 3 else 8 if size == 3 else 11 if size == 4 else 5 * (size - 2)


def _edge_tiles(boat: Boat, colour: str | None = None) -> int:
    return sum(1 for t in boat.coloured_tiles()
               if t.mask & boat.layout.edge_mask and colour in (None, t.colour))


def _of(boat: Boat, colour: str) -> int:
    return sum(1 for t in boat.coloured_tiles() if t.colour == colour)


def _largest(boat: Boat) -> int:
    return max((len(tiles) for _, tiles in boat.families()), default=0)


def oracle(card: int, seat: int, boats: list[Boat]) -> int:
    boat = boats[seat]
    free = boat.layout.cells_mask & ~boat.occupied
    sizes = sorted((len(tiles) for _, tiles in boat.families()), reverse=True)
    exactly_5 = {159: "blue", 160: "green", 161: "purple", 162: "red", 163: "orange"}
    if card == 151:
        return max(_edge_tiles(boat, c) for c in COLOURS)
    if card == 152:
        return 9 if all(_edge_tiles(boat, c) for c in COLOURS) else 0
    if card == 153:
        return _edge_tiles(boat) // 2
    if card == 154:
        return 10 if boat.uncovered_rats() == 0 else 0
    if card == 155:
        return 10 if not boat.layout.row_mask(4) & free else 0
    if card == 156:
        return 12 if not boat.layout.edge_mask & free else 0
    if card == 157:
        return 10 if sum(t.kind == "cat" for t in boat.tiles) == 20 else 0
    if card == 158:
        return 15 if all(_of(boat, c) >= 3 for c in COLOURS) else 0
    if card in exactly_5:
        return 9 if _of(boat, exactly_5[card]) == 5 else 0
    if card == 164:
        return 2 * sum(t.colour is None for t in boat.tiles)
    if card == 165:
        mine = _largest(boat)
        others = [_largest(b) for i, b in enumerate(boats) if i != seat]
        return 10 if mine and all(o <= mine for o in others) else 0
    if card == 166:
        return 2 * boat.uncovered_rats()
    if card == 167:
        return 2 * boat.filled_rooms()
    if card == 168:
        return _table(sizes[2]) if len(sizes) >= 3 else 0
    raise AssertionError(card)


def _seed_dealing(card: int, seats: int) -> int:
    """The first seed that deals ``card`` to seat 0 (deterministic)."""
    for seed in range(1000):
        if card in dealt(new_family(seats, seed))[0]:
            return seed
    raise AssertionError(f"no seed deals {card}")


@pytest.mark.parametrize("card", list(FAMILY_LESSON_IDS))
def test_family_lesson_is_kept_and_scored_in_play(card: int) -> None:
    seats = 2 + card % 3
    seed = _seed_dealing(card, seats)
    game = new_family(seats, seed)
    hand = dealt(game)[0]
    other = next(c for c in hand if c != card)
    dropped = next(c for c in hand if c not in (card, other))
    game.apply(0, next(a for a in game.legal_actions(0) if set(a[1]) == {card, other}))
    bots = [make_bot("greedy", "family", s, seed) for s in range(seats)]
    play_game(game, bots)
    result = game.result()
    sheet = result["breakdown"][0]
    scored = {le["card"]: le["points"] for le in sheet["lessons"]}
    assert set(scored) == {card, other} and dropped not in scored
    assert result["lessons"][0] == sorted((card, other))
    boats = [p.boat for p in game.state.players]
    assert scored[card] == oracle(card, 0, boats)
    assert scored[other] == oracle(other, 0, boats)
    assert sheet["private_lessons"] == scored[card] + scored[other]
    assert sheet["total"] == sheet["rats"] + sheet["rooms"] + sheet["families"] + \
        sheet["private_lessons"]
    for seat in range(1, seats):  # the others' lessons too
        theirs = result["breakdown"][seat]["lessons"]
        assert all(le["points"] == oracle(le["card"], seat, boats) for le in theirs)


def test_the_greedy_games_make_lessons_score_points() -> None:
    """Guards the per-lesson test against a world where every lesson scores 0."""
    game = new_family(2, 3)
    play_game(game, [make_bot("greedy", "family", s, 3) for s in range(2)])
    points = [le["points"] for sheet in game.result()["breakdown"] for le in sheet["lessons"]]
    assert any(p > 0 for p in points)
