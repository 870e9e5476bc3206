"""``engine.copies``: clones whose attributes CPython 3.11 reads at full speed.

3.11 reads an instance's attributes quickly while they are "inline values", and slowly once
the instance has a split ``__dict__`` (which ``obj.__dict__``, ``copy.copy`` and
``__dict__.update`` give it): a random playout on such a clone ran 9% more instructions
(docs/performance.md, "Clones and CPython 3.11's inline values"). Whether an instance holds a
dict is seen without making one: the garbage collector's referents of an instance with inline
values are its values; of an instance with a dict, the dict.
"""

from __future__ import annotations

import gc
import sys

import pytest

from engine import new_game
from engine.boat import Tile
from engine.copies import twin_of, with_fields
from engine.rng import Rng

ONLY_311 = pytest.mark.skipif(sys.version_info[:2] != (3, 11),
                              reason="inline values as CPython 3.11 keeps them")


def _holds_dict(obj: object, name: str) -> bool:
    """Whether ``obj`` keeps its attributes in a dict (one holding the attribute ``name``)."""
    return any(type(r) is dict and name in r for r in gc.get_referents(obj))


class _Thing:
    def __init__(self) -> None:
        self.number = 3
        self.items = [1, 2]
        self.pairs = [[1], [2]]
        self.table = {"a": 1}


def test_a_twin_shares_the_values_and_copy_lists_copies_lists_one_level_deep():
    thing = _Thing()
    twin = twin_of(thing)
    assert type(twin) is _Thing
    assert (twin.number, twin.items, twin.pairs, twin.table) == (3, [1, 2], [[1], [2]], {"a": 1})
    assert twin.items is thing.items and twin.table is thing.table
    copied = twin_of(thing, copy_lists=True)
    assert copied.items == thing.items and copied.items is not thing.items
    assert copied.pairs[0] is thing.pairs[0]  # one level deep
    assert copied.table is thing.table  # only lists
    copied.items.append(3)
    assert thing.items == [1, 2]


def test_with_fields_makes_a_frozen_tile_equal_to_one_made_by_its_init():
    made = with_fields(Tile, kind="cat", colour="red", shape="cat_01", mask=0b111, tile_id=7)
    assert made == Tile("cat", "red", "cat_01", 0b111, 7)
    assert Tile.quick("cat", "red", "cat_01", 0b111, 7) == made
    assert made.xy == ((0, 0), (1, 0), (2, 0))
    assert made.xy is made.xy  # kept
    assert made.json_part is made.json_part
    with pytest.raises(AttributeError):
        made.mask = 1  # still frozen


@ONLY_311
@pytest.mark.ci_required  # CI runs CPython 3.11, the interpreter these figures are for
def test_a_fresh_instance_holds_no_dict_until_its_dict_is_read():
    thing = _Thing()
    assert not _holds_dict(thing, "number")
    assert not _holds_dict(twin_of(thing), "number")
    assert thing.__dict__["number"] == 3
    assert _holds_dict(thing, "number")  # the check sees a dict when there is one


@ONLY_311
@pytest.mark.ci_required  # CI runs CPython 3.11, the interpreter these figures are for
@pytest.mark.parametrize("mode", ["standard", "family", "solo"])
def test_a_clone_of_a_standard_game_keeps_inline_values_through_a_playout(mode):
    seats, options = {"standard": (4, {}), "family": (3, {}),
                      "solo": (1, {"difficulty": "expert"})}[mode]
    game = new_game(mode, seats, 5, options)
    rng = Rng(5, "test:copies")
    for _ in range(60):  # into the game, with frames of several kinds on the stack
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])
    twin = game.clone()
    state = twin.state
    assert not _holds_dict(twin, "state")
    assert not _holds_dict(state, "players")
    assert not _holds_dict(state.fields, "cats")
    assert not _holds_dict(state.supply, "oshax")
    for p in state.players:
        assert not _holds_dict(p, "hand")
        assert not _holds_dict(p.boat, "occupied")
    for frame in twin.frames:
        assert not _holds_dict(frame, "done"), type(frame).__name__
    twin.playout(rng)  # and nothing in a playout reads their dicts
    assert twin.is_over()
    assert not _holds_dict(twin, "state")
    assert not any(_holds_dict(p, "hand") or _holds_dict(p.boat, "occupied")
                   for p in twin.state.players)
