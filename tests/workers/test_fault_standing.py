"""Faults count: a seat that faults ranks below every seat that did not, the replay
carries that standing and `arena verify` re-derives it; every seat has its own startup window;
a bot that sleeps keeps its bank (only CPU time draws on it) and is faulted on the wall clock
with a message true of what it did; the kept stderr runs to the bot's end."""

from __future__ import annotations

from pathlib import Path

import pytest

from competition.faults import FaultKind, when_faulted
from competition.limits import Limits
from competition.standing import fault_adjusted_result, fault_ranks
from replayfile.format import decode, encode
from replayfile.verify import verify_document
from workers.runner import MatchSpec, SeatSpec, run_match

from .conftest import EXAMPLES, FAST, hostile

RANDOM_BOT = str(EXAMPLES / "random_bot.py")
HEURISTIC_BOT = str(EXAMPLES / "heuristic_bot.py")


# --- the rule ------------------------------------------------------------------------------


def test_faulted_seats_rank_below_every_other_and_by_when_they_faulted() -> None:
    assert fault_ranks([1, 2, 3, 4], {}) == [1, 2, 3, 4]
    # the winner on the board faulted: last; the others move up in their own order
    assert fault_ranks([1, 2, 3, 4], {0: 40}) == [4, 1, 2, 3]
    # two faults: the earlier one is worse; ties among the others stay ties
    assert fault_ranks([2, 1, 1, 4], {0: 10, 3: 30}) == [4, 1, 1, 3]
    # faults at the same step tie
    assert fault_ranks([2, 1, 3, 4], {1: 5, 2: 5}) == [1, 3, 3, 2]


def test_the_adjusted_result_keeps_the_board_and_names_no_faulted_winner() -> None:
    board = {"scores": [50, 40, 30], "ranks": [1, 2, 3], "winners": [0]}
    out = fault_adjusted_result(board, [{"seat": 0, "step": 7}])
    assert out["scores"] == [50, 40, 30] and out["board_ranks"] == [1, 2, 3]
    assert out["ranks"] == [3, 1, 2] and out["winners"] == [1] and out["faulted"] == [0]
    solo = {"scores": [60], "ranks": [1], "winners": [0], "won": True, "margin": 5}
    lost = fault_adjusted_result(solo, [{"seat": 0, "step": 3}])
    assert (lost["won"], lost["ranks"], lost["winners"], lost["margin"]) == (False, [2], [], 5)
    assert fault_adjusted_result(board, []) == board


def test_when_a_bot_faulted_is_told_by_its_own_decisions() -> None:
    assert when_faulted(None) == "at startup"
    assert [when_faulted(n) for n in (1, 2, 3, 12, 21)] == [
        "at its 1st decision", "at its 2nd decision", "at its 3rd decision",
        "at its 12th decision", "at its 21st decision",
    ]  # fmt: skip


# --- the runner ----------------------------------------------------------------------------


def four_player(seats: list[str], seed: int, limits: Limits = FAST, replay: bool = True):
    spec = MatchSpec(mode="standard", seats=tuple(SeatSpec.parse(s) for s in seats), seed=seed,
                     limits=limits, replay=replay)  # fmt: skip
    return run_match(spec)


def test_a_seat_that_crashes_ranks_4th_with_its_board_score_and_the_replay_agrees() -> None:
    crasher = hostile("exits_off_seat0")
    outcome = four_player(["random", "greedy", crasher, "random"], seed=11)
    assert [(f.seat, f.kind, f.decision) for f in outcome.faults] == [(2, FaultKind.CRASH, 1)]
    assert outcome.result["ranks"][2] == 4 and outcome.result["faulted"] == [2]
    assert sorted(outcome.result["ranks"][:2] + outcome.result["ranks"][3:]) in (
        [1, 2, 3], [1, 1, 3], [1, 2, 2], [1, 1, 1],
    )  # fmt: skip
    seat = outcome.seats[2]
    assert seat["rank"] == 4 and seat["fault"] == "crash" and seat["score"] is not None
    assert seat["fault_decision"] == 1 and "giving up in seat 2" in seat["log"]
    # the default policy finished the game: its moves are logged and marked
    assert any(a["seat"] == 2 and a.get("default") for a in outcome.actions)
    # the replay carries the same standing, and verification re-derives it
    doc = decode(outcome.replay)
    assert doc["result"]["ranks"] == outcome.result["ranks"]
    verdict = verify_document(doc)
    assert verdict.ok, verdict.message
    assert "faulted seats ranked last" in verdict.message
    # a replay claiming the engine's ranks (the faulted seat credited) does not verify
    doc["result"]["ranks"] = doc["result"]["board_ranks"]
    tampered = verify_document(decode(encode(doc)))
    assert not tampered.ok and "result.ranks" in tampered.message


def test_a_bot_that_never_answers_start_costs_no_other_seat_its_window() -> None:
    """Seat 0 never answers `start`; the three others are honest example bots. Each seat has
    its own startup window, so over 20 matches only seat 0 is ever faulted. Each match waits
    out seat 0's window, so it is short: half a second, ten times what an example bot takes to
    be ready."""
    limits = FAST.override(startup_seconds=0.5)
    others_faulted = []
    for seed in range(20):
        outcome = four_player(
            [hostile("silent_start"), RANDOM_BOT, HEURISTIC_BOT, RANDOM_BOT], seed, limits,
            replay=False,
        )  # fmt: skip
        assert [(f.seat, f.kind, f.decision) for f in outcome.faults] == [
            (0, FaultKind.TIMEOUT, None)
        ], outcome.faults
        others_faulted += [f for f in outcome.faults if f.seat != 0]
        assert outcome.result["ranks"][0] == 4
    assert others_faulted == []


SLOWING_SLEEPER = """
import json, sys, time
decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        decisions += 1
        time.sleep(0.9 if decisions < 3 else 30)
        print('{"index": 0}', flush=True)
"""


@pytest.mark.usefixtures("tiny_mode")
def test_a_bot_that_sleeps_keeps_its_bank_and_is_told_it_slept(tmp_path: Path) -> None:
    """0.3 s decisions with a 0.4 s bank: the wall-clock guard is 5 x 0.3 s + the bank,
    1.9 s. A bot that sleeps 0.9 s at its first two decisions stays under it and spends no
    bank (sleeping is not charged); at its 3rd it sleeps past it and is stopped, told it
    slept, with the figures, and nothing about a budget left over."""
    path = tmp_path / "sleeper.py"
    path.write_text(SLOWING_SLEEPER)
    limits = FAST.override(bank_seconds=0.4)
    assert limits.wall_ceiling(0.4) == pytest.approx(1.9)
    spec = MatchSpec(mode="tiny", seats=(SeatSpec.parse(str(path)), SeatSpec.parse("random")),
                     seed=3, options={"rounds": 8}, limits=limits, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert [(f.seat, f.kind) for f in outcome.faults] == [(0, FaultKind.TIMEOUT)]
    fault = outcome.faults[0]
    assert fault.decision == 3
    assert fault.evidence is not None and fault.evidence["wall"] >= 1.9
    assert "wall-clock ceiling of 1.900 s" in fault.message
    assert "s it waited for a CPU; it used" in fault.message
    assert fault.message.endswith("of wall-clock time: it slept or blocked")
    assert "left" not in fault.message.split("bank")[-1]  # no "budget ... s left" twist
    timing = outcome.timing[0]
    assert timing["late"] == 0 and timing["bank_left"] == pytest.approx(0.4)
    assert outcome.result["ranks"] == [2, 1]


@pytest.mark.usefixtures("tiny_mode")
def test_the_kept_stderr_includes_what_a_bot_writes_at_end() -> None:
    spec = MatchSpec(mode="tiny", seats=(SeatSpec.parse(RANDOM_BOT), SeatSpec.parse("random")),
                     seed=3, options={"rounds": 3}, limits=FAST, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == []
    assert "final scores:" in outcome.seats[0]["log"]


@pytest.mark.usefixtures("tiny_mode")
def test_a_bot_that_lingers_after_end_costs_the_others_nothing() -> None:
    """`end` goes to every seat and each exits (or is killed) side by side: the bot that
    lingers is not a fault, and the other still gets to write its last words."""
    spec = MatchSpec(mode="tiny", seats=(SeatSpec.parse(hostile("lingers_at_end")),
                                         SeatSpec.parse(RANDOM_BOT)),
                     seed=3, options={"rounds": 3}, limits=FAST, replay=False)  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == []
    assert "final scores:" in outcome.seats[1]["log"]
