"""Playout policies and candidate lists for the search bot (engine/bots/search.py).

A playout is played by a cheaper greedy for every seat: the Duel's greedy looking at a
spread of at most ``SPREAD`` placements per tile instead of all of them (placement
generation and scoring are most of a playout's time); the standard game's greedy giving
the deep evaluation to ``SHORTLIST`` placements of a tile instead of twelve, valuing every
cat of a rescue turn that way, and sharing its answers between playouts; the other modes'
greedy as it is.
Outside the Duel a playout stops after ``horizon`` decisions and is scored on the score
sheets as they stand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action
from ..cards import base_cards
from ..game import Game
from ..shapes import legal_placements
from .greedy import greedy_bot
from .greedy_buy import Baskets, best_plan
from .greedy_duel import GreedyDuelBot, colour_families, placement_value
from .greedy_standard import FISH_WEIGHT, GreedyStandardBot

SPREAD = 12  # placements a playout's Duel greedy scores per tile


def _spread(masks: Sequence[int], n: int) -> list[int]:
    if len(masks) <= n:
        return list(masks)
    step = len(masks) / n
    return [masks[int(i * step)] for i in range(n)]


_SHARED: dict[Any, tuple[float, int]] = {}  # (layout, tile or shapes, occupied) -> best
_SHARED_LIMIT = 200_000


class CheapDuelGreedy(GreedyDuelBot):
    """Greedy's Duel heuristic on a spread of each tile's placements, its answers kept for
    every playout of the process (a boat's state recurs from one playout to the next)."""

    def __init__(self, seat: int, seed: int) -> None:
        super().__init__(seat, seed)
        if len(_SHARED) > _SHARED_LIMIT:
            _SHARED.clear()
        self._cat_cache = _SHARED  # type: ignore[assignment]
        self._treasure_cache = _SHARED  # type: ignore[assignment]

    def _best_cat(self, boat: Any, tile_id: int, cats: Any) -> tuple[float, int]:
        key = (boat.layout.name, tile_id, boat.occupied)
        found = self._cat_cache.get(key)
        if found is None:
            cat = cats[tile_id]
            fams = colour_families(boat, cat.colour)
            best, best_mask = -1e9, 0
            masks = list(legal_placements(cat.shape, boat.layout, boat.occupied))
            for mask in _spread(masks, SPREAD):
                v = placement_value(boat, mask, cat.colour, fams)
                if v > best:
                    best, best_mask = v, mask
            found = self._cat_cache[key] = (best, best_mask)
        return found

    def _card_value(self, game: Any, seat: int, card_id: int) -> float:
        boats = game.boats
        key = ("card", card_id, seat, game.day, game.fish[seat] if card_id else 0,
               tuple((len(b.tiles), b.occupied, *b.colour_masks.values()) for b in boats))
        found = _SHARED.get(key)
        if found is None:
            found = _SHARED[key] = (super()._card_value(game, seat, card_id), 0)
        return found[0]

    def _best_treasure(self, game: Any, boat: Any) -> tuple[float, int]:
        shapes = game.treasure_shapes_left()
        key = (boat.layout.name, tuple(s.key for s in shapes), boat.occupied)
        found = self._treasure_cache.get(key)
        if found is None:
            best, best_mask = -1e9, 0
            for shape in shapes:
                masks = list(legal_placements(shape, boat.layout, boat.occupied))
                for mask in _spread(masks, SPREAD // 2):
                    v = placement_value(boat, mask, None)
                    if v > best:
                        best, best_mask = v, mask
            found = self._treasure_cache[key] = (best, best_mask)
        return found


SHORTLIST = 3  # placements a playout's standard greedy gives the deep evaluation (greedy: 12)
_SHARED_STANDARD: dict[Any, tuple[float, int]] = {}  # ``GreedyStandardBot._best_key`` -> best
_BASKET_ORDER = {"permanent": 0, "full": 1, "half": 2}


class CheapStandardGreedy(GreedyStandardBot):
    """The standard game's greedy, lighter for playouts: a tile's best placement is the best
    by deep value of its ``SHORTLIST`` best by quick value; a rescue turn takes the cat whose
    placement so found is worth most for its price (greedy shortlists every cat, then gives
    four of them the full deep evaluation); and the answers are kept for every playout of the
    process, keyed by all they depend on: from one candidate's playout to the next, and from
    one round to the next, most boats at the table recur."""

    def _best_placement(self, game: Game, colour: str | None, shape: str, kind: str,
                        placements: Any) -> tuple[float, int]:
        key = self._best_key(game, colour, shape, kind)
        found = _SHARED_STANDARD.get(key)
        if found is None:
            if len(_SHARED_STANDARD) > _SHARED_LIMIT:
                _SHARED_STANDARD.clear()
            ev = self._eval(game, colour, shape, kind)
            top = ev.top_function()(placements, SHORTLIST)
            found = _SHARED_STANDARD[key] = ev.refine(top)
        return found

    def _best_buy(self, game: Game, me: Any, buys: list[Action]) -> Action | None:
        """Greedy's shopping plan, each card valued once (not once per plan it is in)."""
        cards = base_cards()
        held = [cards[c] for c in me.hand if cards[c].family == "rescue"]
        baskets = Baskets(me.baskets, sum(1 for c in held if c.basket == "full"),
                          sum(1 for c in held if c.basket == "half"))
        values: dict[int, float] = {}

        def value(card_id: int) -> float:
            found = values.get(card_id)
            if found is None:
                found = values[card_id] = self._plan_value(game, card_id)
            return found

        last = game.state.day >= game.rules.days  # type: ignore[attr-defined]
        plan = best_plan([a[1] for a in buys], me.fish, baskets, value, last_day=last)
        return Action("buy", plan[0]) if plan else None

    def _on_rescue_turn(self, game: Game, frame: Any, legal: Sequence[Action]) -> Action | None:
        played = self._anytime_choice(game, legal, "rescue")
        if played is not None:
            return played
        state = game.state  # type: ignore[attr-defined]
        prices = game.rules.field_prices  # type: ignore[attr-defined]
        best: tuple[float, Action, int, int] | None = None
        for a in legal:
            if a.kind != "rescue":
                continue
            tile_id = state.fields.side(a[1])[a[2]]
            tile = state.tiles[tile_id]
            v, mask = self._best_placement(game, tile.colour, tile.shape, tile.kind,
                                           self._placements(game, tile.shape, tile.colour))
            v -= FISH_WEIGHT * prices[a[1]] + 0.01 * _BASKET_ORDER[a[3]]
            if best is None or v > best[0]:
                best = (v, a, tile_id, mask)
        if best is None:
            return None
        self._planned[best[2]] = best[3]
        return best[1]


def greedy_policy(mode: str, seat: int, seed: int) -> Any:
    """The full greedy bot of ``mode`` (the search's first candidate)."""
    return greedy_bot(mode, seat, seed)


def playout_policy(mode: str, seat: int, seed: int) -> Any:
    if mode == "duel":
        return CheapDuelGreedy(seat, seed)
    if mode == "standard":
        return CheapStandardGreedy(seat, seed)
    return greedy_policy(mode, seat, seed)


def _placement_scores(world: Game, seat: int, masks: Sequence[int]) -> list[float] | None:
    """A quick value of each placement of the tile being placed, or None if unknown."""
    if world.mode == "duel":
        g: Any = world
        boat = g.boats[seat]
        if g.phase == "place_cat":
            cat = g.cat_tiles()[g.placing]
            fams = colour_families(boat, cat.colour)
            return [placement_value(boat, m, cat.colour, fams) for m in masks]
        return [placement_value(boat, m, None) for m in masks]
    frame = world.frames[-1]  # type: ignore[attr-defined]
    if frame.name != "place" or world.mode == "family":
        return None
    info = world.state.tiles[frame.tile]  # type: ignore[attr-defined]
    ev = GreedyStandardBot(seat, 0)._eval(world, frame.colour, info.shape, info.kind)
    return [ev.quick(m) for m in masks]


def candidates(world: Game, seat: int, legal: Sequence[Action], first: Action,
               limit: int) -> list[Action]:
    """``first`` (greedy's choice), then up to ``limit - 1`` other legal actions: the best
    placements by a quick evaluation, or a spread of the others."""
    others = [a for a in legal if a != first]
    places = [a for a in others if a[0] == "place"]
    rest = [a for a in others if a[0] != "place"]
    if len(places) > limit:
        scores = _placement_scores(world, seat, [a[1] for a in places])
        if scores is not None:
            order = sorted(range(len(places)), key=lambda i: -scores[i])
            places = [places[i] for i in order]
        else:
            places = _spread(places, limit)  # type: ignore[arg-type]
    out = [first, *rest, *places]
    return out[:limit] if len(rest) < limit else [first, *_spread(rest, limit - 1)]


def value(game: Game, seat: int) -> float:
    """A playout's worth to ``seat``: own score minus the best other's, over 20, plus 1 for
    leading (the game over: winning). Read from the score sheets, which are final once the
    game is over (``result()`` would also hash the whole state); solo asks ``result()`` for
    the sister's score."""
    if game.mode == "solo":
        if game.is_over():
            result = game.result()
            return result["margin"] / 20.0 + (1.0 if result["won"] else 0.0)
        return game.scores()[0]["total"] / 20.0  # type: ignore[attr-defined]
    scores = [s["total"] for s in game.scores()]  # type: ignore[attr-defined]
    mine = scores[seat]
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    return (1.0 if mine > best_other else 0.0) + (mine - best_other) / 20.0


def playout(game: Game, seat: int, seed: int, horizon: int) -> float:
    """Play on with the cheap policy for every seat and score the result for ``seat``.
    The Duel is played to its end; other modes for at most ``horizon`` decisions."""
    bots = [playout_policy(game.mode, s, seed) for s in range(game.seats)]
    steps = 0
    while not game.is_over() and steps < horizon:
        s = game.pending()[0]
        legal = game.legal_actions(s)
        action = legal[0] if len(legal) == 1 else bots[s].act(game, s)
        game.apply_unchecked(s, action)
        steps += 1
    return value(game, seat)
