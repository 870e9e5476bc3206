"""Placement rules inside the game: the first tile anywhere, later tiles touching, the
place-anywhere effect used up by exactly one placement, overlap and fit checks."""

from __future__ import annotations

import pytest

from engine import IllegalAction
from engine.boat import mask_of, neighbours
from engine.shapes import base_shapes, legal_placements

from .helpers import act, cat, game, give, put_on_boat, rescue_turn, tiles_of


def test_the_first_tile_may_go_anywhere_on_an_empty_boat() -> None:
    g = game()
    red = cat(g, "red", "cat_04")
    seat = rescue_turn(g, left=[red])
    act(g, seat, "rescue", "left", 0, "permanent")
    boat = g.state.players[seat].boat
    legal = g.legal_actions(seat)
    everywhere = legal_placements(base_shapes().by_key("cat_04"), boat.layout, 0, anywhere=True)
    assert len(legal) == len(everywhere) > 500
    far = list(everywhere)[-1]
    act(g, seat, "place", far)
    assert boat.occupied == far


def test_later_tiles_must_touch_a_tile_on_the_boat() -> None:
    g = game()
    red, blue = cat(g, "red", "cat_04"), cat(g, "blue", "cat_10")
    seat = rescue_turn(g, left=[red, blue])
    put_on_boat(g, seat, tiles_of(g, "common_treasure", "monomino_1")[0], [[10, 4]])
    act(g, seat, "rescue", "left", 0, "permanent")
    boat = g.state.players[seat].boat
    for a in g.legal_actions(seat):
        assert neighbours(a[1]) & boat.occupied, "every legal placement touches"
    far = next(m for m in legal_placements(base_shapes().by_key("cat_04"), boat.layout,
                                          boat.occupied, anywhere=True)
               if not neighbours(m) & boat.occupied)
    with pytest.raises(IllegalAction, match="must touch"):
        act(g, seat, "place", far)
    with pytest.raises(IllegalAction, match="overlap"):
        act(g, seat, "place", next(m for m in legal_placements(
            base_shapes().by_key("cat_04"), boat.layout, 0) if m & mask_of([[10, 4]])))
    with pytest.raises(IllegalAction, match="not a rotation or reflection"):
        act(g, seat, "place", mask_of([[11, 4]]))


def test_place_anywhere_covers_exactly_the_next_placement() -> None:
    g = game()
    red, blue = cat(g, "red", "cat_04"), cat(g, "blue", "cat_10")
    seat = rescue_turn(g, left=[red, blue])
    give(g, seat, 69)
    put_on_boat(g, seat, tiles_of(g, "common_treasure", "monomino_1")[0], [[10, 4]])
    me = g.state.players[seat]
    act(g, seat, "play", 69)
    assert me.anywhere
    act(g, seat, "rescue", "left", 0, "permanent")
    far = next(a[1] for a in g.legal_actions(seat) if not neighbours(a[1]) & me.boat.occupied)
    act(g, seat, "place", far)
    assert not me.anywhere, "the effect is used up by one placement"
    # The next tile must touch again.
    me.baskets += 1
    while seat not in g.pending():
        other = g.pending()[0]
        act(g, other, "pass")
    act(g, seat, "rescue", "left", 0, "permanent")
    assert all(neighbours(a[1]) & me.boat.occupied for a in g.legal_actions(seat))


def test_only_cats_that_fit_somewhere_may_be_rescued() -> None:
    g = game()
    big, small = cat(g, "red", "cat_03"), cat(g, "red", "cat_15")  # 6 and 4 squares
    seat = rescue_turn(g, left=[big, small])
    boat = g.state.players[seat].boat
    # Fill the boat except for a hole shaped like cat_15: only that cat can still go on it.
    hole = next(iter(legal_placements(base_shapes().by_key("cat_15"), boat.layout, 0)))
    from engine.boat import Tile

    boat.place(Tile("common_treasure", None, "custom", boat.layout.cells_mask & ~hole, -1))
    g.state_changed()
    legal = g.legal_actions(seat)
    assert {a[2] for a in legal if a.kind == "rescue"} == {1}
    with pytest.raises(IllegalAction, match="does not fit anywhere"):
        act(g, seat, "rescue", "left", 0, "permanent")
    act(g, seat, "rescue", "left", 1, "permanent")
    assert [a[1] for a in g.legal_actions(seat)] == [hole]
