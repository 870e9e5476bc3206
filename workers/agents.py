"""Seats of a match as the runner sees them: sandboxed programs and built-in bots.

``ProgramAgent`` plays one seat with a bot program in a ``BotSandbox``: it
speaks the protocol, keeps the seat's time bank, checks every reply, and on
the first fault records it, kills the program and plays the default policy
(the first legal action) for the rest of the match. ``act`` never raises for
anything the bot does, so a bot can never abort a match. Both agent kinds
follow ``engine.play.Agent`` and keep ``SeatStats``, and both are judged by the same rule
(``competition.limits``): the CPU time of a decision against the limit and the bank.
``BuiltinAgent`` plays a built-in bot in this process and, like a program, is faulted
``timeout`` when a decision's CPU time (its thread's) runs past the limit and the bank.
"""

from __future__ import annotations

import hashlib
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from competition.faults import BotFault, Fault, FaultKind
from competition.limits import Limits, over_cpu_message, slept
from engine import Action, Game
from engine.bots import make_bot

from .protocol.wire import (
    LegalEncoder,
    ObservationEncoder,
    decide_for,
    dumps_line,
    end_message,
    parse_ready_reply,
    parse_reply,
    start_line,
)
from .sandbox.bot_process import BotProcess, BotSandbox, SandboxError
from .sandbox.build import cached_build
from .sandbox.bundles import BundleError, Source, read_bundle
from .sandbox.cpu_wait import thread_run_delay
from .sandbox.isolation import Isolation


@dataclass
class SeatStats:
    """Decision times of one seat: ``total``/``longest`` are the CPU time charged (what the
    limits count), ``wall``/``wall_longest`` the monotonic clock around the exchanges,
    ``wait``/``wait_longest`` the part of it the bot was runnable but waiting for a CPU."""

    decisions: int = 0
    total: float = 0.0
    longest: float = 0.0
    late: int = 0  # decisions that drew on the bank
    bank_left: float | None = None  # None: no bank kept (a seat without limits)
    startup: float | None = None  # launch to "ready", for programs
    wall: float = 0.0
    wall_longest: float = 0.0
    wait: float = 0.0
    wait_longest: float = 0.0

    def add(self, cpu: float, wall: float | None = None, wait: float = 0.0) -> None:
        wall = cpu if wall is None else wall
        self.decisions += 1
        self.total += cpu
        self.longest = max(self.longest, cpu)
        self.wall += wall
        self.wall_longest = max(self.wall_longest, wall)
        self.wait += wait
        self.wait_longest = max(self.wait_longest, wait)

    def draw(self, cpu: float, limit: float) -> None:
        """Draw a decision's CPU time over ``limit`` from the bank (only CPU time is drawn:
        neither sleeping nor waiting for a CPU spends it)."""
        if cpu > limit and self.bank_left is not None:
            self.late += 1
            self.bank_left = max(0.0, self.bank_left - (cpu - limit))

    def to_json(self) -> dict[str, Any]:
        mean = self.total / self.decisions if self.decisions else 0.0
        out: dict[str, Any] = {
            "decisions": self.decisions,
            "total": round(self.total, 6),
            "mean": round(mean, 6),
            "longest": round(self.longest, 6),
            "late": self.late,
            "wall": round(self.wall, 6),
            "wall_longest": round(self.wall_longest, 6),
            "wait": round(self.wait, 6),
            "wait_longest": round(self.wait_longest, 6),
        }
        if self.bank_left is not None:
            out["bank_left"] = round(self.bank_left, 6)
        if self.startup is not None:
            out["startup"] = round(self.startup, 6)
        return out


class BuiltinAgent:
    """An in-process built-in bot (``random``, ``greedy``, ``search-<seconds>s``), timed and
    judged like a program: the CPU time of this thread per decision, against the limit and
    the bank of ``limits``. A decision over them is a ``timeout`` fault, with the program's
    words, and the default policy plays the seat from then on. It runs in the worker's own
    thread, so it cannot be stopped mid-decision: it is judged when it answers, and its late
    answer is not played. Without ``limits`` (a caller that keeps no clock) it is only
    timed."""

    trusted = True

    def __init__(
        self, name: str, mode: str, seat: int, seed: int, *, limits: Limits | None = None
    ) -> None:
        self.name = name
        self.seat = seat
        self.bot = make_bot(name, mode, seat, seed)
        self.limits = limits
        self.stats = SeatStats(bank_left=None if limits is None else limits.bank_seconds)
        self.fault: Fault | None = None
        self.last_note: str | None = None
        self.last_seconds = 0.0
        self.last_cpu = 0.0
        self.last_wait = 0.0
        self.decision = 0

    def act(self, game: Game, seat: int) -> Action:
        if self.fault is not None:  # the default policy of a faulted seat
            self.last_seconds = self.last_cpu = self.last_wait = 0.0
            self.last_note = None
            return game.legal_actions(seat)[0]
        self.decision += 1
        bank = self.stats.bank_left
        started, cpu0, wait0 = time.monotonic(), time.thread_time(), thread_run_delay()
        choice = self.bot.act(game, seat)
        self.last_seconds = time.monotonic() - started
        self.last_cpu = time.thread_time() - cpu0
        self.last_wait = min(max(0.0, thread_run_delay() - wait0), self.last_seconds)
        self.stats.add(self.last_cpu, self.last_seconds, self.last_wait)
        self.last_note = getattr(self.bot, "last_note", None)
        if self.limits is not None and bank is not None:
            self.stats.draw(self.last_cpu, self.limits.decision_seconds)
            allowed = self.limits.decision_seconds + bank
            if self.last_cpu > allowed:
                self._time_out(game, allowed)
                return game.legal_actions(seat)[0]
        if not isinstance(choice, Action):
            legal = game.legal_actions(seat)
            choice = legal[choice] if isinstance(choice, int) else game.decode_action(choice)
        return choice

    def _time_out(self, game: Game, allowed: float) -> None:
        """The fault of a decision over its CPU time, as a program's (``BotProcess``)."""
        try:
            load = [round(x, 2) for x in os.getloadavg()]
        except OSError:
            load = []
        evidence = {"cpu": round(self.last_cpu, 6), "wall": round(self.last_seconds, 6),
                    "wait": round(self.last_wait, 6), "load": load}  # fmt: skip
        self.fault = Fault(
            seat=self.seat,
            kind=FaultKind.TIMEOUT,
            step=len(game.history),
            decision=self.decision,
            message=over_cpu_message(self.last_cpu, allowed),
            seconds=self.last_seconds,
            evidence=evidence,
        )
        self.last_note = None

    def close(self) -> None:
        self.bot.close()


@dataclass
class _Asked:
    """A decision sent to a bot whose answer is still to be taken (``ProgramAgent.ask``)."""

    legal: Sequence[Action]
    step: int  # the game's step when it was asked
    ceiling: float  # its wall-clock ceiling, before the time the bot waits for a CPU is added
    budgeted: bool  # the ceiling is what was left of the seat's wall budget for the match
    fault: BotFault | None = None  # the question could not be sent


class ProgramAgent:
    """A seat played by a sandboxed bot program."""

    trusted = True  # act() returns only actions it has checked to be legal

    def __init__(
        self,
        seat: int,
        bundle: Source,
        filename: str | None = None,
        *,
        limits: Limits | None = None,
        isolation: Isolation | None = None,
        name: str | None = None,
        sha256: str | None = None,
        wall_budget: float | None = None,
        stderr_sink: Callable[[bytes], None] | None = None,
    ) -> None:
        """``wall_budget``: wall-clock seconds, less the time the bot waited for a CPU, all of
        this seat's decisions may take in the match (``competition.limits.seat_wall_budget``);
        None: no budget beyond each decision's ceiling."""
        self.seat = seat
        self.limits = limits or Limits()
        self.isolation = isolation
        self.name = name or (filename or str(bundle) if not isinstance(bundle, bytes) else "bot")
        self.stats = SeatStats(bank_left=self.limits.bank_seconds)
        self.fault: Fault | None = None
        self.last_note: str | None = None
        self.last_marks: list[dict[str, Any]] | None = None  # workers/protocol/marks.py
        self.last_seconds = 0.0  # the last decision's round trip (0 on the default policy)
        self.last_cpu = 0.0  # the CPU time charged for it
        self.last_wait = 0.0  # the time it waited for a CPU (part of last_seconds, not charged)
        self.wall_left = wall_budget
        self.wall_budget = wall_budget
        self.bot_name: str | None = None  # the name the bot gives itself in its ready answer
        self.sandbox: BotSandbox | None = None
        self.process: BotProcess | None = None
        self._encoder: LegalEncoder | None = None
        self._observations: ObservationEncoder | None = None  # set by the ready answer
        self.protocol = 1  # the protocol version the bot chose in its ready answer
        self._asked: _Asked | None = None  # the question out (ask), awaiting its answer
        self._launched_at = 0.0
        self.launched_until = 0.0  # when its launch (unpack, start, `start` sent) ended
        self.decision = 0  # the bot's own decision number (its `decide.step`), 1 at the first
        self._started = False
        self._bundle, self._filename, self._sha256 = bundle, filename, sha256
        self._stderr_sink = stderr_sink  # sees the bot's stderr as it comes (play --verbose)

    # --- lifecycle ------------------------------------------------------------------------
    def launch(self, game: Game) -> None:
        """Unpack and start the program and send ``start``; the answer is awaited later so
        that every seat's program starts at the same time."""
        self._started = True
        self._encoder = LegalEncoder(game.codec)
        try:
            bundle, filename = self._bundle, self._filename
            if self._sha256 is not None:  # checked before anything of it is unpacked or built
                bundle, filename = read_bundle(bundle, filename)
                digest = hashlib.sha256(bundle).hexdigest()
                if digest != self._sha256:
                    raise BundleError(f"the bundle's sha256 is {digest}, expected {self._sha256}")
            self.sandbox = BotSandbox(
                bundle,
                filename,
                limits=self.limits,
                isolation=self.isolation,
                label=f"seat{self.seat}",
                builder=cached_build,
            )
            self._launched_at = time.monotonic()
            self.process = self.sandbox.start()
            self.process.stderr_sink = self._stderr_sink
        except (BundleError, SandboxError, OSError) as exc:
            self._record(game, BotFault(FaultKind.START_FAILED, str(exc)))
            return
        finally:
            self.launched_until = time.monotonic()
        self._pending_start = start_line(game, self.seat, self.limits)

    def await_ready(self, game: Game) -> None:
        """Send ``start`` and wait for the answer, within the startup limit counted from this
        seat's own launch (the runner starts every seat in a thread of its own, so no seat's
        window is spent waiting for another's bot)."""
        if self.process is None or self.fault is not None:
            return
        allowed = self.limits.startup_seconds + self.limits.startup_grace_seconds
        remaining = self._launched_at + allowed - time.monotonic()
        try:
            line, _ = self.process.exchange(self._pending_start, max(remaining, 0.001))
            ready = parse_ready_reply(line)
            self.bot_name = ready.name
            self._observations = ObservationEncoder(deltas=ready.deltas)
            self.protocol = ready.protocol
        except BotFault as fault:
            self._record(game, fault)
        self.stats.startup = time.monotonic() - self._launched_at

    def act(
        self, game: Game, seat: int, alongside: Sequence[ProgramAgent] = ()
    ) -> Action:
        """The seat's action now: its question is sent (unless ``ask`` sent it already) and
        its answer taken. ``alongside``: seats asked together with this one whose answers
        come later (``BotProcess.finish``)."""
        if not self._started:  # driven by engine.play.play_game, which knows no launch step
            self.launch(game)
            self.await_ready(game)
        self.ask(game, seat)
        return self._answer(game, seat, alongside)

    def ask(self, game: Game, seat: int) -> None:
        """Send the seat its ``decide`` now, ahead of its turn when the runner asks a
        simultaneous step's seats together (``Game.asked_together``); ``act`` takes the
        answer. Nothing if a question is already out, or the bot has faulted."""
        if self._asked is not None or self.process is None or self.fault is not None:
            return
        assert self._encoder is not None and self.stats.bank_left is not None
        legal = game.legal_actions(seat)
        limit, bank = self.limits.decision_seconds, self.stats.bank_left
        payload = decide_for(game, seat, legal, self._encoder, limit, bank, self._observations,
                             self.protocol)  # fmt: skip
        # Charged: CPU time, up to the limit plus the bank. The wall clock is a guard against
        # sleeping, stretched by the bot's wait for a CPU, and the seat's wall budget for the
        # match caps it (see competition.limits).
        ceiling = self.limits.wall_ceiling(bank)
        budgeted = self.wall_left is not None and self.wall_left < ceiling
        if budgeted:
            ceiling = max(self.wall_left or 0.0, 0.0)
        self.decision += 1
        asked = self._asked = _Asked(legal, len(game.history), ceiling, budgeted)
        try:
            if ceiling <= 0:
                raise BotFault(FaultKind.TIMEOUT, self._budget_message())
            self.process.begin(payload, ceiling, cpu_limit=limit + bank)
        except BotFault as fault:
            asked.fault = fault

    def _answer(self, game: Game, seat: int, alongside: Sequence[ProgramAgent]) -> Action:
        asked, self._asked = self._asked, None
        self.last_note = None
        self.last_marks = None
        self.last_seconds = self.last_cpu = self.last_wait = 0.0
        if asked is None or self.process is None:
            return game.legal_actions(seat)[0]  # the default policy of a faulted seat
        legal = asked.legal
        # asked early (other seats acted since): never changed, by Game.asked_together's contract
        if asked.step != len(game.history) and legal != game.legal_actions(seat):
            raise RuntimeError(f"seat {seat} was asked early, and its legal actions changed")
        elapsed, spent = 0.0, False
        bank_before = self.stats.bank_left or 0.0
        try:
            if asked.fault is not None:
                raise asked.fault
            others = [a.process for a in alongside if a is not self and a.process is not None]
            line, elapsed = self.process.finish(others)
            self._spend(self.process.last_cpu, elapsed, self.process.last_wait)
            spent = True
            reply = parse_reply(line, game.codec, self.limits.debug_chars)
            if reply.index is not None:
                if not 0 <= reply.index < len(legal):
                    raise BotFault(
                        FaultKind.ILLEGAL_ACTION,
                        f"index {reply.index} is out of range: {len(legal)} legal actions",
                    )
                action = legal[reply.index]
            else:
                action = reply.action  # type: ignore[assignment]
                try:
                    reason = game.illegal_reason(seat, action)
                except Exception as exc:  # an engine bug must not let a bot abort the match
                    reason = f"the engine could not check it ({type(exc).__name__}: {exc})"
                if reason is not None:
                    raise BotFault(FaultKind.ILLEGAL_ACTION, reason)
        except BotFault as fault:
            if spent:
                fault.seconds = elapsed
            else:  # a timeout or a death: the time was still used
                wait = self.process.last_wait
                self._spend(self.process.last_cpu, fault.seconds, wait)
                ceiling = asked.ceiling
                if fault.kind == FaultKind.TIMEOUT and fault.seconds - wait >= ceiling:
                    if asked.budgeted:
                        fault.message = self._budget_message()
                    elif self.process.last_cpu <= self.limits.decision_seconds + bank_before:
                        fault.message = self._ceiling_message(ceiling, bank_before, fault.seconds)
            self._record(game, fault)
            return legal[0]
        self.last_note = reply.debug
        self.last_marks = reply.marks
        return action

    def _budget_message(self) -> str:
        """Why a seat that used up its wall budget for the match timed out, in terms true of
        what it did: the wall clock its decisions took and how much of it they waited for a
        CPU, against the CPU time they used."""
        used, wait, cpu = self.stats.wall, self.stats.wait, self.stats.total  # the stopped one in
        budget = self.wall_budget or 0.0
        head = (
            f"its {self.decision} decisions took {used:.3f} s of wall-clock time in this match,"
            f" {wait:.3f} s of it waiting for a CPU: the rest is all of the {budget:.3f} s a"
            f" seat may take (the mode's bound of decisions x the limit + the bank)"
        )
        if slept(cpu, wait, used):
            return f"{head}, while using {cpu:.3f} s of CPU time: it slept or blocked"
        return f"{head}; they used {cpu:.3f} s of CPU time"

    def _ceiling_message(self, ceiling: float, bank: float, elapsed: float) -> str:
        """Why a decision that was stopped on the wall clock, not on its CPU time, timed out:
        the ceiling, and the figures it was judged on (CPU, wall, the wait for a CPU)."""
        factor, limit = self.limits.wall_factor, self.limits.decision_seconds
        floor = self.limits.wall_floor_seconds
        cpu, wait = self.last_cpu, self.last_wait
        idle = ": it slept or blocked" if slept(cpu, wait, elapsed) else ""
        return (
            f"no reply within its wall-clock ceiling of {ceiling:.3f} s ({factor:g} x the"
            f" {limit:g} s decision limit + {bank:.3f} s left in the bank, at least {floor:g} s)"
            f" plus the {wait:.3f} s it waited for a CPU; it used {cpu:.3f} s of CPU time in"
            f" {elapsed:.3f} s of wall-clock time{idle}"
        )

    def _spend(self, cpu: float, elapsed: float, wait: float = 0.0) -> None:
        """Charge a decision: CPU time over the decision limit is drawn from the bank. The
        wall clock is not charged; the seat's wall budget for the match counts it less the
        time the bot waited for a CPU."""
        self.last_seconds, self.last_cpu, self.last_wait = elapsed, cpu, wait
        self.stats.add(cpu, elapsed, wait)
        if self.wall_left is not None:
            self.wall_left -= max(0.0, elapsed - wait)
        self.stats.draw(cpu, self.limits.decision_seconds)

    def idle(self) -> None:
        """Between this seat's decisions: empty its stderr so a bot that logs while others
        think is never blocked on a full pipe (the runner calls it when the pipe has data)."""
        if self.process is not None and self.fault is None:
            self.process.drain_stderr()

    @property
    def stderr_fd(self) -> int | None:
        """The stderr pipe of a live bot, for the runner's one poll of every bot's."""
        if self.process is None or self.fault is not None:
            return None
        return self.process.stderr_fd

    def stderr_lines(self) -> list[str]:
        """The tail of what the bot wrote on stderr (after ``close``, which reads the pipe
        to its end once the bot exited: what it wrote at ``end`` included)."""
        if self.process is None:
            return []
        return self.process.stderr.lines()

    def finish(self, result: dict[str, Any]) -> None:
        """Send ``end`` (best effort) so the bot can log and exit."""
        if self.process is not None and self.fault is None:
            self.process.send(dumps_line(end_message(self.seat, result)))

    def close(self, grace: float = 0.0) -> None:
        """Let the program exit for up to ``grace`` seconds, then kill it and clean up."""
        if self.process is not None and grace > 0 and self.fault is None:
            self.process.wait_exit(grace)
        if self.sandbox is not None:
            self.sandbox.close()

    def _record(self, game: Game, fault: BotFault) -> None:
        stderr: list[str] = []
        if self.process is not None:
            self.process.kill()
            stderr = self.process.stderr.lines()
        self.fault = Fault(
            seat=self.seat,
            kind=fault.kind,
            step=len(game.history),
            decision=self.decision or None,
            message=fault.message,
            seconds=fault.seconds,
            stderr=stderr,
            evidence=fault.evidence,
        )
