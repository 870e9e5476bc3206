"""The limits a bot program plays under: time per decision, time bank, resources, output.

One value object shared by the workers, the local runner (``python -m arena
play``) and the arena, so a bot meets the same limits everywhere, and the rules
that judge a decision's time against them. Time: each decision may use
``decision_seconds`` of CPU time (of the bot's whole process tree, or of a
built-in bot's thread); a decision over it draws the excess from the match's
``bank_seconds``, and the bot times out when the bank is spent. Only CPU time is
charged: time a bot spends runnable but waiting for a CPU of a busy host costs it
nothing. The wall clock is a guard against bots that sleep or block:
``wall_ceiling`` (``wall_factor x decision_seconds`` + the bank left, never less
than ``wall_floor_seconds``), stretched by the time the bot waited for a CPU
during the decision. A seat's decisions together may take at most its share of
the match's worst case in wall-clock time not spent waiting for a CPU
(``seat_wall_budget``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields, replace
from functools import cache
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Limits:
    decision_seconds: float = 1.0  # free time per decision
    bank_seconds: float = 30.0  # extra time per match, drawn by late decisions
    startup_seconds: float = 10.0  # from launch to the reply to "start" (not drawn from the bank)
    # Extra startup time the bot is not told about: a validation match runs on a cold worker
    # (first unpack, caches), yet its `start` message must read exactly like a league match's,
    # so that a bot cannot tell the two apart and behave only when it is being validated.
    startup_grace_seconds: float = 0.0
    # MiB: the bot's processes together (its memory cgroup, where the worker has the memory
    # isolation layer), and the address space (RLIMIT_AS) of each of them
    memory_mb: int = 512
    cpu_seconds: int = 300  # CPU time of each process over the match (RLIMIT_CPU)
    processes: int = 32  # processes/threads of the bot's uid (RLIMIT_NPROC)
    open_files: int = 64  # RLIMIT_NOFILE
    file_size_mb: int = 16  # largest file the bot may write (RLIMIT_FSIZE)
    reply_bytes: int = 1 << 20  # longest reply line; longer is bad_output
    debug_chars: int = 200  # debug notes are cut to this length
    stderr_lines: int = 50  # stderr lines kept for fault records
    stderr_bytes: int = 8192  # ... and at most this many bytes of them
    end_grace_seconds: float = 0.5  # time to exit after the "end" message
    # The wall-clock guard of a decision (``wall_ceiling``): this x decision_seconds + the bank
    # left, at least wall_floor_seconds; generous, since it only stops bots that sleep or block.
    wall_factor: float = 5.0
    wall_floor_seconds: float = 10.0

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ValueError(f"limit {f.name} must be a number, not {value!r}")
            if f.type == "int" and not isinstance(value, int):
                raise ValueError(f"limit {f.name} must be an integer, not {value!r}")
            zero_ok = ("bank_seconds", "end_grace_seconds", "startup_grace_seconds")
            if value < 0 or (value == 0 and f.name not in zero_ok):
                raise ValueError(f"limit {f.name} must be positive, not {value!r}")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def wall_ceiling(self, bank_left: float) -> float:
        """The wall-clock seconds a decision may last before the time it waited for a CPU is
        added: ``wall_factor x decision_seconds + bank_left``, never under
        ``wall_floor_seconds``. Far above any CPU-bound decision's own time, so an honest bot
        meets its CPU limit long before it, and only one that sleeps or blocks is stopped."""
        return max(self.wall_floor_seconds, self.wall_factor * self.decision_seconds + bank_left)

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Limits:
        """Limits from a (partial) mapping; unknown keys are an error, not silently ignored."""
        data = dict(data or {})
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise ValueError(f"unknown limit(s) {unknown}; limits: {', '.join(sorted(known))}")
        return cls(**data)

    def override(self, **changes: Any) -> Limits:
        """A copy with the given limits changed; ``None`` values keep the current limit."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    def protocol_view(self) -> dict[str, Any]:
        """What the bot is told in the ``start`` message (never the startup grace)."""
        return {
            "decision_seconds": self.decision_seconds,
            "bank_seconds": self.bank_seconds,
            "startup_seconds": self.startup_seconds,
            "memory_mb": self.memory_mb,
            "cpu_seconds": self.cpu_seconds,
            "reply_bytes": self.reply_bytes,
            "debug_chars": self.debug_chars,
        }


@cache
def _decisions() -> dict[str, int]:
    data = json.loads(resources.files("competition.data").joinpath("decisions.json").read_text())
    return {mode: int(n) for mode, n in data["decisions"].items()}


def decisions_bound(mode: str) -> int | None:
    """Upper bound of one seat's decisions in a match of ``mode`` (measured in random games
    with a safety factor: competition/data/decisions.json, bench/decisions.py); None for a mode
    without a measurement (test modes)."""
    return _decisions().get(mode)


def seat_wall_budget(mode: str, limits: Limits) -> float | None:
    """The wall-clock seconds one seat's decisions may take in a whole match, not counting
    the time its processes waited for a CPU: ``decisions x decision_seconds + bank_seconds``.
    A bot that uses it up is faulted ``timeout`` (the runner's own budget, so a match on a
    host that gives its bots their CPU ends within ``match_worst_case_seconds``)."""
    decisions = decisions_bound(mode)
    if decisions is None:
        return None
    return decisions * limits.decision_seconds + limits.bank_seconds


def match_worst_case_seconds(mode: str, seats: int, limits: Limits) -> float:
    """The longest a match can take with program bots in every seat: ``seats x (decisions x
    decision_seconds + bank_seconds)`` plus the startup limit and its grace (the seats start
    together), on a host that runs the bots when they are ready to run (the time a bot
    waits for a CPU is not counted against it, so it lengthens the match).
    Unknown modes raise ``KeyError``."""
    budget = seat_wall_budget(mode, limits)
    if budget is None:
        raise KeyError(f"no decisions bound for mode {mode!r} (competition/data/decisions.json)")
    return seats * budget + limits.startup_seconds + limits.startup_grace_seconds


# "It slept or blocked" is said of a bot only when its CPU time and its wait for a CPU together
# cover less than this share of the wall-clock time: the rest it was neither computing nor
# ready to compute.
SLEPT_SHARE = 0.5


def slept(cpu: float, wait: float, wall: float) -> bool:
    """Whether figures of a decision (or of a seat's decisions) show a bot that slept or
    blocked: CPU time plus the time it waited for a CPU well below the wall-clock time."""
    return cpu + wait < SLEPT_SHARE * wall


def over_cpu_message(cpu: float, allowed: float) -> str:
    """Why a decision over its CPU time timed out: the same words for a program and for a
    built-in bot."""
    return (
        f"used {cpu:.3f} s of CPU time; it had {allowed:.3f} s"
        f" (the decision limit plus what was left of the bank)"
    )
