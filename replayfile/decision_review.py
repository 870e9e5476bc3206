"""Where a seat lost: each decision of one seat judged from that seat's own information.

Pure (no Django). The replay is re-simulated; at each step where seat K chose among more than
one legal action, the position is rebuilt ``WORLDS`` times from what K was told
(``engine.forward.determinize`` of K's start message and observation: the others' hands,
the bag's and the deck's order are sampled, never read from the replay), and each candidate
action is applied in every rebuilt world and played on by the same estimator as the chart
(``replayfile.win_chances``: uniform random playouts, win shares with ties shared, the
95% Wilson score interval). Every candidate is played on the same worlds with the same
playout seeds, so the comparison is paired.

**Candidates.** The action taken, the house playout greedy's choice, and the others up to
``CANDIDATES`` in all by the engine's cheap pre-filter (``engine.bots.playout.candidates``:
a tile's placements ranked by a quick evaluation, other actions spread over the list). A
large action set is judged on that shortlist, not whole: a better action outside it is
not found.

**Loss.** ``best − taken`` of the estimated chances, counted only when the intervals
separate (the best's lower bound above the taken action's upper bound), else 0. The
decisions are listed costliest first; a loss of at least ``MISTAKE`` is marked "?" and of
at least ``BLUNDER`` "??" (lichess's mistake and blunder thresholds, 0.2 and 0.3 on its
−1..1 winning-chances scale, are 0.10 and 0.15 of a win probability).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from engine.actions import Action
from engine.bots.playout import candidates, playout_policy
from engine.errors import DeterminizeError
from engine.forward import determinize
from engine.game import Game
from engine.narration import seat_names
from engine.rng import Rng
from engine.version import ENGINE_VERSION

from .frames import FramesError, replay_apply, replay_start
from .win_chances import METHOD, POLICY, interval, outcome

REVIEW_VERSION = 1
CANDIDATES = 6  # actions judged per decision: the taken one, greedy's, the pre-filter's best
MISTAKE = 0.10  # "?"
BLUNDER = 0.15  # "??"
COSTLIEST = 5
# mode -> (worlds, playouts per world): the Duel's playouts cost about 0.5 ms, the others'
# ten times as much and a seat has three times the decisions, so fewer.
BUDGET: dict[str, tuple[int, int]] = {"duel": (8, 12), "solo": (6, 8), "standard": (4, 6),
                                      "family": (4, 6)}
DEFAULT_BUDGET = (4, 6)


def mark_of(loss: float) -> str:
    """The move list's mark of a loss: "??", "?" or nothing."""
    if loss >= BLUNDER:
        return "??"
    if loss >= MISTAKE:
        return "?"
    return ""


def _start(game: Game, seat: int) -> dict[str, Any]:
    return {"type": "start", "mode": game.mode, "seat": seat, "seats": game.seats,
            "options": dict(game.options)}


def _share(world: Game, seat: int) -> float:
    return outcome(world)[0][seat]


def _shortlist(world: Game, seat: int, taken: Action, seed: int) -> list[Action]:
    legal = world.legal_actions(seat)
    first = playout_policy(world.mode, seat, seed).act(world.clone(), seat)
    if first not in legal:
        first = taken
    found = candidates(world, seat, legal, first, CANDIDATES)
    return [taken, *(a for a in found if a != taken)][:CANDIDATES]


def judge_decision(game: Game, seat: int, taken: Action, *, worlds: int, playouts: int,
                   seed: int) -> dict[str, Any] | None:
    """The chance of the action taken and of the best candidate found, from ``seat``'s
    information; None when no world could be rebuilt with the action taken legal."""
    rng = Rng(seed, "review")
    start = _start(game, seat)
    observation = game.observation(seat)
    rebuilt = []
    for _ in range(worlds):
        try:
            world = determinize(start, observation, rng)
        except DeterminizeError:
            continue
        if taken in world.legal_actions(seat):
            rebuilt.append(world)
    if not rebuilt:
        return None
    shortlist = _shortlist(rebuilt[0], seat, taken, rng.next_u64())
    seeds = [[rng.next_u64() for _ in range(playouts)] for _ in rebuilt]
    totals = [0.0] * len(shortlist)
    counts = [0] * len(shortlist)
    for w, world in enumerate(rebuilt):
        legal = world.legal_actions(seat)
        for i, action in enumerate(shortlist):
            if action not in legal:
                continue
            for s in seeds[w]:
                played = world.clone()
                played.apply_unchecked(seat, action)
                played.playout(Rng(s, "playout"))
                totals[i] += _share(played, seat)
                counts[i] += 1
    judged = [(totals[i] / counts[i], counts[i], a) for i, a in enumerate(shortlist)
              if counts[i]]
    taken_chance, taken_n, _ = judged[0]
    best_chance, best_n, best = max(judged, key=lambda j: j[0])
    taken_low, taken_high = interval(taken_chance, taken_n)
    best_low, best_high = interval(best_chance, best_n)
    loss = round(best_chance - taken_chance, 4) if best_low > taken_high else 0.0
    return {
        "taken": {"text": game.action_text(taken), "chance": round(taken_chance, 4),
                  "low": taken_low, "high": taken_high, "playouts": taken_n},
        "best": {"text": game.action_text(best), "chance": round(best_chance, 4),
                 "low": best_low, "high": best_high, "playouts": best_n},
        "loss": loss,
        "mark": mark_of(loss),
        "candidates": len(judged),
        "legal": len(game.legal_actions(seat)),
        "worlds": len(rebuilt),
    }


def review_seat(doc: Mapping[str, Any], seat: int, *, seed: int = 0,
                budget: tuple[int, int] | None = None,
                steps: Sequence[int] | None = None) -> dict[str, Any]:
    """Every decision of ``seat`` in a finished game's replay (or only the ``steps`` given),
    judged; the ``COSTLIEST`` losses first in ``costliest``. ``FramesError`` for a replay
    that does not replay, ``ValueError`` for a seat the game has not."""
    started = time.process_time()
    header = doc["header"]
    game = replay_start(doc)
    if not 0 <= seat < game.seats:
        raise ValueError(f"seat {seat} is not in this {game.seats}-seat game "
                         f"(seats 0..{game.seats - 1})")
    worlds, playouts = budget or BUDGET.get(game.mode, DEFAULT_BUDGET)
    catalogue = header.get("actions") or {}
    wanted = set(steps) if steps is not None else None
    decisions: list[dict[str, Any]] = []
    for i, row in enumerate(doc["steps"]):
        if row[0] == seat and (wanted is None or i in wanted) \
                and len(game.legal_actions(seat)) > 1:
            before = game.clone()
            _, taken = replay_apply(game, i, row, catalogue)
            judged = judge_decision(before, seat, taken, worlds=worlds, playouts=playouts,
                                    seed=seed + i)
            if judged is not None:
                decisions.append({"step": i, **judged})
            continue
        replay_apply(game, i, row, catalogue)
    if steps is None and not game.is_over():
        raise FramesError("the replay ends before the game does: only a finished match is "
                          "analysed")
    costliest = sorted((d for d in decisions if d["loss"] > 0),
                       key=lambda d: (-d["loss"], d["step"]))[:COSTLIEST]
    return {
        "version": REVIEW_VERSION,
        "engine_version": ENGINE_VERSION,
        "mode": game.mode,
        "seat": seat,
        "name": seat_names(header.get("players"), game.seats)[seat],
        "policy": POLICY,
        "method": METHOD,
        "worlds": worlds,
        "playouts": worlds * playouts,
        "candidates": CANDIDATES,
        "thresholds": {"?": MISTAKE, "??": BLUNDER},
        "decisions": decisions,
        "costliest": costliest,
        "cpu_seconds": round(time.process_time() - started, 2),
    }
