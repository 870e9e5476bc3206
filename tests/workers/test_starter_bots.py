"""Both starter bots play full games of every available mode through the real sandbox, and the
replays of those games verify."""

from __future__ import annotations

import pytest

from engine import available_modes, mode_class
from workers.limits import Limits
from workers.runner import MatchSpec, SeatSpec, run_match

from .conftest import EXAMPLES

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("worker_guard")]


@pytest.mark.parametrize("starter", ["random_bot", "heuristic_bot"])
@pytest.mark.parametrize("mode", available_modes())
def test_starter_bot_plays_a_full_game(mode: str, starter: str) -> None:
    from replays.format import decode
    from replays.verify import verify_document

    game_type = mode_class(mode).game_type
    seats = max(game_type.min_seats, min(game_type.max_seats, 4 if mode == "standard" else 2))
    bot = str(EXAMPLES / f"{starter}.py")
    names = [bot, *(["random", bot] * 2)][:seats]  # the starter in seat 0 (and 2 if there is one)
    spec = MatchSpec(mode=mode, seats=tuple(SeatSpec.parse(n) for n in names), seed=21,
                     limits=Limits(end_grace_seconds=0.2))  # fmt: skip
    outcome = run_match(spec)
    assert outcome.faults == [], [f.describe() for f in outcome.faults]
    assert len(outcome.result["scores"]) == seats
    assert outcome.timing[0]["decisions"] > 0
    notes = [a.get("note") for a in outcome.actions if a["seat"] == 0]
    assert any(notes) == (starter == "heuristic_bot")  # the heuristic explains its choices
    assert verify_document(decode(outcome.replay or b"")).ok
