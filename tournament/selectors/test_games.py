"""What a test game's page shows its author beside the replay: each seat's fault, stderr and
decision times (services/test_games.py; only the author and staff can see a test game at
all, `selectors.visible_matches`)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from replayfile.decision_times import SeatDecisionTimes, decision_times
from replayfile.format import ReplayError, decode, steps_of
from replays.storage import ReplayCorrupt, ReplayNotFound, open_replay

from ..models import Match, MatchSeat
from ..private_output import may_see_private

log = logging.getLogger(__name__)

LABEL = "Test game (private, unrated)"


@dataclass(frozen=True)
class TestGameSeat:
    seat: MatchSeat
    private: bool  # the reader may see its stderr and fault detail (its owner, staff)
    times: SeatDecisionTimes | None  # None until the replay is stored


def test_game_seats(*, match: Match, seats: list[MatchSeat], user: Any) -> list[TestGameSeat]:
    """Each seat with what its reader may see of it, and its decision times from the stored
    replay (none while the game is still being played: the live viewer shows each step's)."""
    times = _replay_times(match, len(seats))
    return [
        TestGameSeat(seat=seat, private=may_see_private(user, seat.bot_version.bot.owner_id),
                     times=times[seat.seat] if times else None)  # fmt: skip
        for seat in seats
    ]


def _replay_times(match: Match, seats: int) -> list[SeatDecisionTimes] | None:
    if not match.replay_name:
        return None
    try:
        doc = decode(open_replay(match.replay_name, sha256=match.replay_sha256 or None))
    except (ReplayNotFound, ReplayCorrupt, ReplayError) as exc:
        log.warning("test game %s: no decision times (%s)", match.pk, exc)
        return None
    return decision_times(steps_of(doc), seats)
