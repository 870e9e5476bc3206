"""Every starter kit (Python, JavaScript, C++, a static C binary), random and heuristic, plays
one full game of every available mode against the built-in random bot through the real
sandbox, and the replays of those games verify. The Python, JavaScript and C++ kits speak
protocol 2 (tests/workers/test_protocol_v2.py), the C kit protocol 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from competition.limits import Limits
from engine import available_modes, mode_class
from workers.runner import MatchSpec, SeatSpec, run_match

from .starters import KITS, STARTERS, starter_bundle

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard")]


@pytest.fixture(scope="module")
def bundles(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    out = tmp_path_factory.mktemp("starters")
    return {(k, s): starter_bundle(k, s, out) for k in KITS for s in STARTERS}


@pytest.mark.parametrize("kit", KITS)
@pytest.mark.parametrize("starter", STARTERS)
@pytest.mark.parametrize("mode", available_modes())
def test_starter_bot_plays_a_full_game(
    mode: str, starter: str, kit: str, bundles: dict[tuple[str, str], Path]
) -> None:
    from replayfile.format import decode
    from replayfile.verify import verify_document

    game_type = mode_class(mode).game_type
    seats = max(game_type.min_seats, min(game_type.max_seats, 4 if mode == "standard" else 2))
    bot = str(bundles[kit, starter])
    names = [bot, *(["random", bot] * 2)][:seats]  # the starter in seat 0 (and 2 if there is one)
    spec = MatchSpec(mode=mode, seats=tuple(SeatSpec.parse(n) for n in names), seed=21,
                     limits=Limits(end_grace_seconds=0.2))  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [], [f.describe() for f in outcome.faults]
    assert len(outcome.result["scores"]) == seats
    assert outcome.timing[0]["decisions"] > 0
    # The Python, JavaScript and C++ starters choose protocol 2 (the shared observation
    # shape); the C starter speaks protocol 1, which stays as it was.
    assert outcome.players[0].get("protocol") == (None if kit == "binary" else 2)
    notes = [a.get("note") for a in outcome.actions if a["seat"] == 0]
    assert any(notes) == (starter == "heuristic")  # the heuristic explains its choices
    assert verify_document(decode(outcome.replay or b"")).ok


@pytest.mark.parametrize("kit", ["binary", "cpp"])
def test_four_native_bots_start_side_by_side_every_time(
    kit: str, bundles: dict[tuple[str, str], Path]
) -> None:
    """A match's bots are unpacked and started side by side; a fork of the worker between
    one seat writing its executable and another seat exec'ing it failed the exec with
    "Text file busy" now and then (workers/sandbox/forklock.py). Every start must work."""
    bot = str(bundles[kit, "random"])
    for seed in range(6):
        spec = MatchSpec(mode="standard", seats=tuple(SeatSpec.parse(bot) for _ in range(4)),
                         seed=seed, limits=Limits(end_grace_seconds=0.2), replay=False)  # fmt: skip
        outcome = run_match(spec)
        assert outcome.faults == [], [f.describe() for f in outcome.faults]
