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
this scheme beat it. The budget is CPU time per decision, of the thread the bot runs in
(``time.thread_time``: the clock a match judges a built-in bot by, which other threads of the
worker's process do not advance); given its seed the bot is deterministic except where the
budget cuts a round short.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ..actions import Action
from ..errors import DeterminizeError
from ..forward import determinize
from ..game import Game
from ..rng import Rng
from . import playout as policies
from .names import parse_budget

CANDIDATES = 8  # actions considered at a decision (greedy's choice included)
MARGIN = 0.02  # how much a challenger's mean must beat greedy's, in playout value
MAX_ROUNDS = 64  # rounds of playouts per decision at most (easy decisions stop early)
MIN_ROUNDS = 4  # rounds before a challenger may replace greedy's choice
Z = 1.0  # standard errors by which a challenger must beat greedy's choice
PRUNE = 1.5  # standard errors below greedy's choice at which a challenger is dropped
# Outside the Duel a greedy decision costs about 1 ms and a game has hundreds: a playout runs
# this many decisions and is scored on the sheets as they stand, among fewer candidates.
HORIZON = 12
CANDIDATES_LONG_GAMES = 5


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
        try:
            choice = self.choose(start, game.observation(seat))
        except DeterminizeError as exc:  # a decision the forward model cannot rebuild
            choice = None
            self.last_note = f"search: greedy's choice ({exc})"
        if choice is None or choice not in legal:
            guide = policies.greedy_policy(game.mode, seat, self.rng.next_u64())
            return guide.act(game, seat)
        return choice

    # --- the search, from the messages alone ------------------------------------------------
    def choose(self, start: Mapping[str, Any], observation: Mapping[str, Any]) -> Action:
        deadline = time.thread_time() + self.budget
        seat = int(start["seat"])
        world = determinize(start, observation, self.rng)
        legal = world.legal_actions(seat)
        if len(legal) == 1:
            return legal[0]
        guide = policies.greedy_policy(world.mode, seat, self.rng.next_u64())
        first = guide.act(world, seat)
        duel_mode = world.mode == "duel"
        limit = CANDIDATES if duel_mode else CANDIDATES_LONG_GAMES
        horizon = 10_000 if duel_mode else HORIZON
        candidates = policies.candidates(world, seat, legal, first, limit)
        if len(candidates) == 1:
            self.last_note = "search: greedy's choice is the only candidate"
            return first
        duel = Duel(len(candidates))
        slowest = 0.0  # the longest playout so far: one that would end past the budget is not begun
        while duel.rounds < MAX_ROUNDS and duel.active:
            if duel.rounds:
                world = determinize(start, observation, self.rng)
            seed = self.rng.next_u64()
            values: dict[int, float] = {}
            for i in (0, *duel.active):
                began = time.thread_time()
                if began + slowest > deadline:
                    break
                game = world.clone()
                game.apply_unchecked(seat, candidates[i])
                values[i] = policies.playout(game, seat, seed, horizon)
                slowest = max(slowest, time.thread_time() - began)
            if len(values) < 1 + len(duel.active):
                break  # an unfinished round is dropped: every mean covers the same futures
            duel.add(values)
            if time.thread_time() + slowest > deadline:
                break
        best, base, gain = duel.verdict()
        choice = candidates[best]
        self.last_note = (f"search: {world.action_text(choice)} after {duel.rounds} rounds of "
                          f"{len(candidates)} candidates (greedy {base:.2f}, gain {gain:+.2f})")
        return choice


class Duel:
    """Greedy's choice (candidate 0) against the challengers, on paired playouts: each round
    plays every candidate still in the running on the same future. A challenger leaves once
    it is clearly worse (its mean difference ``PRUNE`` standard errors below 0), so easy
    decisions end long before the budget; it wins if its mean difference exceeds ``MARGIN``
    and ``Z`` standard errors."""

    def __init__(self, n: int) -> None:
        self.rounds = 0
        self.base = 0.0
        self.active = list(range(1, n))
        self.diffs: dict[int, list[float]] = {i: [] for i in range(1, n)}

    @staticmethod
    def _stats(diffs: list[float]) -> tuple[float, float]:
        n = len(diffs)
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
        return mean, (var / n) ** 0.5

    def add(self, values: dict[int, float]) -> None:
        self.rounds += 1
        self.base += values[0]
        for i in self.active:
            self.diffs[i].append(values[i] - values[0])
        if self.rounds >= MIN_ROUNDS:
            keep = []
            for i in self.active:
                mean, se = self._stats(self.diffs[i])
                if mean + PRUNE * se >= MARGIN:
                    keep.append(i)
            self.active = keep

    def verdict(self) -> tuple[int, float, float]:
        """(the chosen candidate, greedy's mean, the chosen one's mean gain over greedy)."""
        base = self.base / max(self.rounds, 1)
        best, gain = 0, 0.0
        for i, diffs in self.diffs.items():
            if len(diffs) < MIN_ROUNDS:
                continue
            mean, se = self._stats(diffs)
            if mean > MARGIN and mean > Z * se and mean > gain:
                best, gain = i, mean
        return best, base, gain


def search_bot(name: str, seat: int, seed: int) -> SearchBot | None:
    budget = parse_budget(name)
    return None if budget is None else SearchBot(seat, seed, budget)


__all__ = ["SearchBot", "parse_budget", "search_bot"]
