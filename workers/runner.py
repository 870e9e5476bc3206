"""The match runner: one match from a plain spec to a plain outcome. No Django.

``run_match(spec)`` creates the game, gives each seat an agent (an in-process
built-in bot, or a bot program in the sandbox), drives the decision loop, and
returns a ``MatchOutcome``: the result, the action log, the faults, per-seat
timing, the configuration, timestamps, the isolation the bots had and, when
asked, the replay bytes. Whatever the bots do, the match finishes and every
bot process is gone when ``run_match`` returns.
"""

from __future__ import annotations

import functools
import select
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from typing import Any

from competition.faults import Fault, when_faulted
from competition.limits import Limits, seat_wall_budget
from competition.standing import fault_adjusted_result
from engine import ENGINE_VERSION, Action, ConfigError, Game, new_game
from engine.bots import builtin_names, is_builtin_bot
from replayfile.format import document_from_game, encode

from .agents import BuiltinAgent, ProgramAgent
from .protocol.wire import PROTOCOL_VERSION
from .sandbox.isolation import LAYERS, Isolation, detect_isolation

MAX_STEPS = 100_000
StepHook = Callable[[Game, int, Action, float], None]
# sees each decision as it is applied (``play --verbose``): the stored action record plus
# ``decision`` (the seat's own decision number) and ``bank_left``
DecisionHook = Callable[[dict[str, Any]], None]


@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat: a built-in bot by name, or a bundle file."""

    builtin: str | None = None
    bundle_path: str | None = None
    name: str | None = None  # display name, e.g. "alice/cats v3"
    version: str | None = None
    sha256: str | None = None  # when given, the bundle must match it
    bot_version_id: int | None = None  # the tournament's id, passed through
    bot_seed: int | None = None  # a built-in bot's own seed, when not the match seed (paired)

    def __post_init__(self) -> None:
        if (self.builtin is None) == (self.bundle_path is None):
            raise ConfigError("a seat is played by a built-in bot or a bundle, exactly one")
        if self.builtin is not None and not is_builtin_bot(self.builtin):
            raise ConfigError(
                f"unknown built-in bot {self.builtin!r}; built-in bots: {builtin_names()}"
            )

    @classmethod
    def parse(cls, value: str | Mapping[str, Any] | SeatSpec) -> SeatSpec:
        """``"random"``/``"greedy"``, a bundle path, or a mapping of the fields above."""
        if isinstance(value, SeatSpec):
            return value
        if isinstance(value, str):
            if is_builtin_bot(value):
                return cls(builtin=value)
            return cls(bundle_path=value)
        if not isinstance(value, Mapping):
            raise ConfigError(f"a seat is a bot name, a bundle path or an object, not {value!r}")
        keys = {"builtin", "bundle_path", "name", "version", "sha256", "bot_version_id",
                "bot_seed"}  # fmt: skip
        data = {k: value[k] for k in keys if value.get(k) is not None}
        if (
            "builtin" not in data
            and "bundle_path" not in data
            and isinstance(value.get("bot"), str)
        ):
            base = cls.parse(value["bot"])
            data["builtin" if base.builtin else "bundle_path"] = base.builtin or base.bundle_path
        return cls(**data)

    @property
    def label(self) -> str:
        return self.name or self.builtin or self.bundle_path or "?"

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}


@dataclass(frozen=True)
class MatchSpec:
    mode: str
    seats: tuple[SeatSpec, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    match_id: Any = None
    replay: bool = True  # build the replay bytes (needs the replays package's writer)
    # isolation layers bots must have: without one of them no bot starts (IsolationMissing)
    require_isolation: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> MatchSpec:
        """A spec from plain data. Besides ``limits`` (a mapping of ``Limits`` fields) the
        tournament's keys ``decision_time_limit``, ``time_bank`` and ``memory_limit_mb`` work."""
        for key in ("mode", "seats", "seed"):
            if key not in data:
                raise ConfigError(f"a match spec needs {key!r}")
        seats = data["seats"]
        if isinstance(seats, Sequence) and seats and isinstance(seats[0], Mapping):
            seats = sorted(seats, key=lambda s: s.get("seat", 0))
        required = tuple(data.get("require_isolation") or ())
        unknown = [name for name in required if name not in LAYERS]
        if unknown:
            raise ConfigError(
                f"require_isolation: unknown layer {unknown[0]!r} (one of {', '.join(LAYERS)})"
            )
        limits = Limits.from_json(data.get("limits")).override(
            decision_seconds=data.get("decision_time_limit"),
            bank_seconds=data.get("time_bank"),
            memory_mb=data.get("memory_limit_mb"),
        )
        return cls(
            mode=data["mode"],
            seats=tuple(SeatSpec.parse(s) for s in seats),
            seed=data["seed"],
            options=dict(data.get("options") or {}),
            limits=limits,
            match_id=data.get("match_id"),
            replay=bool(data.get("replay", True)),
            require_isolation=required,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "mode": self.mode,
            "seed": self.seed,
            "options": dict(self.options),
            "seats": [s.to_json() for s in self.seats],
            "limits": self.limits.to_json(),
            "replay": self.replay,
            "require_isolation": list(self.require_isolation),
        }


@dataclass
class MatchOutcome:
    """Everything the tournament and the replay writer need from one match. Plain data."""

    match_id: Any
    mode: str
    seed: int
    options: dict[str, Any]
    config: dict[str, Any]
    engine_version: str
    protocol_version: int
    players: list[dict[str, Any]]  # per seat: who played it
    seats: list[dict[str, Any]]  # per seat: score, rank, fault, time used, stderr log
    result: dict[str, Any]
    # {"step", "seat", "action", "seconds" (wall), "cpu" (charged), "wait" (for a CPU, not
    # charged), "note", "default"}
    actions: list[dict[str, Any]]
    faults: list[Fault]
    timing: list[dict[str, Any]]
    started_at: str
    ended_at: str
    duration: float
    network_isolation: bool
    isolation: dict[str, Any]
    warnings: list[str]
    limits: dict[str, Any]
    # wall seconds of the match's parts: starting the bots ("launch"), their ready answers
    # ("ready"), the decisions ("decisions"), the end message and closing ("close")
    phases: dict[str, float] = field(default_factory=dict)
    replay: bytes | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """JSON-serialisable; the replay bytes are left out (store them as a file)."""
        out = {k: v for k, v in self.__dict__.items() if k not in ("faults", "replay")}
        out["faults"] = [f.to_json() for f in self.faults]
        out["replay_bytes"] = len(self.replay) if self.replay is not None else None
        return out


def _utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


StderrSink = Callable[[int, bytes], None]


def _make_agents(
    spec: MatchSpec, isolation: Isolation | None, stderr_sink: StderrSink | None = None
) -> list[BuiltinAgent | ProgramAgent]:
    agents: list[BuiltinAgent | ProgramAgent] = []
    for seat, seat_spec in enumerate(spec.seats):
        if seat_spec.builtin is not None:
            bot_seed = spec.seed if seat_spec.bot_seed is None else seat_spec.bot_seed
            # a built-in bot is held to the limits of the bots it plays (workers.agents)
            agents.append(
                BuiltinAgent(seat_spec.builtin, spec.mode, seat, bot_seed, limits=spec.limits))
        else:
            agents.append(
                ProgramAgent(
                    seat,
                    seat_spec.bundle_path or "",
                    limits=spec.limits,
                    isolation=isolation,
                    name=seat_spec.label,
                    sha256=seat_spec.sha256,
                    wall_budget=seat_wall_budget(spec.mode, spec.limits),
                    stderr_sink=None if stderr_sink is None else partial(stderr_sink, seat),
                )
            )
    return agents


def _start_seat(agent: ProgramAgent, game: Game) -> None:
    """Launch one seat's bot and wait for its ``ready``, within its own startup window."""
    agent.launch(game)
    agent.await_ready(game)


def _in_parallel(calls: Sequence[Callable[[], None]], threads: ThreadPoolExecutor) -> None:
    """Run the calls at once on `threads` (they wait on processes, not on the CPU), and
    re-raise the first exception after all have ended. Starting and closing four bots one
    after another cost a match about 190 ms; side by side it costs the slowest one.

    The threads must outlive the bots they start: a bot is tied to the *thread* that forked
    it (PR_SET_PDEATHSIG fires when that thread ends), so `run_match` keeps its pool until
    every bot is closed."""
    if len(calls) <= 1:
        for call in calls:
            call()
        return
    futures = [threads.submit(call) for call in calls]
    wait(futures)
    for future in futures:
        future.result()


class _StderrWatch:
    """Empties the stderr of every bot that wrote some, so none blocks on a full pipe while
    the others play: one poll of all their pipes per step, a read only where there is data.
    The poll is made once for the match; a pipe leaves it when its bot's stops (end of file,
    a fault), so a number the process reuses for another file is never drained."""

    def __init__(self, programs: Sequence[ProgramAgent]) -> None:
        self._poll = select.poll()
        self._by_fd: dict[int, ProgramAgent] = {}
        for program in programs:
            fd = program.stderr_fd
            if fd is not None:
                self._poll.register(fd, select.POLLIN)
                self._by_fd[fd] = program

    def drain(self) -> None:
        if not self._by_fd:
            return
        for fd, _ in self._poll.poll(0):
            program = self._by_fd.get(fd)
            if program is not None and program.stderr_fd == fd:
                program.idle()
                if program.stderr_fd == fd:
                    continue
            self._poll.unregister(fd)
            self._by_fd.pop(fd, None)


def _close_all(
    agents: Sequence[BuiltinAgent | ProgramAgent], grace: float, threads: ThreadPoolExecutor
) -> None:
    """Close every seat's bot side by side, each with the same end grace."""
    deadline = time.monotonic() + grace

    def closer(agent: BuiltinAgent | ProgramAgent) -> Callable[[], None]:
        if isinstance(agent, ProgramAgent):
            return lambda: agent.close(grace=max(0.0, deadline - time.monotonic()))
        return agent.close

    _in_parallel([closer(a) for a in agents], threads)


def _ask_together(
    game: Game, agents: Sequence[BuiltinAgent | ProgramAgent]
) -> list[ProgramAgent]:
    """Send every bot program of the seats that may be asked together now
    (``Game.asked_together``: a simultaneous step) its question, the seat due first first;
    the others think while it does and their answers are taken at their turns. Returns the
    programs asked beyond the first seat, to be watched while the first is awaited.

    The order of the actions, and so the game and its replay, is the same as when the seats
    are asked one after another: only the waiting overlaps. In a 4-player game about half of
    the decisions are in such steps."""
    together = game.asked_together()
    programs = [(s, a) for s in together if isinstance(a := agents[s], ProgramAgent)]
    for seat, agent in programs:
        agent.ask(game, seat)
    return [a for s, a in programs if s != together[0]]


def _start_programs(
    agents: Sequence[BuiltinAgent | ProgramAgent], game: Game, threads: ThreadPoolExecutor
) -> tuple[list[ProgramAgent], dict[str, float]]:
    """Start every bot program; returns them and the moments launching and readiness ended.

    Each seat is launched, sent `start` and awaited in a thread of its own: every bot gets its
    own full startup window, and one that stalls costs no other seat time."""
    launched = [a for a in agents if isinstance(a, ProgramAgent)]
    _in_parallel([functools.partial(_start_seat, a, game) for a in launched], threads)
    marks = {"launch": max((a.launched_until for a in launched), default=time.monotonic())}
    marks["ready"] = max(time.monotonic(), marks["launch"])
    return launched, marks


def _decide(
    game: Game, agents: Sequence[BuiltinAgent | ProgramAgent], ask_together: bool
) -> tuple[int, Action]:
    """The seat due first and its action; a program in a simultaneous step is asked with
    the other programs of that step (``_ask_together``)."""
    pending = game.pending()
    if not pending:
        raise RuntimeError("the game is not over but no seat is pending")
    seat = pending[0]
    agent = agents[seat]
    if ask_together and len(pending) > 1 and isinstance(agent, ProgramAgent):
        return seat, agent.act(game, seat, _ask_together(game, agents))
    return seat, agent.act(game, seat)


def _decision_record(
    game: Game, seat: int, agent: BuiltinAgent | ProgramAgent, action: Action, seconds: float
) -> dict[str, Any]:
    """The stored record of one decision, made before the action is applied (its step is
    the game's history length then)."""
    record = {
        "step": len(game.history),
        "seat": seat,
        "action": game.encode_action(action),
        "seconds": round(seconds, 6),
        "cpu": round(agent.last_cpu, 6),
        "wait": round(agent.last_wait, 6),
    }
    if agent.last_note:
        record["note"] = agent.last_note
    bot_marks = getattr(agent, "last_marks", None)
    if bot_marks:
        record["marks"] = bot_marks  # kept apart from the replay: tournament/services/marks
    if agent.fault is not None:  # the default policy played for a faulted seat
        record["default"] = True
    return record


def _play_out(
    game: Game,
    agents: Sequence[BuiltinAgent | ProgramAgent],
    stderr: _StderrWatch,
    *,
    ask_together: bool,
    on_step: StepHook | None,
    on_decision: DecisionHook | None,
) -> list[dict[str, Any]]:
    """Drive the decision loop to the end of the game; returns the action records."""
    actions: list[dict[str, Any]] = []
    decided = [0] * len(agents)  # each seat's decisions so far (for on_decision)
    while not game.is_over():
        seat, action = _decide(game, agents, ask_together)
        agent = agents[seat]
        seconds = agent.last_seconds
        record = _decision_record(game, seat, agent, action, seconds)
        game.apply_unchecked(seat, action)
        actions.append(record)
        stderr.drain()
        if on_step is not None:
            on_step(game, seat, action, seconds)
        if on_decision is not None:
            decided[seat] += 1
            on_decision({**record, "decision": decided[seat], "bank_left": agent.stats.bank_left})
        if len(actions) > MAX_STEPS:
            raise RuntimeError(f"the game did not end within {MAX_STEPS} steps")
    return actions


def _phase_seconds(marks: Mapping[str, float], t0: float) -> dict[str, float]:
    """How long each phase of the match took: from the previous mark (the first from t0)."""
    phases, before = {}, t0
    for name, at in marks.items():
        phases[name], before = round(at - before, 6), at
    return phases


def run_match(
    spec: MatchSpec | Mapping[str, Any],
    *,
    isolation: Isolation | None = None,
    on_step: StepHook | None = None,
    stderr_sink: StderrSink | None = None,
    ask_together: bool = True,
    on_decision: DecisionHook | None = None,
) -> MatchOutcome:
    """Play one match to the end. Bot faults are recorded, never raised; a ``ConfigError``
    means the spec itself is wrong. ``isolation`` overrides the machine's detected layers;
    ``stderr_sink(seat, chunk)`` sees each bot program's stderr as it is read;
    ``on_decision(record)`` each decision with its time, the bank left and the debug note;
    ``ask_together=False`` asks the seats of a simultaneous step one after another (the
    benchmark's comparison: the game is the same either way). A match with bot programs
    raises ``IsolationMissing`` before any of them starts when a layer of
    ``spec.require_isolation`` is missing (fail closed)."""
    if not isinstance(spec, MatchSpec):
        spec = MatchSpec.from_json(spec)
    game = new_game(spec.mode, len(spec.seats), spec.seed, spec.options)
    programs = any(s.bundle_path is not None for s in spec.seats)
    iso = isolation if isolation is not None else detect_isolation()
    if programs:
        iso.require(spec.require_isolation)
    started_at, t0 = _utc_now(), time.monotonic()
    agents = _make_agents(spec, iso, stderr_sink)
    threads = ThreadPoolExecutor(max_workers=max(1, len(agents)), thread_name_prefix="bot")
    try:
        launched, marks = _start_programs(agents, game, threads)
        actions = _play_out(game, agents, _StderrWatch(launched), ask_together=ask_together,
                            on_step=on_step, on_decision=on_decision)
        board_result = game.result()
        marks["decisions"] = time.monotonic()
        # a seat that faulted loses (competition/standing.py; `arena verify` applies the same rule)
        result = fault_adjusted_result(
            board_result, [a.fault.to_json() for a in agents if a.fault is not None]
        )
        for program in launched:
            program.finish(result)
    finally:
        try:
            _close_all(agents, spec.limits.end_grace_seconds, threads)
        finally:
            threads.shutdown(wait=True)
    ended_at = _utc_now()
    marks["close"] = time.monotonic()
    outcome = MatchOutcome(
        match_id=spec.match_id,
        mode=spec.mode,
        seed=spec.seed,
        options=dict(spec.options),
        config=game.config,
        engine_version=ENGINE_VERSION,
        protocol_version=PROTOCOL_VERSION,
        players=_players(spec, agents),
        seats=_seat_summaries(result, agents),
        result=result,
        actions=actions,
        faults=[a.fault for a in agents if a.fault is not None],
        timing=[a.stats.to_json() for a in agents],
        started_at=started_at,
        ended_at=ended_at,
        duration=round(time.monotonic() - t0, 6),
        network_isolation=iso.network,
        isolation=iso.to_json(),
        warnings=iso.warnings() if programs else [],
        limits=spec.limits.to_json(),
        phases=_phase_seconds(marks, t0),
    )
    if spec.replay:
        outcome.replay = _replay_bytes(game, outcome)
    return outcome


def _players(
    spec: MatchSpec, agents: Sequence[BuiltinAgent | ProgramAgent]
) -> list[dict[str, Any]]:
    out = []
    for seat, (s, agent) in enumerate(zip(spec.seats, agents, strict=True)):
        row: dict[str, Any] = {
            "seat": seat,
            "bot": s.label,
            "version": s.version,
            "sha256": s.sha256,
            "kind": "builtin" if s.builtin else "program",
        }
        if s.bot_version_id is not None:
            row["bot_version_id"] = s.bot_version_id
        if isinstance(agent, ProgramAgent):
            if agent.sandbox is not None:
                row["sha256"] = agent.sandbox.info.sha256
            if agent.bot_name:
                row["self_name"] = agent.bot_name
            if agent.protocol != PROTOCOL_VERSION:  # the version it chose in its ready answer
                row["protocol"] = agent.protocol
        out.append(row)
    return out


def _seat_summaries(
    result: Mapping[str, Any], agents: Sequence[BuiltinAgent | ProgramAgent]
) -> list[dict[str, Any]]:
    """The per-seat view the tournament records (score, rank, fault, time used, log). The
    rank is the one faults give (a faulted seat ranks below every seat that did not fault);
    the score is the board's, shown with the fault. The log is the tail of the bot's stderr
    to the end of the match, what it wrote after ``end`` included."""
    scores, ranks = result.get("scores") or [], result.get("ranks") or []
    out = []
    for seat, agent in enumerate(agents):
        fault = agent.fault
        log = "\n".join(agent.stderr_lines()) if isinstance(agent, ProgramAgent) else ""
        out.append(
            {
                "seat": seat,
                "score": scores[seat] if seat < len(scores) else None,
                "rank": ranks[seat] if seat < len(ranks) else None,
                "fault": fault.kind.value if fault else "",
                "fault_detail": _fault_detail(fault),
                "fault_step": fault.step if fault else None,
                "fault_decision": fault.decision if fault else None,
                "fault_evidence": fault.evidence if fault else None,
                "time_used": round(agent.stats.total, 6),
                "log": log,
            }
        )
    return out


def _fault_detail(fault: Fault | None) -> str:
    """What happened and when, in the bot's own terms ("at its 3rd decision"), never by the
    game's action count (which would tell other seats' hidden answers)."""
    if fault is None:
        return ""
    return f"{fault.message} ({when_faulted(fault.decision)})"


def _replay_bytes(game: Game, outcome: MatchOutcome) -> bytes | None:
    """The replay file, written with the pure writer of ``replayfile.format``."""
    header = {
        "players": [
            {k: p.get(k) for k in ("seat", "bot", "version", "sha256")} for p in outcome.players
        ],
        "time_limits": outcome.limits,
        "started_at": outcome.started_at,
        "ended_at": outcome.ended_at,
        "match_id": outcome.match_id,
    }
    doc = document_from_game(
        game,
        outcome.actions,
        header,
        faults=[f.to_json() for f in outcome.faults],
        result=outcome.result,  # the standing the faults give, which `arena verify` re-derives
    )
    return encode(doc)
