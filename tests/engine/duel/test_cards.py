"""Every Duel card, one test case per card id: treasure cards (1-6), instants (7-10), and
lessons (11-32) taken face up and scored on hand-built boats (positive and negative)."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.boat import COLOURS, Tile, cells_of, mask_of
from engine.modes.duel.data import duel_data
from engine.modes.duel.scoring import lesson_points

D = duel_data()
O_BOAT = D.layouts["O"]


def _take_card(kit, card_id: int, seed: int = 1):
    """A game where the first player has walked 1 -> 2 -> 3 with ``card_id`` on space 2."""
    game = kit.game(seed)
    kit.set_island(game, {2: card_id, 8: 0})
    kit.walk(game, 2, 3)
    seat = game.current
    game.apply(seat, {"kind": "select", "space": 2})
    return game, seat


# --- treasure cards ---------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", range(1, 7))
def test_treasure_card_gives_two_treasures(kit, card_id: int) -> None:
    game, seat = _take_card(kit, card_id)
    assert card_id in game.discard and game.took[seat]
    assert game.phase == "place_treasure" and game.treasures_due == 2
    game.apply(seat, {"kind": "place", "cells": [[5, 4], [6, 4], [6, 5]]})  # an L
    assert game.phase == "place_treasure" and game.treasures_due == 1
    with pytest.raises(IllegalAction, match="must touch a tile"):
        game.apply(seat, {"kind": "place", "cells": [[10, 4]]})
    game.apply(seat, {"kind": "place", "cells": [[7, 4]]})
    assert [t.shape for t in game.boats[seat].tiles] == ["L_tromino_3", "monomino_1"]
    assert len(game.supply["L_tromino_3"]) == 6 and len(game.supply["monomino_1"]) == 6
    assert game.phase == "act"


def test_treasures_that_cannot_be_placed_are_lost(kit) -> None:
    game = kit.game()
    seat = game.current
    full = Tile("common_treasure", None, "custom", O_BOAT.cells_mask, 45)
    game.boats[seat].place(full)
    kit.set_island(game, {2: 3})
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "select", "space": 2})
    assert game.phase == "act" and game.treasures_due == 0
    assert game.events[-1]["type"] == "treasures_lost" and game.events[-1]["count"] == 2


# --- instants ---------------------------------------------------------------------------------


def test_card_7_draws_the_next_cat_which_must_be_placed(kit) -> None:
    game = kit.game()
    fishy = next(c for c in D.cats if c.fish and c.id in game.bag)
    game.bag.remove(fishy.id)
    game.bag.insert(0, fishy.id)
    bag_size = len(game.bag)
    kit.set_island(game, {2: 7})
    kit.walk(game, 2, 3)
    seat = game.current
    game.apply(seat, {"kind": "select", "space": 2})
    assert game.placing == fishy.id and game.phase == "place_cat"
    assert len(game.bag) == bag_size - 1
    assert {"type": "tile_drawn", "tile": fishy.id, "fits": True}.items() <= game.events[-1].items()
    game.apply(seat, 0)
    assert game.boats[seat].tiles[0].tile_id == fishy.id
    assert game.fish[seat] == 4  # its fish icon
    assert 7 in game.discard


def test_card_7_loses_a_cat_that_does_not_fit(kit) -> None:
    game = kit.game()
    seat = game.current
    game.boats[seat].place(Tile("common_treasure", None, "custom",
                                O_BOAT.cells_mask & ~mask_of([[5, 4]]), 45))
    drawn = game.bag[0]
    kit.set_island(game, {2: 7})
    kit.walk(game, 2, 3)
    game.apply(seat, {"kind": "select", "space": 2})
    assert game.phase == "act" and game.placing is None
    assert drawn in game.box


def _with_boat(kit, card_id: int, tiles) -> tuple[int, int]:
    game = kit.game()
    seat = game.current
    game.boats[seat] = kit.boat("O", tiles)
    kit.set_island(game, {2: card_id})
    kit.walk(game, 2, 3)
    before = game.fish[seat]
    game.apply(seat, {"kind": "select", "space": 2})
    assert card_id in game.discard
    return before, game.fish[seat]


def test_card_8_one_fish_per_colour_at_most_3(kit) -> None:
    two = [("red", [[3, 4]]), ("red", [[5, 4]]), ("blue", [[7, 4]]), (None, [[9, 4]])]
    assert _with_boat(kit, 8, two) == (3, 5)
    four = [(c, [[3 + 2 * i, 4]]) for i, c in enumerate(COLOURS[:4])]
    assert _with_boat(kit, 8, four) == (3, 6)


def test_card_9_one_fish_per_treasure_at_most_3(kit) -> None:
    assert _with_boat(kit, 9, [(None, [[3, 4]]), ("red", [[5, 4]])]) == (3, 4)
    assert _with_boat(kit, 9, [(None, [[3 + 2 * i, 4]]) for i in range(5)]) == (3, 6)


def test_card_10_one_fish_per_cat_of_the_best_colour_at_most_3(kit) -> None:
    tiles = [("red", [[3, 4]]), ("blue", [[5, 4]]), ("blue", [[7, 4]]), (None, [[9, 4]])]
    assert _with_boat(kit, 10, tiles) == (3, 5)
    assert _with_boat(kit, 10, [("green", [[3 + 2 * i, 4]]) for i in range(4)]) == (3, 6)
    assert _with_boat(kit, 10, []) == (3, 3)


# --- lessons ----------------------------------------------------------------------------------


@pytest.mark.parametrize("card_id", range(11, 33))
def test_a_lesson_is_kept_face_up(kit, card_id: int) -> None:
    game, seat = _take_card(kit, card_id)
    assert game.lessons[seat] == [card_id] and card_id not in game.discard
    assert game.phase == "act"
    other = game.observation(1 - seat)
    assert other["players"][seat]["lessons"][0]["id"] == card_id  # open to the opponent


def _spots(n: int, row: int = 4) -> list[list[int]]:
    """``n`` squares not touching each other: every other square of rows 4, 2 and 6."""
    spots = [[x, y] for y in (row, 2, 6) for x in range(3, 16, 2)]
    return spots[:n]


def _lonely(colours: list[str]) -> list:
    return [(c, [cell]) for c, cell in zip(colours, _spots(len(colours)), strict=True)]


def _row(colour: str | None, n: int, y: int = 4, x0: int = 3) -> list:
    """``n`` one-square tiles side by side (a family of ``n`` if it has a colour)."""
    return [(colour, [[x0 + i, y]]) for i in range(n)]


_EDGE = cells_of(O_BOAT.edge_mask)
_RATS = cells_of(O_BOAT.rats_mask)
_MAPS = [cells_of(m)[0] for m in O_BOAT.maps.values()]

# card -> [(my tiles, the opponent's tiles, points)]
LESSON_CASES: dict[int, list[tuple[list, list, int]]] = {
    11: [([(None, _EDGE)], [], 12), ([(None, _EDGE[1:])], [], 0)],
    12: [(_lonely([c for c in COLOURS for _ in range(3)]), [], 15),
         (_lonely([c for c in COLOURS for _ in range(3)][:-1]), [], 0)],
    13: [([(c, [[3 + 2 * i, 0]]) for i, c in enumerate(COLOURS)], [], 7),
         ([(c, [[3 + 2 * i, 0]]) for i, c in enumerate(COLOURS[:4])] + [("orange", [[5, 4]])],
          [], 0)],
    14: [(_row("red", 2, 2) + _lonely(["blue", "green", "red"]), [], 6), ([], [], 0)],
    15: [(_row("blue", 3), _row("red", 3), 7), (_row("blue", 3), _row("red", 4), 0),
         (_row("blue", 2), [], 0)],
    16: [(_lonely([None] * 4), [], 4)],
    17: [(_lonely(["blue"] * 5), [], 9), (_lonely(["blue"] * 6), [], 0)],
    18: [(_lonely(["green"] * 5), [], 9), (_lonely(["green"] * 4), [], 0)],
    19: [(_lonely(["purple"] * 5), [], 9), (_lonely(["purple"] * 6), [], 0)],
    20: [(_lonely(["red"] * 5), [], 9), (_lonely(["red"] * 4 + ["blue"]), [], 0)],
    21: [(_lonely(["orange"] * 5), [], 9), (_lonely(["orange"] * 3), [], 0)],
    22: [([(None, _RATS[:13])], [], 12), ([(None, _RATS[:12])], [], 0)],
    23: [(_lonely([None] * 5), [], 9), (_lonely([None] * 4), [], 0)],
    24: [([(c, [[3 + 2 * i, 8]]) for i, c in enumerate(COLOURS)] + _row("red", 2), [], 2),
         (_row("red", 6), [], 0)],
    25: [(_row("blue", 5, 2) + _row("red", 4, 4) + _row("green", 3, 6), [], 8),
         (_row("blue", 5, 2) + _row("red", 4, 4) + _row("green", 1, 6), [], 0)],
    26: [(_lonely([None] * 2), _lonely([None] * 2), 7), (_lonely([None]), _lonely([None] * 2), 0),
         ([], [], 0)],
    27: [([(None, _MAPS[:3])], [], 12), ([(None, _MAPS[:2])], [], 0)],
    28: [(_lonely(["red"] * 18), [], 12), (_lonely(["red"] * 17), [], 0)],
    29: [(_row("blue", 3, 2) + _row("red", 3, 4), [], 8),
         (_row("blue", 3, 2) + _row("red", 4, 4), [], 0),
         (_row("blue", 3, 2) + _row("red", 3, 4) + _row("green", 3, 6), [], 0),
         (_row("blue", 2, 2) + _row("red", 2, 4), [], 0)],
    30: [(_lonely(["red"] * 3 + ["blue"] * 2), [], 4), (_lonely(["red"] * 3), [], 0)],
    31: [(_lonely(["orange"] + ["green"] * 4), [], 2), (_lonely(["green"] * 4), [], 0)],
    32: [(_lonely(["purple"] * 3 + ["blue"] * 3 + ["red"]), [], 6), (_lonely(["blue"]), [], 0)],
}


@pytest.mark.parametrize("card_id", range(11, 33))
def test_lesson_scoring(kit, card_id: int) -> None:
    assert D.cards[card_id].kind == "lesson"
    for mine, theirs, points in LESSON_CASES[card_id]:
        boats = [kit.boat("O", mine), kit.boat("O", theirs)]
        assert lesson_points(card_id, 0, boats) == points, (mine, theirs)


def test_lesson_points_rejects_cards_that_are_not_lessons(kit) -> None:
    with pytest.raises(ValueError, match="not a Duel lesson"):
        lesson_points(5, 0, [kit.boat("O", []), kit.boat("O", [])])
