"""The greedy bot's placement evaluation: the deep stage reads the real score sheet."""

from __future__ import annotations

import random

import pytest

from engine.boat import COLOURS, HEIGHT, STRIDE, Boat, Tile, base_layouts
from engine.bots.greedy_eval import PlacementEval, SheetJudge
from engine.scoring import lesson_reads
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


def _random_boat(rng: random.Random, tiles: int) -> Boat:
    """A boat of ``tiles`` random tiles (cats, Oshax and treasures), each legally placed."""
    shapes = base_shapes()
    boat = Boat(base_layouts()[rng.choice(sorted(base_layouts()))])
    for _ in range(tiles):
        kind = rng.choice(("cat", "cat", "cat", "oshax", "common_treasure", "rare_treasure"))
        group = {"cat": shapes.cats, "oshax": shapes.oshax, "common_treasure":
                 shapes.common_treasures, "rare_treasure": shapes.rare_treasures}[kind]
        shape = rng.choice(group)
        masks = list(legal_placements(shape, boat.layout, boat.occupied))
        if masks:
            colour = rng.choice(COLOURS) if kind in ("cat", "oshax") else None
            boat.place(Tile(kind, colour, shape.key, rng.choice(masks)))
    return boat


@pytest.mark.parametrize("mode", ["standard", "solo"])
def test_sheet_delta_is_the_difference_of_the_whole_sheets(mode: str) -> None:
    """The deep stage scores each lesson once per different thing it reads: on random
    boats, every lesson card, every kind of tile and many masks, the change it gives is the
    difference of the two whole sheets (the same float)."""
    rng = random.Random(f"sheet-delta-{mode}")
    shapes = base_shapes()
    private = [c for c in range(113, 143) if c not in (113, 136)]  # those two below
    public = list(range(143, 151))
    for _ in range(40):
        boat = _random_boat(rng, rng.randrange(0, 60))  # some nearly full
        others = [_random_boat(rng, rng.randrange(0, 15)) for _ in range(3)]
        judge = SheetJudge(
            fish=rng.randrange(0, 12), baskets=rng.randrange(1, 4),
            private_lessons=tuple(rng.sample(private, rng.randrange(0, 8))
                                  + [136, 113][:rng.randrange(3)]),
            public_lessons=tuple((c, rng.choice(COLOURS) if c in (143, 144, 145, 146, 149)
                                  else None) for c in rng.sample(public, rng.randrange(0, 5))),
            others=others if mode == "standard" else [], mode=mode,
            sister_lessons=tuple(rng.sample(range(197, 216), 3)) if mode == "solo" else ())
        for kind, group in (("cat", shapes.cats), ("oshax", shapes.oshax),
                            ("common_treasure", shapes.common_treasures),
                            ("rare_treasure", shapes.rare_treasures)):
            shape = rng.choice(group)
            colour = rng.choice(COLOURS) if kind in ("cat", "oshax") else None
            masks = list(legal_placements(shape, boat.layout, boat.occupied))
            ev = PlacementEval(boat, colour, judge=judge, kind=kind, shape=shape.key,
                               rare=kind == "rare_treasure")
            before = judge.score(boat)
            rests = [r.mask & ~boat.occupied for r in boat.layout.rooms]
            filling = [m for m in masks if any(r and not r & ~m for r in rests)]
            for m in rng.sample(masks, min(len(masks), 40)) + filling:
                after = judge.score(ev.after_boat(m))
                assert ev.sheet_delta(m) == after - before


def test_sheet_delta_sees_a_tile_that_fills_rooms_or_the_edge() -> None:
    """Lessons 113 (the edge full) and 136 (both parrot rooms full) change only when one tile
    fills the last cells: a boat filled with one-cell treasures but for one cell of each."""
    shapes = base_shapes()
    for layout in base_layouts().values():
        parrots = layout.room("parrot_back").mask | layout.room("parrot_front").mask
        left = (parrots & -parrots) | (layout.edge_mask & ~parrots & -(layout.edge_mask & ~parrots))
        boat = Boat(layout)
        for i in range(STRIDE * HEIGHT):
            if (1 << i) & (parrots | layout.edge_mask) & ~left:
                boat.place(Tile("common_treasure", None, "monomino_1", 1 << i))
        judge = SheetJudge(private_lessons=(113, 136, 137, 140), public_lessons=((150, None),))
        for kind, colour, shape in (("common_treasure", None, "monomino_1"),
                                    ("cat", "red", shapes.cats[0].key)):
            ev = PlacementEval(boat, colour, judge=judge, kind=kind, shape=shape)
            before = judge.score(boat)
            masks = list(legal_placements(shapes.by_key(shape), layout, boat.occupied))
            assert any(m & left for m in masks)
            for m in masks:
                assert ev.sheet_delta(m) == judge.score(ev.after_boat(m)) - before


def test_top_function_is_the_sorted_quick_values() -> None:
    """The quick value has one definition, ``top``'s loop; ``quick`` is ``top`` of one mask.
    Over many masks the loop skips those whose bound is below the n-th best (the one-cell
    treasures check the holes they fill) and keeps the shaping term of those it keeps for
    the deep stage: the same floats, the same order, the same terms as mask by mask."""
    rng = random.Random("top-function")
    shapes = base_shapes()
    for _ in range(60):
        boat = _random_boat(rng, rng.randrange(0, 40))
        for kind, group in (("cat", shapes.cats), ("rare_treasure", shapes.rare_treasures),
                            ("common_treasure", shapes.common_treasures)):
            shape = rng.choice(group)
            colour = rng.choice(COLOURS) if kind == "cat" else None
            facts = {"rare": kind == "rare_treasure", "sister": rng.choice((0.0, 2.5)),
                     "kind": kind, "shape": shape.key}
            masks = list(legal_placements(shape, boat.layout, boat.occupied))
            one_by_one = PlacementEval(boat, colour, **facts)
            quick = one_by_one.quick_function()
            values = sorted(((quick(m), m) for m in masks), reverse=True)
            for n in (1, 3, 12):
                ev = PlacementEval(boat, colour, **facts)
                assert ev.top_function()(masks, n) == values[:n]
                for m, kept in ev._shapes.items():  # kept for the deep stage
                    assert kept == one_by_one.shaping(m)


def _words(card_id: int, layout, colour) -> set[str]:
    """The words of what lesson ``card_id`` reads of a boat (``scoring.lesson_reads``)."""
    reads = lesson_reads(card_id, layout, colour)
    if reads is None:
        return {"anything"}
    return {read if isinstance(read, str) else read[0] for read in reads} or {"nothing"}


def test_sheet_delta_of_each_lesson_alone_is_the_difference_of_the_whole_sheets() -> None:
    """``_AfterSheet`` works a placement's change of the sheet out from what each lesson
    reads. Its cases one by one: each lesson card alone (every private lesson, every public
    one in each colour it may name, and in solo every lesson of the sister), each kind of
    tile in turn, on an empty, a partly filled and an almost full boat: the change is the difference
    of the two whole sheets, and every kind of read a lesson makes is met."""
    rng = random.Random("sheet-delta-each-lesson")
    shapes = base_shapes()
    boats = [_random_boat(rng, 0), _random_boat(rng, 12), _random_boat(rng, 50)]
    judges = [SheetJudge(private_lessons=(c,)) for c in range(113, 143)]
    judges += [SheetJudge(public_lessons=((c, colour),)) for c in range(143, 151)
               for colour in (COLOURS if c in (143, 144, 145, 146, 149) else (None,))]
    judges += [SheetJudge(mode="solo", sister_lessons=(c,)) for c in range(197, 216)]
    tiles = (("cat", shapes.cats), ("oshax", shapes.oshax),
             ("common_treasure", shapes.common_treasures),
             ("rare_treasure", shapes.rare_treasures))
    met: set[str] = set()
    for j, judge in enumerate(judges):
        for boat in boats:
            for lesson, colour in (*((c, None) for c in judge.private_lessons),
                                   *judge.public_lessons):
                met |= _words(lesson, boat.layout, colour)
            before = judge.score(boat)
            for k, (kind, group) in enumerate(tiles):
                shape = group[(j + k) % len(group)]
                colour = COLOURS[(j + k) % len(COLOURS)] if kind in ("cat", "oshax") else None
                ev = PlacementEval(boat, colour, judge=judge, kind=kind, shape=shape.key,
                                   rare=kind == "rare_treasure")
                masks = list(legal_placements(shape, boat.layout, boat.occupied))
                for m in masks[::max(1, len(masks) // 12)]:
                    assert ev.sheet_delta(m) == judge.score(ev.after_boat(m)) - before, (
                        judge, kind, shape.key)
    assert met >= {"all_covered", "edge", "families", "covered_count", "none_covered",
                   "colour_contact", "tiles", "nothing"}, met
