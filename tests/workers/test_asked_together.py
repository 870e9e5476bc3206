"""The seats of a simultaneous step are asked together (``workers.runner._ask_together``).

Every bot of a draft, a buying step or a choice of rescue cards gets its question when the step
begins and thinks while the seat before it does; the answers are still taken, and applied, in
the order of the seats. These tests play 4-player standard games of sandboxed bots and show:
the game is the same as asking one seat after another; the questions really go out before the
first answer; a bot's wall clock stops when its answer arrives, not when its turn comes; and a
bot that loops while another seat thinks is stopped and faulted without harming the match.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from competition.faults import FaultKind
from competition.limits import Limits
from workers.runner import MatchSpec, SeatSpec, run_match
from workers.sandbox.bot_process import BotProcess
from workers.sandbox.isolation import Isolation

from .conftest import EXAMPLES

pytestmark = pytest.mark.usefixtures("worker_guard")
RANDOM = str(EXAMPLES / "random_bot.py")

# A bot for the timing tests: at its first draft pick, seat 0 sleeps SLEEP seconds before it
# answers (or, given a FLAG file, waits for it to exist) and seat 1 does what BEHAVIOUR says
# ("answer": at once, then it makes FLAG); every other decision is answered at once.
SLOW_FIRST_SEAT = """
import json, os, sys, time
BEHAVIOUR, FLAG = {behaviour!r}, {flag!r}
seat, drafted, flag_now = None, False, False
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        seat = message["seat"]
        reply = {{"ready": True}}
    elif message["type"] == "decide":
        if message["observation"]["decision"]["decision"] == "draft" and not drafted:
            drafted = True
            if seat == 0 and FLAG:
                deadline = time.monotonic() + 120
                while not os.path.exists(FLAG) and time.monotonic() < deadline:
                    time.sleep(0.005)
            elif seat == 0:
                time.sleep({sleep})
            elif seat == 1 and BEHAVIOUR == "answer":
                flag_now = bool(FLAG)
            elif seat == 1 and BEHAVIOUR == "loop":
                while True:
                    pass
            elif seat == 1 and BEHAVIOUR == "exit":
                sys.exit(3)
            elif seat == 1 and BEHAVIOUR == "flood":
                while True:
                    sys.stdout.write("x" * 65536)
        reply = {{"index": 0}}
    else:
        break
    sys.stdout.write(json.dumps(reply) + "\\n")
    sys.stdout.flush()
    if flag_now:
        flag_now = False
        open(FLAG, "w").close()
"""


def _spec(seats: list[str], limits: Limits | None = None, seed: int = 3) -> MatchSpec:
    return MatchSpec(
        mode="standard", seats=tuple(SeatSpec.parse(s) for s in seats), seed=seed,
        limits=limits or Limits(), replay=False,
    )  # fmt: skip


def _bot(tmp_path: Path, behaviour: str, sleep: float, flag: str = "") -> str:
    path = tmp_path / f"{behaviour}.py"
    path.write_text(SLOW_FIRST_SEAT.format(behaviour=behaviour, sleep=sleep, flag=flag))
    return str(path)


def test_the_game_is_the_same_as_asking_one_seat_after_another() -> None:
    for seed in (1, 2):
        together = run_match(_spec([RANDOM] * 4, seed=seed))
        apart = run_match(_spec([RANDOM] * 4, seed=seed), ask_together=False)
        assert not together.faults and not apart.faults
        assert [a["action"] for a in together.actions] == [a["action"] for a in apart.actions]
        assert [a["seat"] for a in together.actions] == [a["seat"] for a in apart.actions]
        assert together.result == apart.result


def _spy(monkeypatch: pytest.MonkeyPatch, name: str, log: list[tuple[str, int]]) -> None:
    original: Callable[..., Any] = getattr(BotProcess, name)

    def spied(self: BotProcess, *args: Any, **kwargs: Any) -> Any:
        log.append((name, self.pid))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(BotProcess, name, spied)


def test_every_seat_of_a_draft_is_asked_before_the_first_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    log: list[tuple[str, int]] = []
    _spy(monkeypatch, "begin", log)
    _spy(monkeypatch, "finish", log)
    outcome = run_match(_spec([RANDOM] * 4))
    assert not outcome.faults
    # The four `start` exchanges come first, each seat in a thread of its own (its own
    # startup window), in any order; the decisions follow.
    startup = 2 * 4
    assert sorted(n for n, _ in log[:startup]) == ["begin"] * 4 + ["finish"] * 4
    # somewhere in the game four questions go out in a row: a draft round's
    runs, run = [], 0
    for name, _ in log[startup:]:
        run = run + 1 if name == "begin" else 0
        runs.append(run)
    assert max(runs) == 4
    # and one after another, each question is followed by its answer
    apart: list[tuple[str, int]] = []
    monkeypatch.undo()
    _spy(monkeypatch, "begin", apart)
    _spy(monkeypatch, "finish", apart)
    run_match(_spec([RANDOM] * 4), ask_together=False)
    decisions = [n for n, _ in apart[startup:]]
    assert decisions == ["begin", "finish"] * (len(decisions) // 2)


def test_a_seat_is_charged_until_its_answer_arrives_not_until_its_turn(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On its first draft pick seat 0 answers only once seat 1 has answered (seat 1 makes a
    file after its answer, which seat 0 waits for: no isolation, so both see it). Seat 1's
    wall clock stops when its answer arrives: by the time seat 0's answer is taken, seat 1's
    has been seen, and seat 1 is charged less than seat 0, asked before it."""
    flag = tmp_path / "seat1-answered"
    bot = _bot(tmp_path, "answer", 0.0, str(flag))
    seen: list[bool] = []  # at seat 0's answers in a draft: whether seat 1's was seen before
    own_clock: list[float] = []  # seat 1's seconds from its question to the sight of its answer
    original = BotProcess.finish

    def finish(self: BotProcess, alongside: Any = ()) -> tuple[bytes, float]:
        result = original(self, alongside)
        if len(alongside) == 3:  # seat 0, asked with seats 1, 2 and 3 (in this order)
            other = alongside[0]
            seen.append(other._reply_seen_at is not None)
            if other._reply_seen_at is not None:
                own_clock.append(other._reply_seen_at - other._ask.started)
        return result

    monkeypatch.setattr(BotProcess, "finish", finish)
    limits = Limits(decision_seconds=60.0, bank_seconds=60.0)  # seat 0 waits on seat 1
    outcome = run_match(_spec([bot, bot, RANDOM, RANDOM], limits), isolation=Isolation())
    assert not outcome.faults and flag.exists()
    drafts = [i for i, a in enumerate(outcome.actions) if a["action"]["kind"] == "keep"]
    slow = [outcome.actions[i] for i in drafts if outcome.actions[i]["seat"] == 0]
    quick = [outcome.actions[i] for i in drafts if outcome.actions[i]["seat"] == 1]
    assert seen and seen[0], seen  # the first draft: seat 1's answer seen before its turn
    # seat 1 is charged up to the moment its answer arrived, not up to its turn to be read
    # after seat 0 (which answers only once seat 1 has): the same instants, not a race
    assert quick[0]["seconds"] == pytest.approx(own_clock[0], abs=1e-6), (quick[0], own_clock)
    assert len(slow) == len(quick)


def test_a_bot_that_loops_while_another_seat_thinks_is_stopped_and_faulted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seat 1 loops on its first draft pick while seat 0 sleeps longer than seat 1's CPU
    limit: seat 1 is stopped while seat 0 is awaited, faulted at its turn with the usual
    timeout, and the match ends normally."""
    stopped: list[int] = []
    original = BotProcess._checked_while_waiting

    def spied(self: BotProcess, selector: Any) -> bool:
        done = original(self, selector)
        if done and self._early_fault is not None:
            stopped.append(self.pid)
        return done

    monkeypatch.setattr(BotProcess, "_checked_while_waiting", spied)
    bot = _bot(tmp_path, "loop", 2.0)  # seat 0's ceiling: 10 s of wall clock (the floor)
    limits = Limits(decision_seconds=0.3, bank_seconds=0.0, wall_factor=10.0)
    outcome = run_match(_spec([bot, bot, RANDOM, RANDOM], limits))
    assert [f.seat for f in outcome.faults] == [1]
    fault = outcome.faults[0]
    assert fault.kind == FaultKind.TIMEOUT
    assert "CPU time" in fault.message
    assert stopped, "seat 1 was only stopped at its own turn"
    assert outcome.result["scores"] and len(outcome.seats) == 4


@pytest.mark.parametrize(
    ("behaviour", "kind"),
    [("exit", FaultKind.CRASH), ("flood", FaultKind.BAD_OUTPUT)],
)
def test_a_bot_that_dies_or_floods_while_another_seat_thinks_is_faulted_at_its_turn(
    tmp_path: Path, behaviour: str, kind: FaultKind
) -> None:
    """Seat 1 exits, or writes without end, on its first draft pick while seat 0 still
    sleeps: its fault is recorded at its turn and the match ends normally."""
    bot = _bot(tmp_path, behaviour, 0.5)
    limits = Limits(decision_seconds=1.0, bank_seconds=1.0)
    outcome = run_match(_spec([bot, bot, RANDOM, RANDOM], limits))
    assert [(f.seat, f.kind) for f in outcome.faults] == [(1, kind)]
    picks = [a for a in outcome.actions if a["action"]["kind"] == "keep" and a["seat"] == 1]
    first_pick = picks[0]
    assert first_pick.get("default") is True
    assert outcome.result["scores"] and len(outcome.seats) == 4
