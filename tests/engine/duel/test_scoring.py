"""Final scoring: the rulebook's worked example (Sara's boat, 56 points), the result's
format, ranks and the fish tiebreak."""

from __future__ import annotations

from engine.boat import Boat
from engine.modes.duel import DuelGame
from engine.modes.duel.data import duel_data
from engine.modes.duel.scoring import score_boats

# Sara's boat as the rulebook scores it, on the O layout. One letter per tile:
# purple A-E (a family of 5), red F-I (4), blue J-M (4), green N-Q (4) and R-T (3, apart
# from N-Q), orange U V (2: no family); treasures 1-7. Two rats (x) stay visible; the
# corn, small parrot and unmarked rooms are not filled; + marks a visible map.
SARA = """
   AAABBCCDD
 FFABBBCCDDEEERR
 #F..33.....+5.RSSS
 GF7.NNO1UUU55....TTT
GGH7.NOO1VVV..........
 GH7.PPQQ222.....+...
 #H..44......6x..x.
 IHJKKKLLMM.66..
   JJJKLLMM.
"""
LEGEND = {
    **{ch: ("cat", "purple") for ch in "ABCDE"},
    **{ch: ("cat", "red") for ch in "FGHI"},
    **{ch: ("cat", "blue") for ch in "JKLM"},
    **{ch: ("cat", "green") for ch in "NOPQRST"},
    **{ch: ("cat", "orange") for ch in "UV"},
    **{ch: ("common_treasure", None) for ch in "1234567"},
}
VANDERMIL, PRUDENT, SUN_POWERED = 19, 23, 24


def _sara() -> Boat:
    return Boat.from_text(duel_data().layouts["O"], SARA, LEGEND)


def test_the_rulebook_example_scores_56() -> None:
    boat = _sara()
    cats = [t for t in boat.tiles if t.kind == "cat"]
    assert len(cats) == 22 and len(boat.tiles) - len(cats) == 7  # 7 treasures
    edge = boat.layout.edge_mask
    assert sum(1 for t in cats if t.mask & edge) == 16  # 16 cats touch the edge
    sheet = score_boats([boat, Boat(boat.layout)], [[VANDERMIL, SUN_POWERED, PRUDENT], []])[0]
    assert sheet["rats"] == -2
    assert sheet["rooms"] == -15
    assert sorted(sheet["families_detail"]) == [3, 4, 4, 4, 5]
    assert sheet["families"] == 56
    assert sheet["lessons_detail"] == [{"card": VANDERMIL, "points": 9},
                                       {"card": SUN_POWERED, "points": 8},
                                       {"card": PRUDENT, "points": 0}]
    assert sheet["lessons"] == 17
    assert sheet["total"] == 56


def _squares(picture: str) -> list[str]:
    """The picture with every tile letter as "?", so only rats, maps and holes differ."""
    return ["".join("?" if ch not in " .x+#" else ch for ch in row)
            for row in picture.strip("\n").split("\n")]


def test_the_picture_round_trips() -> None:
    boat = _sara()
    assert _squares(str(boat)) == _squares(SARA)  # rats, maps and holes drawn where they are
    again = Boat.from_text(boat.layout, str(boat), None)
    assert again.occupied == boat.occupied
    for colour, mask in boat.colour_masks.items():
        assert again.colour_masks[colour] == mask


def test_families_beyond_five_score_five_more_each(kit) -> None:
    boat = kit.boat("O", [("red", [[3 + i, 4]]) for i in range(7)])
    assert score_boats([boat, boat], [[], []])[0]["families"] == 25


def _finish(game: DuelGame) -> None:
    while not game.is_over():
        seat = game.current
        legal = game.legal_actions(seat)
        game.apply_unchecked(seat, legal[-1] if game.phase == "act" else legal[0])


def test_result_format(kit) -> None:
    game = kit.game(seed=4, boats=("O", "I"))
    _finish(game)
    result = game.result()
    assert result["mode"] == "duel" and result["seats"] == 2 and result["seed"] == 4
    assert result["tiebreak"] == {"name": "fish", "values": game.fish}
    first = game.events[0]["seat"]
    assert result["boats"][first]["boat"] == "O" and result["boats"][1 - first]["boat"] == "I"
    assert result["scores"] == [b["total"] for b in result["breakdown"]]
    for b in result["breakdown"]:
        assert b["total"] == b["rats"] + b["rooms"] + b["families"] + b["lessons"]
    assert result["state_hash"] == game.state_hash()
    assert result["days"] == 4


def test_ranks_follow_score_then_fish_then_share(kit) -> None:
    game = kit.game(seed=4)
    _finish(game)
    boats = game.boats
    empty = boats[0].layout
    # Equal boats: the fish decide; equal fish: both win.
    game.boats = [Boat(empty), Boat(empty)]
    game.lessons = [[], []]
    game.fish = [2, 5]
    result = game.result()
    assert result["scores"][0] == result["scores"][1]
    assert result["ranks"] == [2, 1] and result["winners"] == [1]
    game.fish = [4, 4]
    result = game.result()
    assert result["ranks"] == [1, 1] and result["winners"] == [0, 1]
    game.boats = [Boat(empty), kit.boat("O", [("red", [[3 + i, 4]]) for i in range(3)])]
    result = game.result()
    assert result["ranks"] == [2, 1] and result["winners"] == [1]
