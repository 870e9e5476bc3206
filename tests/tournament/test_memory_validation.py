"""On the server too, a bot's memory is one limit for all its processes: an uploaded version
whose children together hold more than ``BOT_MEMORY_LIMIT_MB`` fails its validation with the
memory fault, ranked last, the evidence kept for its owner only."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.workers.conftest import hostile
from tournament.models import BotVersion, Match, MatchSeat
from tournament.services.bots import builtin_bots_register
from workers.sandbox.isolation import detect_isolation

from .conftest import client_for
from .test_compiled_bots import new_bot, upload

pytestmark = [pytest.mark.django_db, pytest.mark.slow]
MIB = 1024 * 1024


def test_a_bot_whose_children_hold_too_much_fails_validation_with_the_memory_fault(
    author, other_author, settings, django_capture_on_commit_callbacks
) -> None:
    iso = detect_isolation()
    if not iso.memory:
        pytest.skip(f"SKIPPED LOUDLY: no cgroup memory limit here ({'; '.join(iso.notes)})")
    settings.BOT_MEMORY_LIMIT_MB = 256  # six children of 100 MB: 600 MB together
    builtin_bots_register()
    source = Path(hostile("fork_hoard")).read_bytes()
    bot_id = new_bot(author, "hoarder")
    created = upload(author, bot_id, "hoarder.py", source, django_capture_on_commit_callbacks)
    version = BotVersion.objects.get(pk=created["id"])
    assert version.status == BotVersion.Status.FAILED
    assert version.failure_reason == (
        "memory: the bot and its children held more than 256 MiB (at its 1st decision)"
    )
    seat = MatchSeat.objects.get(bot_version=version, match__kind=Match.Kind.VALIDATION)
    assert seat.fault == "memory" and seat.rank == 2 and seat.score is not None
    assert seat.match.seats.get(seat=1).rank == 1
    evidence = seat.fault_evidence
    assert evidence["oom_kills"] >= 1 and evidence["limit_bytes"] == 256 * MIB
    assert evidence["peak_bytes"] <= 256 * MIB + 4 * MIB  # held under the limit throughout
    # the peak is the owner's to see, like a timeout's evidence; not another author's
    url = f"/api/v1/matches/{seat.match_id}/"
    mine = {s["seat"]: s for s in client_for(author).get(url).json()["seats"]}
    theirs = {s["seat"]: s for s in client_for(other_author).get(url).json()["seats"]}
    assert mine[seat.seat]["fault_evidence"] == evidence
    assert theirs[seat.seat]["fault"] == "memory" and theirs[seat.seat]["fault_evidence"] is None
