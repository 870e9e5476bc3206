"""``play --verbose``: bot programs' stderr shown as they play, one prefixed line at a time,
and a line for each decision (its time, the bank left, the bot's debug note).

Chunks arrive from the sandbox as the runner reads them and may end mid-line; each seat's
partial line waits for its newline (or for ``flush`` at the end), so lines of two seats never
interleave and whatever is printed next starts on a line of its own.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import TextIO


class StderrEcho:
    def __init__(self, labels: Sequence[str], stream: TextIO | None = None) -> None:
        self.labels = list(labels)
        self.stream = stream or sys.stderr
        self._partial: dict[int, str] = {}

    def __call__(self, seat: int, chunk: bytes) -> None:
        text = self._partial.pop(seat, "") + chunk.decode("utf-8", "replace")
        *lines, rest = text.split("\n")
        for line in lines:
            self._write(seat, line)
        if rest:
            self._partial[seat] = rest

    def flush(self) -> None:
        """Print what is left of unfinished lines (a bot that never wrote its newline)."""
        for seat in sorted(self._partial):
            self._write(seat, self._partial[seat])
        self._partial.clear()

    def _write(self, seat: int, line: str) -> None:
        self.stream.write(f"[seat {seat} {self.labels[seat]}] {line.rstrip()}\n")
        self.stream.flush()

    def decision(self, record: dict) -> None:
        """One decision, after the stderr its bot wrote while taking it: the wall time, the CPU
        time charged, the time it waited for a CPU (not charged), the time bank left and the
        ``debug`` note of its reply."""
        seat = record["seat"]  # a partial stderr line waits for its newline, as ever
        bank, wait = record.get("bank_left"), record.get("wait")
        line = (f"decision {record['decision']}: "
                f"{record['seconds']:.3f} s, cpu {record['cpu']:.3f} s"
                + (f", wait {wait:.3f} s" if wait is not None else "")
                + (f", bank {bank:.3f} s" if bank is not None else "")
                + (f", note: {record['note']}" if record.get("note") else "")
                + (" (default policy: the seat faulted)" if record.get("default") else ""))
        self._write(seat, line)
