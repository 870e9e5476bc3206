"""Each seat's decision times in a replay: how many decisions, the mean and the longest (with
its step), and the CPU time charged. A test game's page shows them to the bot's author beside
the replay (tournament/selectors/test_games.py); the viewer shows each step's own time."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class SeatDecisionTimes:
    seat: int
    decisions: int
    total_seconds: float  # wall clock of its decisions
    longest_seconds: float
    longest_step: int | None  # 1-based step of the replay where it thought longest
    cpu_seconds: float | None  # CPU time charged (None: the replay does not record it)

    @property
    def mean_seconds(self) -> float:
        return self.total_seconds / self.decisions if self.decisions else 0.0

    @property
    def mean_ms(self) -> float:  # a page shows a decision's time in milliseconds
        return 1000 * self.mean_seconds

    @property
    def longest_ms(self) -> float:
        return 1000 * self.longest_seconds


def decision_times(steps: Iterable[Mapping[str, Any]], seats: int) -> list[SeatDecisionTimes]:
    """One row per seat from a replay's steps (``replayfile.format.steps_of``); a step without
    a time (a built-in bot's, in some replays) counts as a decision of no time."""
    count = [0] * seats
    total = [0.0] * seats
    longest = [0.0] * seats
    longest_at: list[int | None] = [None] * seats
    cpu: list[float | None] = [None] * seats
    for number, step in enumerate(steps, start=1):
        seat = int(step["seat"])
        if not 0 <= seat < seats:
            continue
        seconds = float(step.get("seconds") or 0.0)
        count[seat] += 1
        total[seat] += seconds
        if longest_at[seat] is None or seconds > longest[seat]:
            longest[seat], longest_at[seat] = seconds, number
        if step.get("cpu") is not None:
            cpu[seat] = (cpu[seat] or 0.0) + float(step["cpu"])
    return [
        SeatDecisionTimes(seat=s, decisions=count[s], total_seconds=total[s],
                          longest_seconds=longest[s], longest_step=longest_at[s],
                          cpu_seconds=cpu[s])  # fmt: skip
        for s in range(seats)
    ]
