"""Plays a paired comparison's plan on this machine, through the match runner (built-in bots
in-process, bot files in the sandbox), for the local CLI and for tests of the statistics on real
games. The tournament plays the same plan through its workers instead (`services/paired.py`)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from . import paired
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
    level: float = paired.DEFAULT_LEVEL,
    on_game: Callable[[int, int], None] | None = None,
    jobs: int = 1,
    log_path: str | None = None,
) -> paired.Comparison:
    """Compare A with B over `seeds` deals here and now; `on_game(done, total)` reports progress.
    With `jobs` > 1 the games are played by that many worker processes (the same games and
    figures: every game's seeds come from the plan, not from the order of play)."""
    games = paired.plan(seeds=seeds, seats=seats, opponents=len(opponents), base_seed=base_seed)
    specs = [game_spec(g, mode=mode, a=a, b=b, opponents=opponents, options=options)
             for g in games]
    results: list[paired.GameResult] = []

    def record(result: paired.GameResult) -> None:
        results.append(result)
        if log_path is not None:  # one JSON line per game: a cut-short run can be analysed
            with open(log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(asdict(result)) + "\n")

    if jobs <= 1:
        for done, (game, spec) in enumerate(zip(games, specs, strict=True), start=1):
            record(result_of(game, run_match(spec).result))
            if on_game is not None:
                on_game(done, len(games))
        return paired.analyse(results, rotations=seats, level=level)
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(_play, spec): game for game, spec in zip(games, specs, strict=True)}
        for done, future in enumerate(as_completed(futures), start=1):
            record(result_of(futures[future], future.result()))
            if on_game is not None:
                on_game(done, len(games))
    return paired.analyse(results, rotations=seats, level=level)


def _play(spec: MatchSpec) -> dict[str, Any]:
    """One game in a worker process: its result only (what the statistics read)."""
    return dict(run_match(spec).result)


def analyse_log(path: str, *, rotations: int, level: float = paired.DEFAULT_LEVEL
                ) -> paired.Comparison:
    """The figures of the games a ``log_path`` holds (seeds with every game played)."""
    with open(path, encoding="utf-8") as log:
        results = [paired.GameResult(**json.loads(line)) for line in log if line.strip()]
    return paired.analyse(results, rotations=rotations, level=level)
