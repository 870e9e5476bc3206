"""The limits a bot program plays under: time per decision, time bank, resources, output.

One value object shared by the workers, the local runner (``python -m arena
play``) and the arena, so a bot meets the same limits everywhere. Time: each
decision may take ``decision_seconds``; a late decision draws the excess from
the match's ``bank_seconds``; the bot times out when the bank is spent.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
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
    memory_mb: int = 512  # address space (RLIMIT_AS) of each process of the bot
    cpu_seconds: int = 300  # CPU time of each process over the match (RLIMIT_CPU)
    processes: int = 32  # processes/threads of the bot's uid (RLIMIT_NPROC)
    open_files: int = 64  # RLIMIT_NOFILE
    file_size_mb: int = 16  # largest file the bot may write (RLIMIT_FSIZE)
    reply_bytes: int = 1 << 20  # longest reply line; longer is bad_output
    debug_chars: int = 200  # debug notes are cut to this length
    stderr_lines: int = 50  # stderr lines kept for fault records
    stderr_bytes: int = 8192  # ... and at most this many bytes of them
    end_grace_seconds: float = 0.5  # time to exit after the "end" message

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
