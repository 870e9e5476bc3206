"""``python manage.py verify_replays`` over stored matches."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from replayfile.format import decode, encode
from replays.storage import open_replay, save_replay
from tournament.models import Match

pytestmark = pytest.mark.django_db


def test_all_good_then_a_tampered_one_fails(stored_match, toy_mode, capsys):
    good = stored_match(toy_mode, seed=1)
    bad = stored_match(toy_mode, seed=2)
    call_command("verify_replays")
    assert "2 replay(s) checked, 0 mismatch(es)" in capsys.readouterr().out

    doc = decode(open_replay(bad.replay_name))
    doc["result"]["scores"][0] += 1
    name, sha, size = save_replay(match_id=bad.pk, data=encode(doc))
    Match.objects.filter(pk=bad.pk).update(replay_name=name, replay_sha256=sha, replay_size=size)
    with pytest.raises(CommandError, match="2 replay\\(s\\) checked, 1 mismatch"):
        call_command("verify_replays")
    out = capsys.readouterr().out
    assert f"match {bad.pk}: result mismatch: result.scores[0]" in out
    assert f"match {good.pk}" not in out
    call_command("verify_replays", str(good.pk))


def test_recorded_scores_must_match_the_replay(stored_match, toy_mode, capsys):
    match = stored_match(toy_mode, seed=3)
    result = dict(match.result, scores=[99] * len(match.result["scores"]))
    Match.objects.filter(pk=match.pk).update(result=result)
    with pytest.raises(CommandError):
        call_command("verify_replays")
    assert "the match records scores [99" in capsys.readouterr().out
