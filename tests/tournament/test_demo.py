"""`manage.py demo` on the real runner (embedded eager mode): plays, prints, re-runs cleanly."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from tournament.models import Bot, BotVersion, League, Match, RatingChange
from tournament.services.ratings import ratings_recompute

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_demo_plays_a_duel_league_and_is_idempotent(capsys):
    call_command("demo", mode=["duel"])
    out = capsys.readouterr().out
    assert "Demo duel" in out and "6/6 matches finished" in out
    assert "replay: http://127.0.0.1:8000/replays/" in out
    league = League.objects.get(name="Demo duel")
    assert league.status == League.Status.CLOSED
    assert {m.status for m in league.matches.all()} == {Match.Status.FINISHED}
    assert all(m.replay_size > 0 for m in league.matches.all())
    assert BotVersion.objects.filter(bot__name="starter-heuristic", status="ready").exists()
    assert ratings_recompute(league_id=league.pk) == []
    bots, versions = Bot.objects.count(), BotVersion.objects.count()
    call_command("demo", mode=["duel"])
    assert League.objects.filter(name="Demo duel").count() == 1
    assert (Bot.objects.count(), BotVersion.objects.count()) == (bots, versions)
    assert RatingChange.objects.count() == 12  # only the new league's 6 matches x 2 seats
