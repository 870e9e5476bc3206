"""Shared helpers of the standard-mode tests: scenario builders and the invariant check.

Scenarios start a real game, edit its plain-data state (hands, fish, fields, boats) and
jump the flow to the step under test; from there the game runs by its own rules.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from engine import Action, new_game
from engine.boat import Tile, mask_of
from engine.modes.standard import StandardGame, Step
from engine.modes.standard.fields import FieldCat
from engine.modes.standard.state import ANYTIME_IDS, CAT
from engine.rng import Rng

Chooser = Callable[[StandardGame, int, Sequence[Action]], Action]


def game(seats: int = 2, seed: int = 1) -> StandardGame:
    g = new_game("standard", seats, seed)
    assert isinstance(g, StandardGame)
    return g


def jump(g: StandardGame, step: Step) -> None:
    """Abandon whatever is pending and start ``step`` of the current day."""
    g.frames.clear()
    g.state_changed()
    g.step = step
    g.run_step(step)
    g._advance()


def _take_tile(g: StandardGame, tile: int) -> None:
    """Remove a tile from the bag or the supply so it can be put elsewhere."""
    state = g.state
    if tile in state.bag:
        state.bag.remove(tile)
    elif tile in state.supply.rare:
        state.supply.rare.remove(tile)
    elif tile in state.supply.oshax:
        state.supply.oshax.remove(tile)
    else:
        for ids in state.supply.common.values():
            if tile in ids:
                ids.remove(tile)
                return
        raise AssertionError(f"tile {tile} is not in the bag or the supply")


def cat(g: StandardGame, colour: str, shape: str) -> int:
    return next(t.id for t in g.state.tiles
                if t.kind == CAT and t.colour == colour and t.shape == shape)


def tiles_of(g: StandardGame, kind: str, shape: str | None = None) -> list[int]:
    return [t.id for t in g.state.tiles if t.kind == kind and (shape is None or t.shape == shape)]


def set_fields(g: StandardGame, left: Sequence[int] = (), right: Sequence[int] = ()) -> None:
    """Empty the fields (their cats go back to the bag) and lay these cats there."""
    state = g.state
    for c in state.fields.cats:
        state.bag.append(c.tile)
    state.fields.cats.clear()
    for side, tiles in (("left", left), ("right", right)):
        for t in tiles:
            _take_tile(g, t)
            state.fields.cats.append(FieldCat(t, side))


def put_on_boat(g: StandardGame, seat: int, tile: int, cells: Iterable[Sequence[int]],
                colour: str | None = None) -> None:
    info = g.state.tiles[tile]
    _take_tile(g, tile)
    g.state.players[seat].boat.place(
        Tile(info.kind, colour or info.colour, info.shape, mask_of(cells), tile))


def give(g: StandardGame, seat: int, *cards: int) -> None:
    """Move cards from wherever they are into a hand."""
    state = g.state
    for c in cards:
        _pull_card(g, c)
        state.players[seat].add_card(c)


def to_pile(g: StandardGame, seat: int, pile: str, *cards: int) -> None:
    """Move cards from wherever they are into one of a seat's piles (``kept``, ...)."""
    for c in cards:
        _pull_card(g, c)
        getattr(g.state.players[seat], pile).append(c)
    g.state_changed()


def _pull_card(g: StandardGame, c: int) -> None:
    state = g.state
    for pile in (state.deck, state.discard, state.played):
        if c in pile:
            pile.remove(c)
            return
    for p in state.players:
        for name in ("draft_pile", "kept", "drawn", "private_lessons", "chosen_rescue",
                     "revealed_rescue"):
            pile = getattr(p, name)
            if c in pile:
                pile.remove(c)
                return
        if c in p.hand:
            p.remove_card(c)
            return
    raise AssertionError(f"card {c} not found")


def empty_hands(g: StandardGame) -> None:
    """Send every card in hands back to the discard pile."""
    for p in g.state.players:
        for c in list(p.hand):
            p.remove_card(c)
            g.state.discard.append(c)
    assert all(p.anytime_count == 0 for p in g.state.players)


def act(g: StandardGame, seat: int, kind: str, *fields: object) -> None:
    """Apply through the checked path (as a bot would), after any hand edit of the state."""
    g.state_changed()
    g.apply(seat, Action(kind, *fields))


def kinds(g: StandardGame, seat: int) -> set[str]:
    g.state_changed()
    return {a.kind for a in g.legal_actions(seat)}


def check_invariants(g: StandardGame) -> None:
    """No overlap; every tile and every card in exactly one place; fish never negative;
    every pending seat has a legal action."""
    state = g.state
    for p in state.players:
        assert p.fish >= 0, f"seat {p.seat} has {p.fish} fish"
        cells = 0
        for t in p.boat.tiles:
            assert not cells & t.mask, "two tiles overlap"
            assert not t.mask & ~p.boat.layout.cells_mask, "a tile leaves the boat"
            cells |= t.mask
        assert cells == p.boat.occupied
        assert p.anytime_count == sum(1 for c in p.hand if c in ANYTIME_IDS)
        assert 0 <= p.baskets_used <= p.baskets
    tiles = state.tile_locations()  # raises on a duplicate
    assert sorted(tiles) == list(range(len(state.tiles))), "a tile is lost"
    cards = state.card_locations()
    assert sorted(cards) == list(range(1, 151)), "a card is lost"
    for seat in g.pending():
        assert len(g.legal_actions(seat)) > 0


def play_out(g: StandardGame, choose: Chooser, check: bool = False) -> None:
    """Play to the end, ``choose(game, seat, legal) -> Action`` deciding every move."""
    while not g.is_over():
        seat = g.pending()[0]
        g.apply_unchecked(seat, choose(g, seat, g.legal_actions(seat)))
        if check:
            check_invariants(g)


def first(g: StandardGame, seat: int, legal: Sequence[Action]) -> Action:
    return legal[0]


def passive(g: StandardGame, seat: int, legal: Sequence[Action]) -> Action:
    """Never spends anything: done / pass / decline when possible, else the first action."""
    for kind in ("done", "pass", "decline"):
        for a in legal:
            if a.kind == kind:
                return a
    return legal[0]


def run_until(g: StandardGame, step: Step, choose: Chooser = passive,
              day: int | None = None) -> None:
    """Play with ``choose`` until the game waits in ``step`` (of ``day``, if given)."""
    while not (g.step is step and (day is None or g.state.day == day)) and not g.is_over():
        seat = g.pending()[0]
        g.apply_unchecked(seat, choose(g, seat, g.legal_actions(seat)))
    assert g.step is step


def rescue_turn(g: StandardGame, left: Sequence[int] = (), right: Sequence[int] = ()) -> int:
    """Empty every hand, lay these cats in the fields and start the rescue phase; returns
    the seat whose turn it is."""
    empty_hands(g)
    set_fields(g, left, right)
    jump(g, Step.RESCUE)
    return g.pending()[0]


def rare_finds_turn(g: StandardGame, seat_cards: Sequence[int] = ()) -> int:
    """Empty every hand, give the first seat in turn order these cards and start rare finds;
    returns that seat."""
    empty_hands(g)
    seat = g.state.turn_order[0]
    give(g, seat, *seat_cards)
    jump(g, Step.RARE_FINDS)
    assert g.pending() == (seat,)
    return seat


def placement_covering(g: StandardGame, seat: int, shape: str, cell_mask: int) -> int:
    """A legal placement of ``shape`` on ``seat``'s boat that covers ``cell_mask``."""
    from engine.modes.standard.placement import placements_for

    for m in placements_for(g.state.players[seat], shape):
        if m & cell_mask:
            return m
    raise AssertionError("no such placement")


def placement_avoiding(g: StandardGame, seat: int, shape: str, cell_mask: int) -> int:
    from engine.modes.standard.placement import placements_for

    for m in placements_for(g.state.players[seat], shape):
        if not m & cell_mask:
            return m
    raise AssertionError("no such placement")


def put_tile(g: StandardGame, seat: int, tile: int, colour: str | None = None) -> int:
    """Put a tile from the bag or supply on the boat at its first free spot; returns the mask."""
    from engine.shapes import base_shapes, legal_placements

    boat = g.state.players[seat].boat
    info = g.state.tiles[tile]
    mask = legal_placements(base_shapes().by_key(info.shape), boat.layout, boat.occupied,
                            anywhere=True)[0]
    _take_tile(g, tile)
    boat.place(Tile(info.kind, colour or info.colour, info.shape, mask, tile))
    g.state_changed()
    return mask


def choose_and_reveal(g: StandardGame, choices: dict[int, Sequence[int]]) -> None:
    """Empty the hands, give each seat these rescue cards, choose them all and reveal."""
    empty_hands(g)
    for seat, cards in choices.items():
        give(g, seat, *cards)
    jump(g, Step.CHOOSE)
    for seat, cards in choices.items():
        for c in cards:
            act(g, seat, "choose_rescue", c)
        if g.step is Step.CHOOSE and seat in g.pending():  # else it chose all it holds
            act(g, seat, "done")


HIDDEN_PILES = ("hand", "draft_pile", "kept", "drawn", "private_lessons", "chosen_rescue",
                "bought_now")


def twin_with_other_secrets(g: StandardGame, seat: int, rng: Rng) -> StandardGame:
    """A copy of ``g`` in which everything ``seat`` may not know is different."""
    twin = copy.deepcopy(g)
    state = twin.state
    for p in state.players:
        if p.seat == seat:
            continue
        for name in HIDDEN_PILES:
            pile = getattr(p, name)
            for i, c in enumerate(pile):
                if not state.deck:
                    break
                j = rng.randbelow(len(state.deck))
                pile[i], state.deck[j] = state.deck[j], c
    rng.shuffle(state.deck)
    rng.shuffle(state.bag)
    twin.state_changed()
    return twin


def hidden_parts(g: StandardGame, seat: int) -> dict[str, Any]:
    """What ``seat`` cannot see of ``g``, which a forward model samples afresh
    (tests/engine/forward_contract.py): the bag's and the deck's order and the other seats'
    hidden piles. Family games have them too."""
    others = [p for p in g.state.players if p.seat != seat]
    return {"bag": list(g.state.bag), "deck": list(g.state.deck),
            "other seats' cards": [[sorted(getattr(p, name)) for name in HIDDEN_PILES]
                                   for p in others]}
