"""The match runner: specs in both shapes, outcomes as plain data, determinism, faults that
happen before the first move, and the tournament's adapter reading the outcome."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from competition.faults import FaultKind
from competition.limits import Limits
from engine import ConfigError
from workers.runner import MatchSpec, SeatSpec, run_match

from .conftest import EXAMPLES, FAST, make_zip

pytestmark = pytest.mark.usefixtures("tiny_mode", "worker_guard")
RANDOM = str(EXAMPLES / "random_bot.py")


def spec(*seats: str, **extra: object) -> MatchSpec:
    return MatchSpec(
        mode="tiny",
        seats=tuple(SeatSpec.parse(s) for s in seats),
        seed=9,
        options={"rounds": 5},
        limits=FAST,
        **extra,
    )  # type: ignore[arg-type]


def test_tournament_spec_shape_is_accepted() -> None:
    data = {
        "match_id": 12, "mode": "tiny", "seed": 4, "options": {"rounds": 2},
        "decision_time_limit": 0.5, "time_bank": 3.0, "memory_limit_mb": 128,
        "seats": [
            {"seat": 1, "bot_version_id": 8, "name": "alice/cats v2", "builtin": None,
             "bundle_path": "/data/bots/a.zip", "bundle_kind": "zip", "sha256": "ab" * 32},
            {"seat": 0, "bot_version_id": 3, "name": "random v1", "builtin": "random",
             "bundle_path": None, "bundle_kind": None, "sha256": None},
        ],
    }  # fmt: skip
    parsed = MatchSpec.from_json(data)
    assert parsed.match_id == 12 and parsed.options == {"rounds": 2}
    assert parsed.seats[0] == SeatSpec(builtin="random", name="random v1", bot_version_id=3)
    assert parsed.seats[1].bundle_path == "/data/bots/a.zip"
    assert parsed.seats[1].sha256 == "ab" * 32
    assert (parsed.limits.decision_seconds, parsed.limits.bank_seconds) == (0.5, 3.0)
    assert parsed.limits.memory_mb == 128
    assert MatchSpec.from_json(parsed.to_json()) == parsed


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"builtin": "random", "bundle_path": "x.py"}, "exactly one"),
        ({}, "exactly one"),
        ({"builtin": "clever"}, "unknown built-in bot 'clever'"),
        (7, "a seat is a bot name"),
    ],
)
def test_bad_seats(value: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        SeatSpec.parse(value)  # type: ignore[arg-type]


def test_seat_parse_shorthands() -> None:
    assert SeatSpec.parse("greedy") == SeatSpec(builtin="greedy")
    assert SeatSpec.parse("bots/mine.py") == SeatSpec(bundle_path="bots/mine.py")
    assert SeatSpec.parse({"bot": "random", "name": "R"}) == SeatSpec(builtin="random", name="R")


def test_bad_spec_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="needs 'seed'"):
        MatchSpec.from_json({"mode": "tiny", "seats": ["random"]})
    with pytest.raises(ConfigError, match="unknown mode"):
        run_match({"mode": "chess", "seats": ["random"], "seed": 1})


def test_outcome_of_a_match_with_programs_and_builtins() -> None:
    outcome = run_match(spec(RANDOM, "random"))
    assert outcome.faults == [] and len(outcome.actions) == 10
    assert outcome.result["scores"] == [outcome.seats[s]["score"] for s in range(2)]
    assert [p["kind"] for p in outcome.players] == ["program", "builtin"]
    assert outcome.players[0]["self_name"] == "random starter"
    assert len(outcome.players[0]["sha256"]) == 64
    assert outcome.timing[0]["decisions"] == 5 and outcome.timing[0]["bank_left"] == 1.0
    assert outcome.timing[0]["startup"] > 0
    assert all(a["seconds"] > 0 for a in outcome.actions if a["seat"] == 0)
    assert outcome.started_at < outcome.ended_at and outcome.duration > 0
    assert outcome.config["mode"] == "tiny" and outcome.protocol_version == 1
    data = json.loads(json.dumps(outcome.to_json()))
    assert data["faults"] == [] and data["replay_bytes"] == len(outcome.replay or b"")
    assert data["network_isolation"] == outcome.isolation["network"]


def test_replay_written_by_the_runner_verifies() -> None:
    from replayfile.format import decode, steps_of
    from replayfile.verify import verify_document

    outcome = run_match(spec(RANDOM, "random"))
    doc = decode(outcome.replay or b"")
    assert verify_document(doc).ok
    assert [s["action"] for s in steps_of(doc)] == [a["action"] for a in outcome.actions]
    assert doc["header"]["players"][0]["sha256"] == outcome.players[0]["sha256"]


def test_same_spec_same_match() -> None:
    first, second = run_match(spec(RANDOM, RANDOM)), run_match(spec(RANDOM, RANDOM))
    assert [a["action"] for a in first.actions] == [a["action"] for a in second.actions]
    assert first.result == second.result


def test_missing_bundle_and_wrong_checksum_fail_to_start(tmp_path: Path) -> None:
    wrong = SeatSpec(bundle_path=RANDOM, sha256="0" * 64)
    outcome = run_match(MatchSpec(mode="tiny", seats=(SeatSpec.parse(str(tmp_path / "no.py")),
                                                      wrong), seed=1, limits=FAST))  # fmt: skip
    kinds = [(f.seat, f.kind) for f in outcome.faults]
    assert kinds == [(0, FaultKind.START_FAILED), (1, FaultKind.START_FAILED)]
    assert "cannot read the bundle" in outcome.faults[0].message
    assert "expected " + "0" * 64 in outcome.faults[1].message
    assert all(a.get("default") for a in outcome.actions)


def test_zip_bundle_with_the_helper_module(tmp_path: Path) -> None:
    main = (
        "from arena_bot import run, choose_index\n"
        "def decide(message, game):\n"
        "    return choose_index(len(message['legal']) - 1, debug=f'seat {game.seat}')\n"
        "run(decide, name='zipped')\n"
    )
    bundle = make_zip(
        tmp_path / "b.zip",
        {"main.py": main, "arena_bot.py": (EXAMPLES / "arena_bot.py").read_text()},
    )
    outcome = run_match(spec(str(bundle), "random"))
    assert outcome.faults == []
    mine = [a for a in outcome.actions if a["seat"] == 0]
    assert all(a["action"] == {"kind": "take", "n": 3} and a["note"] == "seat 0" for a in mine)
    assert outcome.players[0]["self_name"] == "zipped"


def test_the_tournament_reads_the_outcome() -> None:
    from tournament.services.outcome import outcome_from_runner

    outcome = run_match(spec(str(EXAMPLES.parent.parent / "tests/workers/hostile/garbage.py"),
                             "random"))  # fmt: skip
    played = outcome_from_runner(outcome)
    assert played.seats[0].fault == "bad_output" and "not JSON" in played.seats[0].fault_detail
    assert played.seats[1].fault == "" and played.seats[1].score == outcome.result["scores"][1]
    assert played.replay == outcome.replay


def test_limits_reach_the_bot_in_the_start_message(tmp_path: Path) -> None:
    source = (
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'start':\n"
        "        limits = m['limits']; print(json.dumps({'ready': True}), flush=True)\n"
        "    elif m['type'] == 'decide':\n"
        "        note = f\"{limits['decision_seconds']} {m['time']['bank']}\"\n"
        "        print(json.dumps({'index': 0, 'debug': note}), flush=True)\n"
    )
    path = tmp_path / "limits_bot.py"
    path.write_text(source)
    limits = Limits(decision_seconds=0.75, bank_seconds=2.5, end_grace_seconds=0.1)
    outcome = run_match(MatchSpec(mode="tiny", seats=(SeatSpec.parse(str(path)),), seed=1,
                                  options={"rounds": 2}, limits=limits))  # fmt: skip
    assert [a["note"] for a in outcome.actions] == ["0.75 2.5", "0.75 2.5"]


SLOW_START = (
    "import json, sys, time\n"
    "time.sleep(1.0)\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    if message['type'] == 'start':\n"
    "        print(json.dumps({'ready': True, 'told': message['limits']}), flush=True)\n"
    "    elif message['type'] == 'decide':\n"
    "        print(json.dumps({'index': 0}), flush=True)\n"
)


def test_startup_grace_lets_a_slow_starter_in_without_telling_it(tmp_path: Path) -> None:
    bot = tmp_path / "slow_start.py"
    bot.write_text(SLOW_START)
    tight = FAST.override(startup_seconds=0.3)

    def play(limits: Limits) -> object:
        seats = (SeatSpec.parse(str(bot)), SeatSpec.parse("random"))
        return run_match(MatchSpec("tiny", seats, 9, {"rounds": 5}, limits, replay=False))

    late = play(tight)
    assert [f.kind for f in late.faults] == [FaultKind.TIMEOUT] and late.faults[0].step == 0
    assert play(tight.override(startup_grace_seconds=5.0)).faults == []
    assert "startup_grace_seconds" not in tight.override(startup_grace_seconds=5.0).protocol_view()


def test_stderr_sink_sees_each_seat_as_it_plays(tmp_path: Path) -> None:
    bot = tmp_path / "chatty.py"
    bot.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'start':\n"
        "        print('hello from the bot', file=sys.stderr, flush=True)\n"
        "        print(json.dumps({'ready': True}), flush=True)\n"
        "    elif message['type'] == 'decide':\n"
        "        print('step', message['step'], file=sys.stderr, flush=True)\n"
        "        print(json.dumps({'index': 0}), flush=True)\n"
    )
    seen: list[tuple[int, bytes]] = []
    outcome = run_match(
        spec("random", str(bot), replay=False), stderr_sink=lambda s, c: seen.append((s, c))
    )
    assert outcome.faults == []
    text = b"".join(chunk for _, chunk in seen).decode()
    assert {seat for seat, _ in seen} == {1}
    assert text.startswith("hello from the bot\n") and "step " in text


def test_stderr_is_drained_while_pipes_close_and_bots_die(tmp_path: Path) -> None:
    """The runner's one poll of every bot's stderr per step (``_StderrWatch``) keeps
    draining the bots that log after another bot has closed its stderr and a third has died
    mid-match (its pipes closed, their numbers free for the process to reuse)."""
    loop = (
        "import json, os, sys\n"
        "for line in sys.stdin:\n"
        "    message = json.loads(line)\n"
        "    if message['type'] == 'start':\n"
        "        print(json.dumps({'ready': True}), flush=True)\n"
        "    elif message['type'] == 'decide':\n"
        "BODY"
        "        print(json.dumps({'index': 0}), flush=True)\n"
    )
    bots = {
        "closer.py": (
            "        if sys.stderr:\n            os.close(2)\n            sys.stderr = None\n"
        ),
        "chatty.py": (
            "        print('step', message['step'], 'x' * 2000, file=sys.stderr, flush=True)\n"
        ),
        "dies.py": "        if message['step'] >= 2: os._exit(3)\n",
    }
    for name, body in bots.items():
        (tmp_path / name).write_text(loop.replace("BODY", body))
    seen: list[tuple[int, bytes]] = []
    outcome = run_match(
        spec(*(str(tmp_path / name) for name in bots), replay=False),
        stderr_sink=lambda s, c: seen.append((s, c)),
    )
    assert [(f.seat, f.kind) for f in outcome.faults] == [(2, FaultKind.CRASH)]
    chatty = b"".join(chunk for seat, chunk in seen if seat == 1).decode()
    decided = [a for a in outcome.actions if a["seat"] == 1]
    assert len(decided) > 3 and chatty.count("step ") == len(decided)
    assert {seat for seat, _ in seen} == {1}
