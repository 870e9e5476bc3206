"""Plays a paired comparison's plan on this machine, through the match runner (built-in bots
in-process, bot files in the sandbox), for the local CLI and for tests of the statistics on real
games. The tournament plays the same plan through its workers instead (`services/paired.py`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import asdict
from typing import Any

from competition import paired_stats as paired
from competition import sprt

from .runner import MatchSpec, SeatSpec, run_match


def game_spec(
    game: paired.PlannedGame,
    *,
    mode: str,
    a: str,
    b: str,
    opponents: Sequence[str],
    options: Mapping[str, Any] | None = None,
) -> MatchSpec:
    """The runner's spec of one planned game; the tested seat's built-in bot gets its own seed."""
    seats = []
    for who in game.lineup:
        if who in paired.ARMS:
            seat = SeatSpec.parse(a if who == "A" else b)
            seats.append(SeatSpec(**{**seat.to_json(), "bot_seed": game.bot_seed}))
        else:
            seats.append(SeatSpec.parse(opponents[int(who)]))
    return MatchSpec(mode=mode, seats=tuple(seats), seed=game.seed, options=dict(options or {}),
                     replay=False)  # fmt: skip


def result_of(game: paired.PlannedGame, result: Mapping[str, Any]) -> paired.GameResult:
    """The tested seat's score and whether it finished first (the result's ranks put a seat
    that faulted last; its score counts as no more than the table's lowest)."""
    seat = game.tested_seat
    faulted = seat in (result.get("faulted") or ())
    return paired.GameResult(
        seed_index=game.seed_index, rotation=game.rotation, arm=game.arm,
        score=paired.tested_score(result["scores"], seat, faulted),
        won=result["ranks"][seat] == 1,
        rank=int(result["ranks"][seat]),
    )  # fmt: skip


def run_local(
    *,
    a: str,
    b: str,
    opponents: Sequence[str],
    mode: str,
    seats: int,
    seeds: int,
    base_seed: int = 0,
    options: Mapping[str, Any] | None = None,
    settings: sprt.SprtSettings | None = None,
    on_game: Callable[[int, int, int | None], None] | None = None,
    jobs: int = 1,
    log_path: str | None = None,
) -> paired.Comparison:
    """Compare A with B here and now, seed after seed, until the SPRT decides or ``seeds`` (the
    cap) are played; ``on_game(done, cap, expected)`` reports progress, ``expected`` being the
    games the test is expected to play in all from its current estimate
    (``sprt.groups_left``; at most the cap), or None before there is an estimate. With
    ``jobs`` > 1 the games are played by that many worker processes, a few seeds ahead; the
    figures are those of a run in order (the test reads seeds in order and stops at the first
    that crosses a bound: games of later seeds already in flight are left out), so they never
    depend on ``jobs``."""
    settings = settings or sprt.SprtSettings()
    games = paired.plan(seeds=seeds, seats=seats, opponents=len(opponents), base_seed=base_seed)
    specs = [game_spec(g, mode=mode, a=a, b=b, opponents=opponents, options=options)
             for g in games]  # fmt: skip
    per_seed = 2 * seats
    watch = _Watch(seats, settings, seeds)
    results: list[paired.GameResult] = []

    def record(result: paired.GameResult) -> bool:
        results.append(result)
        if log_path is not None:  # one JSON line per game: a cut-short run can be analysed
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(asdict(result)) + "\n")
        stopped = watch.add(result)
        if on_game is not None:
            on_game(len(results), len(games), watch.expected_games())
        return stopped

    if jobs <= 1:
        for game, spec in zip(games, specs, strict=True):
            if record(result_of(game, run_match(spec).result)):
                break
        return paired.analyse(results, rotations=seats, settings=settings, upto=watch.upto,
                              cap=seeds)  # fmt: skip

    ahead = max(2, jobs) * per_seed  # games in flight: a few seeds beyond the decided prefix
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        queue = iter(zip(games, specs, strict=True))
        pending: dict[Any, paired.PlannedGame] = {}
        stop = False
        while True:
            while not stop and len(pending) < ahead:
                nxt = next(queue, None)
                if nxt is None:
                    break
                pending[pool.submit(_play, nxt[1])] = nxt[0]
            if not pending:
                break
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                stop = record(result_of(pending.pop(future), future.result())) or stop
            if stop:
                for future in pending:
                    future.cancel()
                break
    return paired.analyse(results, rotations=seats, settings=settings, upto=watch.upto,
                          cap=seeds)  # fmt: skip


class _Watch:
    """The decided prefix of seeds and its LLR, kept up to date game by game: ``add`` says
    when the test has stopped (a bound crossed, or every seed of the cap played)."""

    def __init__(self, seats: int, settings: sprt.SprtSettings, cap: int) -> None:
        self.seats, self.settings, self.cap = seats, settings, cap
        self.cells: dict[int, dict[tuple[int, str], paired.GameResult]] = {}
        self.counts = [0] * (2 * seats + 1)
        self.upto = 0  # seeds below this are complete and counted
        self._expected: tuple[int, int | None] = (0, None)  # (upto, expected games)

    def expected_games(self) -> int | None:
        """The games the test is expected to play in all (see ``run_local``), or None;
        worked out again only when a seed has been counted."""
        if self._expected[0] != self.upto:
            left = sprt.groups_left(self.counts, self.seats, self.settings, self.cap)
            games = None if left is None else (self.upto + left) * 2 * self.seats
            self._expected = (self.upto, games)
        return self._expected[1]

    def add(self, result: paired.GameResult) -> bool:
        self.cells.setdefault(result.seed_index, {})[result.rotation, result.arm] = result
        while len(self.cells.get(self.upto, {})) == 2 * self.seats:
            seed = self.cells[self.upto]
            group = sum(sprt.outcome(seed[r, "B"].score, seed[r, "A"].score)
                        for r in range(self.seats)) / self.seats  # fmt: skip
            self.counts[round(group * 2 * self.seats)] += 1
            self.upto += 1
            llr = sprt.llr(self.counts, self.seats, self.settings)
            if llr >= self.settings.upper or llr <= self.settings.lower:
                return True
        return self.upto >= self.cap


def _play(spec: MatchSpec) -> dict[str, Any]:
    """One game in a worker process: its result only (what the statistics read)."""
    return dict(run_match(spec).result)


def analyse_log(
    path: str, *, rotations: int, settings: sprt.SprtSettings | None = None,
    cap: int | None = None,
) -> paired.Comparison:  # fmt: skip
    """The figures of the games a ``log_path`` holds (seeds with every game played, in order)."""
    with open(path, encoding="utf-8") as log:
        results = [paired.GameResult(**json.loads(line)) for line in log if line.strip()]
    return paired.analyse(results, rotations=rotations, settings=settings, cap=cap)
