"""The search bot: greedy's choice, challenged by the other candidates under playouts.

Written as a bot author would write it, against the public forward model only: at each
decision it rebuilds the game from the seat's observation with ``engine.forward.determinize``
(a fresh sample of the hidden parts each round), and plays each candidate action on a
``clone()`` of that determinization with the same playout seed (common random numbers, so
the candidates are compared on the same futures). Candidates are the greedy bot's choice
plus the other legal actions, placements cut to the best few by a quick evaluation.
Playouts are played by a cheaper greedy policy for every seat, to the end of the game in the
Duel and for a horizon of decisions elsewhere, then scored (own score minus the best other,
with a bonus for winning). Greedy's choice is kept unless a challenger's mean is better by
a margin, so a short budget falls back to greedy rather than to noise.

Measured by a prototype (issue 27): flat Monte Carlo with random playouts lost to greedy;
this scheme beat it. The budget is CPU time (``time.process_time``) per decision; given its
seed the bot is deterministic except where the budget cuts a round short.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ..actions import Action
from ..forward import determinize
from ..game import Game
from ..rng import Rng
from . import playout as policies

CANDIDATES = 8  # actions considered at a decision (greedy's choice included)
MARGIN = 0.02  # how much a challenger's mean must beat greedy's, in playout value
MAX_ROUNDS = 64  # rounds of playouts per decision at most (easy decisions stop early)
MIN_ROUNDS = 3  # rounds before a challenger may replace greedy's choice
Z = 1.0  # standard errors by which a challenger must beat greedy's choice
HORIZON = 80  # decisions a playout runs outside the Duel before it is scored


def parse_budget(name: str) -> float | None:
    """The seconds of ``search-<seconds>s`` (``search`` alone: 0.25), or None."""
    if name == "search":
        return 0.25
    if not name.startswith("search-") or not name.endswith("s"):
        return None
    try:
        seconds = float(name[len("search-"):-1])
    except ValueError:
        return None
    return seconds if 0 < seconds <= 60 else None


class SearchBot:
    name = "search"
    trusted = True

    def __init__(self, seat: int, seed: int, budget: float = 0.25) -> None:
        self.seat = seat
        self.budget = budget
        self.rng = Rng(seed, f"bot:search:{seat}")
        self.last_note: str | None = None

    def close(self) -> None:
        pass

    # --- the built-in entry point: the game object gives the seat's messages ---------------
    def act(self, game: Game, seat: int) -> Action:
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        start = {"type": "start", "mode": game.mode, "seat": seat, "seats": game.seats,
                 "options": dict(game.options)}
        choice = self.choose(start, game.observation(seat))
        if choice not in legal:  # never happens with a faithful determinization
            self.last_note = "search: fallback to the first legal action"
            return legal[0]
        return choice

    # --- the search, from the messages alone ------------------------------------------------
    def choose(self, start: Mapping[str, Any], observation: Mapping[str, Any]) -> Action:
        deadline = time.process_time() + self.budget
        seat = int(start["seat"])
        world = determinize(start, observation, self.rng)
        legal = world.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        guide = policies.greedy_policy(world.mode, seat, self.rng.next_u64())
        first = guide.act(world, seat)
        candidates = policies.candidates(world, seat, legal, first, CANDIDATES)
        if len(candidates) == 1:
            self.last_note = "search: greedy's choice is the only candidate"
            return first
        rows: list[list[float]] = []  # one row of values per round, one value per candidate
        while len(rows) < MAX_ROUNDS:
            if rows:
                world = determinize(start, observation, self.rng)
            seed = self.rng.next_u64()
            values = []
            for action in candidates:
                game = world.clone()
                game.apply_unchecked(seat, action)
                values.append(policies.playout(game, seat, seed, HORIZON))
                if rows and time.process_time() > deadline:
                    break
            if len(values) < len(candidates):
                break  # an unfinished round is dropped: every mean covers the same futures
            rows.append(values)
            if time.process_time() > deadline:
                break
        choice, base, best = challenge(candidates, rows)
        self.last_note = (f"search: {world.action_text(choice)} after {len(rows)} rounds of "
                          f"{len(candidates)} candidates (greedy {base:.2f}, best {best:.2f})")
        return choice


def challenge(candidates: list[Action], rows: list[list[float]]) -> tuple[Action, float, float]:
    """Greedy's choice (column 0) unless a challenger beats it on the same futures: its mean
    difference must exceed ``MARGIN`` and ``Z`` standard errors of that difference.
    Returns (choice, greedy's mean, the best challenger's mean)."""
    n = len(rows)
    base = sum(r[0] for r in rows) / n
    best_i, best_mean = 0, base
    for i in range(1, len(candidates)):
        diffs = [r[i] - r[0] for r in rows]
        mean = sum(diffs) / n
        if n < MIN_ROUNDS or mean <= MARGIN:
            continue
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > Z * (var / n) ** 0.5 and base + mean > best_mean:
            best_i, best_mean = i, base + mean
    return candidates[best_i], base, best_mean


def search_bot(name: str, seat: int, seed: int) -> SearchBot | None:
    budget = parse_budget(name)
    return None if budget is None else SearchBot(seat, seed, budget)


__all__ = ["SearchBot", "parse_budget", "search_bot"]
