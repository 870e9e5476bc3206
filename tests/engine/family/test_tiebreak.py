"""Family tiebreak: equal scores are separated by filled rooms; equal both share a rank."""

from __future__ import annotations

from engine.boat import Tile
from engine.modes.family import FamilyGame

from .helpers import new_family


def _finished(seats: int) -> FamilyGame:
    game = new_family(seats, 1)
    while not game.is_over():
        game.apply(game.pending()[0], game.legal_actions(game.pending()[0])[-1])
    return game


def _fill_smallest_room(game: FamilyGame, seat: int) -> None:
    boat = game.state.players[seat].boat
    room = min(boat.layout.rooms, key=lambda r: r.size)
    boat.place(Tile("common_treasure", None, "custom", room.mask & ~boat.occupied, 999))


def _equal_scores(game: FamilyGame, total: int) -> None:
    sheets = FamilyGame.scores(game)
    for sheet in sheets:
        sheet["total"] = total
    game.scores = lambda: sheets  # type: ignore[method-assign]


def test_equal_scores_are_broken_by_filled_rooms() -> None:
    game = _finished(3)
    _fill_smallest_room(game, 2)
    _equal_scores(game, 12)
    result = game.result()
    assert result["scores"] == [12, 12, 12]
    assert result["tiebreak"]["name"] == "filled_rooms"
    filled = result["tiebreak"]["values"]
    assert filled[2] == filled[0] + 1 == filled[1] + 1
    assert result["ranks"] == [2, 2, 1]
    assert result["winners"] == [2]


def test_equal_scores_and_rooms_share_the_rank() -> None:
    game = _finished(2)
    _equal_scores(game, 3)
    result = game.result()
    assert result["tiebreak"]["values"][0] == result["tiebreak"]["values"][1]
    assert result["ranks"] == [1, 1] and result["winners"] == [0, 1]


def test_a_higher_score_beats_more_filled_rooms() -> None:
    game = _finished(2)
    _fill_smallest_room(game, 1)
    sheets = FamilyGame.scores(game)
    sheets[0]["total"], sheets[1]["total"] = 5, 4
    game.scores = lambda: sheets  # type: ignore[method-assign]
    assert game.result()["ranks"] == [1, 2]
