"""Verification by re-simulation, and ``python -m arena verify``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import msgpack
import zstandard

from engine.game import canonical_json
from replayfile.format import decode, encode
from replayfile.verify import verify_document

REPO = Path(__file__).resolve().parents[2]


def _first_place(doc) -> int:
    return next(i for i, row in enumerate(doc["steps"]) if row[1][0] == "place")


def test_tampered_action_fails_at_its_step(any_mode, record):
    _, _, data = record(any_mode, seed=9)
    doc = decode(data)
    i = _first_place(doc)
    kind, *fields = doc["steps"][i][1]
    names = [n for n, _ in doc["header"]["actions"][kind]]
    fields[names.index("cells")] = [0]  # one cell at (0, 0): outside every boat, wrong shape
    doc["steps"][i][1] = [kind, *fields]
    verdict = verify_document(doc)
    assert not verdict.ok
    assert verdict.step == i
    assert verdict.message.startswith(f"step {i}: seat {doc['steps'][i][0]} ")
    assert "is illegal: " in verdict.message


def test_tampered_result_and_hash_are_reported(record, toy_mode):
    _, _, data = record(toy_mode, seed=2)
    doc = decode(data)
    doc["result"]["scores"][1] += 5
    verdict = verify_document(doc)
    assert not verdict.ok
    assert verdict.message.startswith("result mismatch: result.scores[1]: recorded")

    doc = decode(data)
    doc["state_hash"] = "0" * 64
    verdict = verify_document(doc)
    assert not verdict.ok and verdict.message.startswith("state hash mismatch after")


def test_truncated_log_is_not_over(record, toy_mode):
    _, _, data = record(toy_mode, seed=4)
    doc = decode(data)
    doc["steps"].pop()
    verdict = verify_document(doc)
    assert not verdict.ok and "is not over" in verdict.message


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    code = ("import sys; from engine.modes import MODES; "
            "MODES['toy'] = 'tests.replays.toy_mode:ToyGame'; "
            "from arena.cli import main; sys.exit(main(sys.argv[1:]))")
    return subprocess.run([sys.executable, "-c", code, "verify", *args], cwd=REPO,
                          capture_output=True, text=True, timeout=60)


def test_cli_exit_codes(record, toy_mode, tmp_path):
    _, _, data = record(toy_mode, seed=6)
    good = tmp_path / "good.replay"
    good.write_bytes(data)
    done = _cli(str(good))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok: 24 steps legal")

    doc = decode(data)
    doc["result"]["ranks"][0] = 9
    bad = tmp_path / "bad.replay"
    bad.write_bytes(encode(doc))
    done = _cli(str(bad))
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("FAILED: result mismatch: result.ranks[0]")

    junk = tmp_path / "junk.replay"
    junk.write_bytes(zstandard.ZstdCompressor().compress(msgpack.packb([1, 2])))
    done = _cli(str(junk))
    assert done.returncode == 2
    assert "cannot read replay: not an Isle Arena replay" in done.stderr
    assert _cli(str(tmp_path / "missing.replay")).returncode == 2
    assert canonical_json(decode(data)["result"]) != canonical_json(doc["result"])


def test_faulted_match_checks_steps_and_hash_not_the_result(toy_mode):
    """A replay written before faults counted (its result has no "faulted") carries the
    runner's result of then, which is not re-derived; its steps and state hash still have to
    hold. Newer replays re-derive the fault standing (tests/workers/test_fault_standing.py)."""
    from engine import new_game
    from replayfile.format import document_from_game

    game = new_game(toy_mode, 2, 8)
    steps = []
    for _ in range(5):
        seat = game.pending()[0]
        action = game.legal_actions(seat)[0]
        game.apply(seat, action)
        steps.append({"seat": seat, "action": game.encode_action(action), "seconds": 0.01})
    faults = [{"seat": 1, "kind": "timeout", "detail": "no reply within 1.0 s", "step": 5}]
    forfeit = {"scores": [1, 0], "ranks": [1, 2], "winners": [0]}
    doc = decode(encode(document_from_game(game, steps, faults=faults, result=forfeit)))
    verdict = verify_document(doc)
    assert verdict.ok, verdict.message
    assert "1 fault(s): result recorded by the runner" in verdict.message

    doc["steps"][2][1] = ["place", [0]]
    assert not verify_document(doc).ok
