"""A boat's score sheet can be worked out from ``game_data`` alone, as a bot in another
language must: the rats, rooms, families and rare treasures lines are computed here from the
boats' cells (``game_data.boats``), the tiles of the final observation and the numbers of
``game_data.rules.scoring``, with nothing of the engine's scoring code, and must equal the
engine's own sheet at the end of seeded games of the standard, family and solo modes. (The
lesson lines follow each card's ``rules.scoring``, sent with the cards.)"""

from __future__ import annotations

from typing import Any

import pytest

from engine import new_game
from engine.bots import make_bot
from engine.game_data import game_data

CASES = [("standard", 2, 3), ("standard", 4, 8), ("family", 2, 5), ("family", 3, 6),
         ("solo", 1, 2)]
OPTIONS = {"solo": {"difficulty": "easy"}}
EDGE_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def family_points(table: dict[str, int], size: int) -> int:
    if str(size) in table:
        return table[str(size)]
    if size < 3:
        return 0
    return table["5"] + table["each_beyond_5"] * (size - 5)


def family_sizes(tiles: list[dict[str, Any]]) -> list[int]:
    """Tiles per family: cats and Oshax of one colour whose cells share an edge."""
    coloured = [t for t in tiles if t["kind"] in ("cat", "oshax")]
    owner = {(x, y): i for i, t in enumerate(coloured) for x, y in t["cells"]}
    seen: set[int] = set()
    sizes = []
    for first in range(len(coloured)):
        if first in seen:
            continue
        seen.add(first)
        stack, size = [first], 0
        while stack:
            i = stack.pop()
            size += 1
            for x, y in coloured[i]["cells"]:
                for dx, dy in EDGE_STEPS:
                    j = owner.get((x + dx, y + dy))
                    if j is not None and j not in seen \
                            and coloured[j]["colour"] == coloured[i]["colour"]:
                        seen.add(j)
                        stack.append(j)
        sizes.append(size)
    return sizes


def sheet_from_game_data(data: dict[str, Any], player: dict[str, Any]) -> dict[str, int]:
    numbers = data["rules"]["scoring"]
    boat = data["boats"][player["boat"]]
    covered = {(x, y) for t in player["tiles"] for x, y in t["cells"]}
    rats = sum(1 for x, y in boat["rats"] if (x, y) not in covered)
    rooms = sum(1 for room in boat["rooms"]
                if any((x, y) not in covered for x, y in room["cells"]))
    rare = sum(1 for t in player["tiles"] if t["kind"] == "rare_treasure")
    return {
        "rats": numbers["rat_points"] * rats,
        "rooms": numbers["unfilled_room_points"] * rooms,
        "families": sum(family_points(numbers["family_points"], n)
                        for n in family_sizes(player["tiles"])),
        "rare_treasures": numbers["rare_treasure_points"] * rare,
    }


@pytest.mark.parametrize(("mode", "seats", "seed"), CASES)
def test_a_boats_sheet_is_computed_from_game_data_alone(mode: str, seats: int,
                                                        seed: int) -> None:
    game = new_game(mode, seats, seed, OPTIONS.get(mode, {}))
    bots = [make_bot("greedy", mode, s, seed) for s in range(seats)]
    while not game.is_over():
        seat = game.pending()[0]
        game.apply_unchecked(seat, bots[seat].act(game, seat))
    data = game_data(mode)
    result = game.result()
    for seat in range(seats):
        player = game.observation(seat)["players"][seat]
        mine = sheet_from_game_data(data, player)
        engine_sheet = result["breakdown"][seat]
        assert mine == {k: engine_sheet[k] for k in mine}, (mode, seed, seat)
        lessons = engine_sheet["private_lessons"] + engine_sheet["public_lessons"]
        assert sum(mine.values()) + lessons == engine_sheet["total"] == result["scores"][seat]
    if mode == "family":
        assert data["rules"]["scoring"]["rare_treasure_points"] == 0


def test_every_mode_of_the_base_game_carries_the_sheets_numbers() -> None:
    for mode, rare, divisor in (("standard", 3, 1), ("family", 0, 1), ("solo", 3, 2)):
        numbers = game_data(mode)["rules"]["scoring"]
        assert numbers["rat_points"] == -1 and numbers["unfilled_room_points"] == -5
        assert numbers["family_points"] == {"3": 8, "4": 11, "5": 15, "each_beyond_5": 5}
        assert (numbers["rare_treasure_points"], numbers["public_lesson_divisor"]) \
            == (rare, divisor)
        assert set(numbers["words"]) >= set(numbers) - {"words"}
    assert "scoring" not in game_data("duel")["rules"]  # the Duel's are in rules.duel
    assert game_data("duel")["rules"]["duel"]["family_points"] \
        == game_data("standard")["rules"]["scoring"]["family_points"]
