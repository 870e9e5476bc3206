"""bench/bots.py's serial floor: the bots' CPU on the decisions the runner asked alone.

The bench finds those decisions by replaying a match's action log with the runner's rule for
asking seats together. These tests play real sandboxed matches, record which questions the
runner really sent and when, and check that the replay names the same decisions, so the floor
the bench prints is a sum over the right decisions.
"""

from __future__ import annotations

import importlib.util
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from workers.agents import ProgramAgent
from workers.runner import MatchSpec, SeatSpec, run_match

from .conftest import EXAMPLES, FAST

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bots.py"
RANDOM_BOT = str(EXAMPLES / "random_bot.py")


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("isle_bench_bots_test", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _played_with_asks(
    monkeypatch: pytest.MonkeyPatch, mode: str, seats: int, seed: int
) -> tuple[Any, dict[int, list[int]]]:
    """A match of sandboxed random starters, and the seats whose question went out at each
    step (the game's length of history when ``ProgramAgent.ask`` really sent one)."""
    sent: dict[int, list[int]] = defaultdict(list)
    original = ProgramAgent.ask

    def ask(self: ProgramAgent, game: Any, seat: int) -> None:
        out_before = self._asked is not None
        original(self, game, seat)
        if not out_before and self._asked is not None:
            sent[len(game.history)].append(seat)

    monkeypatch.setattr(ProgramAgent, "ask", ask)
    spec = MatchSpec(
        mode=mode,
        seats=tuple(SeatSpec.parse(RANDOM_BOT) for _ in range(seats)),
        seed=seed,
        limits=FAST,
        replay=False,
    )
    outcome = run_match(spec)
    assert not outcome.faults, outcome.faults
    return outcome, sent


def _alone_by_the_runner(outcome: Any, sent: dict[int, list[int]]) -> list[int]:
    """The steps whose seat was asked at its own turn, with no other question sent then."""
    return [
        record["step"]
        for record in outcome.actions
        if sent.get(record["step"]) == [record["seat"]]
    ]


@pytest.mark.parametrize(("mode", "seats"), [("standard", 4), ("duel", 2)])
def test_the_replay_names_the_decisions_the_runner_asked_alone(
    monkeypatch: pytest.MonkeyPatch, mode: str, seats: int
) -> None:
    bench = _bench()
    outcome, sent = _played_with_asks(monkeypatch, mode, seats, seed=3)
    alone = _alone_by_the_runner(outcome, sent)
    assert alone, "no decision was asked alone"
    # give each decision a distinct weight, so the sum names exactly which decisions count
    for record in outcome.actions:
        record["cpu"] = 2.0 ** -(record["step"] % 50) * (1 + record["step"])
    expected = sum(r["cpu"] for r in outcome.actions if r["step"] in set(alone))
    assert bench.bots_cpu_asked_alone(outcome) == pytest.approx(expected, rel=1e-12)


def test_a_simultaneous_step_is_not_counted_even_for_its_last_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 4-player standard game asks its draft and buying seats together: those decisions,
    the last seat of each step too (it is then the only seat pending), are not alone."""
    bench = _bench()
    outcome, sent = _played_with_asks(monkeypatch, "standard", 4, seed=5)
    together = [r for r in outcome.actions if sent.get(r["step"]) != [r["seat"]]]
    assert together, "a 4-player standard game has simultaneous steps"
    last_seats = [r for r in together if r["step"] not in sent]  # asked at an earlier step
    assert last_seats
    for record in outcome.actions:
        record["cpu"] = 1.0
    total = len(outcome.actions)
    assert bench.bots_cpu_asked_alone(outcome) == pytest.approx(total - len(together))
