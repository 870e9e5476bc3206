"""The greedy bot's placement evaluation: the deep stage reads the real score sheet."""

from __future__ import annotations

from engine.boat import Boat, base_layouts
from engine.bots.greedy_eval import PlacementEval, SheetJudge
from engine.shapes import base_shapes, legal_placements


def _boat() -> Boat:
    layout = base_layouts()["blue"]
    rows = ["", ""] + ["       a..b"] * 5
    return Boat.from_text(layout, "\n".join(rows),
                          legend={"a": ("cat", "red"), "b": ("cat", "red")})


def test_deep_value_counts_the_family_the_sheet_scores() -> None:
    boat = _boat()
    shape = base_shapes().by_key("cat_15")
    placements = legal_placements(shape, boat.layout, boat.occupied)
    ev = PlacementEval(boat, "red", judge=SheetJudge(), kind="cat", shape="cat_15")
    value, best = ev.best(placements)
    assert ev.sheet_delta(best) >= 8  # the three red tiles become a family of 3
    assert value >= 8


def test_private_lessons_count_for_the_player() -> None:
    """Lesson 125 pays 2 per visible rat: with it, covering rats is worth less."""
    boat = _boat()
    plain = PlacementEval(boat, "red", judge=SheetJudge(), kind="cat", shape="cat_15")
    lesson = PlacementEval(boat, "red", judge=SheetJudge(private_lessons=(125,)),
                           kind="cat", shape="cat_15")
    rats = boat.layout.rats_mask & ~boat.occupied
    shape = base_shapes().by_key("cat_15")
    covering = next(m for m in legal_placements(shape, boat.layout, boat.occupied) if m & rats)
    covered = (covering & rats).bit_count()
    assert lesson.sheet_delta(covering) - plain.sheet_delta(covering) == -2 * covered


def test_sister_lessons_count_against_the_player() -> None:
    """Solo lesson 201 gives the sister 5 per visible rat on the player's boat."""
    boat = _boat()
    rats = boat.layout.rats_mask & ~boat.occupied
    shape = base_shapes().by_key("cat_15")
    covering = next(m for m in legal_placements(shape, boat.layout, boat.occupied) if m & rats)
    plain = PlacementEval(boat, "red", judge=SheetJudge(mode="solo"), kind="cat",
                          shape="cat_15")
    sister = PlacementEval(boat, "red", judge=SheetJudge(mode="solo", sister_lessons=(201,)),
                           kind="cat", shape="cat_15")
    covered = (covering & rats).bit_count()
    assert sister.sheet_delta(covering) - plain.sheet_delta(covering) == 5 * covered


def test_small_pockets_are_penalised() -> None:
    boat = _boat()
    ev = PlacementEval(boat, "red")
    free = ev.free
    # a placement that leaves exactly one free cell boxed in scores a pocket penalty
    shape = base_shapes().by_key("cat_15")
    penalties = [ev.pockets(m) for m in legal_placements(shape, boat.layout, boat.occupied)]
    assert min(penalties) == 0.0
    assert max(penalties) > 0.0
    assert free == ev.free  # evaluating never changes the boat
