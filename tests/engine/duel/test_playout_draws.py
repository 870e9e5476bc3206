"""The Duel playout's draws that are not made from the legal actions, each checked against
the legal actions and the rule path, case by case (``DuelGame.playout``, ``_play_cat``,
``_play_treasure``, ``_put_tile``).

``tests/engine/test_playout.py`` compares whole playouts at points of seeded games, which
reach a rule's rarer cases only by chance. Here the cases are built one by one: the Oshax's
steps from every space of the island, one step or two, jumping or not, with one target, many
or none; the act phase without fish with the selection used or not and each kind of
discovery (none, a card, a cat that fits, a cat that does not) on the touched spaces; every
cat's placement and every treasure's, by index, on boats empty, partly and almost full; and
the treasure supply in each of its sixteen states of shapes left. Each case's draw is the
rule path's (``legal_actions`` and ``apply_unchecked``): the same action, the same events,
the same state, the same decisions counted, the same use of the random generator.
"""

from __future__ import annotations

import itertools

import pytest

from engine.boat import Boat, Tile, iter_bits
from engine.modes.duel import DuelGame
from engine.modes.duel.game import (
    _PLAYS,
    ACT,
    CATS,
    END_TURN,
    ISLAND,
    MOVE,
    OVER,
    PHASE_KINDS,
    PLACE_CAT,
    PLACE_TREASURE,
    SELECTS,
    D,
    _put_tile,
)
from engine.rng import Rng
from engine.shapes import legal_placements

SPACES = range(1, 16)
CARD_SPACE = next(s for s in SPACES if ISLAND.kinds[s] == "card")
CAT_SPACES = [s for s in SPACES if ISLAND.kinds[s] == "cat"]


def _rule_path(game: DuelGame, rng: Rng) -> None:
    """``Game.playout``'s loop: the first pending seat plays ``legal[randbelow(len)]``."""
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        game.apply_unchecked(seat, legal[rng.randbelow(len(legal))])


def _same_playouts(game: DuelGame, case: object, seeds: int = 2) -> None:
    """The playout from ``game`` and the rule path's loop make the same game."""
    for seed in range(seeds):
        fast, slow = game.clone(), game.clone()
        fast_rng, slow_rng = Rng(seed, "test:draws"), Rng(seed, "test:draws")
        fast_error = slow_error = None
        try:
            fast.playout(fast_rng)
        except ValueError as exc:  # a bound of 0 (no target): the loop raises too
            fast_error = str(exc)
        try:
            _rule_path(slow, slow_rng)
        except ValueError as exc:
            slow_error = str(exc)
        assert fast_error == slow_error, case
        assert fast.history == slow.history, case
        assert fast.seat_steps == slow.seat_steps, case
        assert fast.events == slow.events, case
        assert fast.state_hash() == slow.state_hash(), case
        assert fast_rng.getstate() == slow_rng.getstate(), case


def _played(seed: int = 3) -> list[DuelGame]:
    """States of a seeded random game, one after each of its placements."""
    game = DuelGame(2, seed)
    rng = Rng(seed, "test:draws-game")
    out = []
    while not game.is_over():
        seat = game.pending()[0]
        legal = game.legal_actions(seat)
        action = legal[rng.randbelow(len(legal))]
        game.apply_unchecked(seat, action)
        if action[0] == "place":
            out.append(game.clone())
    return out


def _almost_full(layout_name: str, holes: int) -> Boat:
    """A boat covered with one-cell treasures but for the cells of ``holes``."""
    layout = D.layouts[layout_name]
    boat = Boat(layout)
    for i, cell in enumerate(iter_bits(layout.cells_mask & ~holes)):
        boat.place(Tile("common_treasure", None, "monomino_1", 1 << cell, 5000 + i))
    return boat


def _holes(layout_name: str) -> int:
    """Two free cells side by side and one alone: a monomino or a domino fits, no tromino
    and no cat does."""
    cells = list(iter_bits(D.layouts[layout_name].cells_mask))
    pair = next(c for c in cells if c + 1 in cells)
    alone = next(c for c in cells if abs(c - pair) > 30)
    return 1 << pair | 1 << pair + 1 | 1 << alone


def _boats(seat_boat: Boat) -> dict[str, Boat]:
    """The boats a placement is tried on: empty, partly filled (a seeded game's), almost
    full."""
    name = seat_boat.layout.name
    return {"empty": Boat(seat_boat.layout), "partly": seat_boat,
            "almost full": _almost_full(name, _holes(name))}


def _with_boat(game: DuelGame, seat: int, boat: Boat) -> DuelGame:
    twin = game.clone()
    twin.boats[seat] = Boat(boat.layout, boat.tiles[:], boat.occupied, dict(boat.colour_masks))
    return twin


def test_every_phase_that_asks_a_decision_is_drawn_by_the_playout() -> None:
    assert set(_PLAYS) | {MOVE, ACT, PLACE_CAT} == set(PHASE_KINDS)
    assert OVER not in _PLAYS


def _move_cases() -> list[tuple[int, int, int, bool]]:
    """(Oshax space, touched spaces, steps due, jumping) from every space: a turn's first
    step (two due), a step after one (one due) from each neighbour, a bought jump, and a
    bought step with every neighbour touched (no target: the playout and the loop raise)."""
    cases = []
    for at in SPACES:
        near = ISLAND.neighbours[at]
        cases.append((at, 1 << at, 2, False))
        for came_from in iter_bits(near):
            cases.append((at, 1 << at | 1 << came_from, 1, False))
        cases.append((at, 1 << at | near, 1, True))
        cases.append((at, 1 << at | near, 1, False))
    return cases


@pytest.mark.parametrize("case", _move_cases(), ids=lambda c: f"at{c[0]}-{c[2]}-{c[3]}")
def test_the_oshax_steps_are_the_move_lists_and_moves(kit, case) -> None:
    at, touched, steps, jumping = case
    game = kit.game(seed=4)
    assert game.phase == MOVE
    game.oshax, game.touched, game.steps, game.jumping = at, touched, steps, jumping
    targets = ISLAND.targets(at, touched, jumping)
    assert len(game.legal_actions(game.current)) == targets.bit_count()
    _same_playouts(game, case)


def _act_cases(kit) -> list[tuple[object, DuelGame]]:
    """The act phase without fish: the selection used or not, the touched spaces holding
    nothing, a card, a cat that fits and a cat that does not (an almost full boat), alone
    and together."""
    base = kit.game(seed=6)
    seat = base.current
    card = next(iter(D.cards))
    cat_space = next(s for s in CAT_SPACES if s != base.oshax)
    cases = []
    for selected, full, items in itertools.product(
            (False, True), (False, True), ((), ("card",), ("cat",), ("card", "cat"))):
        game = base.clone()
        game.phase = ACT
        game.steps = 0
        game.fish[seat] = 0
        game.selected = selected
        contents = {}
        if "card" in items:
            contents[CARD_SPACE] = card
        if "cat" in items:
            contents[cat_space] = game.bag[0]
        kit.set_island(game, contents)
        game.touched = 1 << game.oshax | sum(1 << s for s in contents)
        if full:
            name = game.layout_names[seat]
            game.boats[seat] = _almost_full(name, _holes(name))
        cases.append(((selected, full, items), game))
    return cases


def test_the_act_phase_without_fish_is_its_selections_then_end_turn(kit) -> None:
    """The playout counts these choices instead of listing them: the list is exactly the
    selections (none once the selection is used), then ``end_turn``."""
    kinds = set()
    for case, game in _act_cases(kit):
        seat = game.current
        spaces = [] if game.selected else game._selectable(seat)
        legal = game.legal_actions(seat)
        assert list(legal) == [*(SELECTS[s] for s in spaces), END_TURN], case
        kinds.add(len(legal))
        _same_playouts(game, case)
    assert kinds == {1, 2, 3}  # nothing to select, one discovery, two


def test_every_cat_placement_drawn_by_index_is_the_listed_one() -> None:
    """Every cat on an empty, a partly filled and an almost full boat (where it has no
    placement); on the first two boats its placements by index (a spread of them, the
    first and the last included), each drawn as the playout draws it and applied, against
    the legal action of that index applied by the rule path."""
    base = _played()[4]
    drawn = 0
    for tile in range(len(CATS)):
        for name, boat in _boats(base.boats[base.current]).items():
            game = _with_boat(base, base.current, boat)
            game.phase, game.placing, game.treasures_due = PLACE_CAT, tile, 0
            seat = game.current
            legal = game.legal_actions(seat)
            n = len(legal)
            assert n == len(legal_placements(CATS[tile].shape, boat.layout, boat.occupied))
            if name == "almost full":
                assert n == 0
                continue
            for i in sorted({0, n - 1, *range(0, n, max(1, n // 7))}):
                drawn += _same_draw(game, game._play_cat, legal, i, (tile, name, i))
    assert drawn > 45 * 2 * 4


def _same_draw(game: DuelGame, play_of, legal, i: int, case: object) -> int:
    """``play_of`` (a ``_play_*`` method of ``game``) on a twin, its draw forced to ``i``,
    against ``legal[i]`` applied by the rule path to another twin."""
    fast, slow = game.clone(), game.clone()
    asked = []

    def randbelow(n: int) -> int:
        asked.append(n)
        return i

    getattr(fast, play_of.__name__)(randbelow)
    seat = game.current
    slow.apply_unchecked(seat, legal[i])
    assert asked == ([len(legal)] if len(legal) > 1 else []), case
    assert fast.history[-1] == (seat, legal[i]), case
    assert fast.seat_steps == slow.seat_steps, case
    assert fast.events == slow.events, case
    assert fast.state_hash() == slow.state_hash(), case
    return 1


def test_every_treasure_placement_and_decline_drawn_by_index_is_the_listed_one() -> None:
    """The treasure supply in each of its states (each shape left or not), on an empty, a
    partly filled and an almost full boat (where only the monomino and the domino fit): the
    placements of every shape left, by index, and ``decline``."""
    base = _played()[6]
    keys = [s.key for s in D.treasure_shapes]
    declined = placed = 0
    for left in itertools.product((False, True), repeat=len(keys)):
        for name, boat in _boats(base.boats[base.current]).items():
            game = _with_boat(base, base.current, boat)
            game.phase, game.placing, game.treasures_due = PLACE_TREASURE, None, 1
            for key, keep in zip(keys, left, strict=True):
                if not keep:
                    game.supply[key] = []
            legal = game.legal_actions(game.current)
            n = len(legal)
            for i in sorted({0, n - 1, *range(0, n, max(1, n // 9))}):
                _same_draw(game, game._play_treasure, legal, i, (left, name, i))
                if legal[i][0] == "decline":
                    declined += 1
                else:
                    placed += 1
    assert declined == 16 * 3 and placed > 16 * 3


def test_put_tile_is_boat_place() -> None:
    """Every cat (in its colour) and every treasure shape at its first legal placement on
    an empty and a partly filled boat: the same tiles, cells and colours as ``Boat.place``."""
    base = _played()[4]
    tiles = [("cat", c.colour, c.shape, c.id) for c in CATS]
    tiles += [("common_treasure", None, s, 900 + i) for i, s in enumerate(D.treasure_shapes)]
    for kind, colour, shape, tile_id in tiles:
        for name, boat in _boats(base.boats[base.current]).items():
            masks = list(legal_placements(shape, boat.layout, boat.occupied))
            if not masks:
                continue
            ours = Boat(boat.layout, boat.tiles[:], boat.occupied, dict(boat.colour_masks))
            theirs = Boat(boat.layout, boat.tiles[:], boat.occupied, dict(boat.colour_masks))
            _put_tile(ours, kind, colour, shape.key, masks[-1], tile_id)
            theirs.place(Tile(kind, colour, shape.key, masks[-1], tile_id))
            assert ours == theirs, (kind, shape.key, name)
