"""Fault kinds of a bot program and the record kept of each fault.

A fault never aborts a match: the runner records it (kind, step, the seat's
last stderr lines, the time the decision had used) and the seat plays the
default policy from then on. The kinds are an enum so that the tournament,
the replays and the viewer agree on one vocabulary.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class FaultKind(StrEnum):
    """Why a bot stopped playing. The value is the stable name stored in records."""

    START_FAILED = "start_failed"  # the program could not be launched (bad bundle, no interpreter)
    TIMEOUT = "timeout"  # no reply within the decision limit plus the time bank
    CRASH = "crash"  # exited with a non-zero status or a fatal signal
    EXITED = "exited"  # exited cleanly (or closed stdout) before the match ended
    BAD_OUTPUT = "bad_output"  # a reply that is not a valid protocol message, or too long
    ILLEGAL_ACTION = "illegal_action"  # a well-formed action the rules forbid now
    MEMORY = "memory"  # ran out of its memory limit
    CPU_TIME = "cpu_time"  # used up its CPU-time limit
    FILE_SIZE = "file_size"  # wrote a file past its file-size limit


@dataclass
class Fault:
    """One bot's fault, as stored in the match record."""

    seat: int
    kind: FaultKind
    step: int  # number of actions applied in the game when the fault happened
    message: str
    seconds: float = 0.0  # time the failing decision had used
    stderr: list[str] = field(default_factory=list)  # the seat's last stderr lines
    # a timeout's evidence: {"cpu", "wall", "wait" (for a CPU): s, "load": [1, 5, 15 min]}
    evidence: dict[str, Any] | None = None
    # the bot's own decision number (its `decide.step`, 1 at its first) when it faulted;
    # None: before its first decision (at startup)
    decision: int | None = None

    def to_json(self) -> dict[str, Any]:
        out = {
            "seat": self.seat,
            "kind": self.kind.value,
            "step": self.step,
            "message": self.message,
            "seconds": round(self.seconds, 6),
            "stderr": list(self.stderr),
            "decision": self.decision,
        }
        if self.evidence is not None:
            out["evidence"] = dict(self.evidence)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fault:
        return cls(
            seat=data["seat"],
            kind=FaultKind(data["kind"]),
            step=data["step"],
            message=data["message"],
            seconds=data.get("seconds", 0.0),
            stderr=list(data.get("stderr", [])),
            evidence=data.get("evidence"),
            decision=data.get("decision"),
        )

    def describe(self) -> str:
        """One readable line for the CLI."""
        return f"seat {self.seat}: {self.kind.value} {when_faulted(self.decision)}: {self.message}"


class BotFault(Exception):
    """Raised inside the sandbox layers when a bot faults; the runner turns it into a Fault."""

    def __init__(
        self,
        kind: FaultKind,
        message: str,
        seconds: float = 0.0,
        evidence: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{kind.value}: {message}")
        self.kind = kind
        self.message = message
        self.seconds = seconds
        self.evidence = evidence


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def when_faulted(decision: int | None) -> str:
    """When a bot faulted, in its own terms: "at its 3rd decision", or "at startup"."""
    return "at startup" if not decision else f"at its {ordinal(decision)} decision"
