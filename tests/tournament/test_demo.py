"""`manage.py demo`: plays, prints links on the chosen port, and a re-run keeps those links.

The first test runs inside the suite (eager tasks); the second runs the command as a user does,
in a subprocess on a fresh DATA_DIR, where the embedded worker validates the bots and plays.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from django.core.management import call_command

from scripts.embedded_ladder import REPO, embedded_env
from tournament.models import Bot, BotVersion, League, Match, MatchAnalysis, RatingChange
from tournament.services.demo import DEMO_ANALYSIS_PLAYOUTS
from tournament.services.ratings import ratings_recompute

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_demo_plays_a_duel_league_and_is_idempotent(capsys, monkeypatch):
    monkeypatch.delenv("PORT", raising=False)
    call_command("demo", mode=["duel"])
    out = capsys.readouterr().out
    assert "Demo duel" in out and "12/12 matches finished" in out
    assert "replay: http://127.0.0.1:8000/matches/" in out  # the match page with the viewer
    assert "http://127.0.0.1:8000/accounts/signup/" in out
    league = League.objects.get(name="Demo duel")
    assert f"league: http://127.0.0.1:8000/leagues/{league.pk}/" in out
    assert league.status == League.Status.CLOSED
    assert {m.status for m in league.matches.all()} == {Match.Status.FINISHED}
    assert all(m.replay_size > 0 for m in league.matches.all())
    assert BotVersion.objects.filter(bot__name="starter-heuristic", status="ready").exists()
    assert ratings_recompute(league_id=league.pk) == []
    # The demo ends with one analysed match: its chances at each day's end, few playouts.
    analysed = MatchAnalysis.objects.get()
    assert analysed.status == "done" and analysed.playouts == DEMO_ANALYSIS_PLAYOUTS
    assert analysed.match.league_id == league.pk
    assert f"analysis: http://127.0.0.1:8000/matches/{analysed.match_id}/#chances" in out
    for point in analysed.result["points"]:
        assert sum(point["chances"]) == pytest.approx(1.0, abs=1e-3)
    # The always-open ladder: running, the house bots entered, scheduled by the beat or entries.
    ladder = League.objects.get(name="Open duel ladder")
    assert ladder.status == League.Status.RUNNING and ladder.format == League.Format.LADDER
    assert f"Open duel ladder: http://127.0.0.1:8000/leagues/{ladder.pk}/" in out
    assert set(ladder.entries.values_list("bot_version__bot__name", flat=True)) == {
        "random", "greedy", "search-0.05s"}
    bots, versions = Bot.objects.count(), BotVersion.objects.count()
    matches = set(league.matches.values_list("pk", flat=True))
    monkeypatch.setenv("PORT", "8765")
    call_command("demo", mode=["duel"])
    again = capsys.readouterr().out
    # The same league, matches and replays: links printed by the first run still work.
    assert League.objects.get(name="Demo duel").pk == league.pk
    assert set(league.matches.values_list("pk", flat=True)) == matches
    assert (Bot.objects.count(), BotVersion.objects.count()) == (bots, versions)
    assert RatingChange.objects.count() == 24  # the one league's 12 matches x 2 seats
    assert list(MatchAnalysis.objects.values_list("pk", "finished_at")) == [
        (analysed.pk, analysed.finished_at)]  # the same analysis, not computed again
    assert f"league: http://127.0.0.1:8765/leagues/{league.pk}/" in again
    first_replay = re.search(r"replay: http://127.0.0.1:8000(/matches/\d+/)", out).group(1)
    assert f"replay: http://127.0.0.1:8765{first_replay}" in again


def test_demo_port_option_beats_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("PORT", "8765")
    call_command("demo", mode=["duel"], port=9123)
    out = capsys.readouterr().out
    assert "http://127.0.0.1:9123/leagues/" in out and ":8765" not in out


def test_demo_rejects_a_bad_port(monkeypatch):
    from django.core.management.base import CommandError

    monkeypatch.setenv("PORT", "eighty")
    with pytest.raises(CommandError, match="PORT='eighty' is not a port number"):
        call_command("demo", mode=["duel"])


@pytest.mark.timeout(1500)  # two demo runs in subprocesses, on a machine that may be busy
def test_demo_on_the_embedded_worker(tmp_path):
    """As scripts/demo.sh runs it: no eager tasks, the embedded worker plays the league."""
    env = embedded_env(tmp_path / "data", PORT="8555")
    manage = [sys.executable, "manage.py"]
    subprocess.run([*manage, "migrate", "--noinput"], cwd=REPO, env=env, check=True,
                   capture_output=True, timeout=300)  # fmt: skip
    runs = []
    for extra in ([], ["--port", "8556"]):
        try:
            runs.append(subprocess.run(
                [*manage, "demo", "--mode", "duel", "--timeout", "600", *extra], cwd=REPO,
                env=env, capture_output=True, text=True, timeout=700,
            ))  # fmt: skip
        except subprocess.TimeoutExpired:
            log = tmp_path / "data" / "embedded-worker.log"
            tail = log.read_text()[-3000:] if log.exists() else ""
            pytest.fail(f"demo hung; worker log:\n{tail}")
    for run in runs:
        worker_log = (tmp_path / "data" / "embedded-worker.log").read_text()[-3000:]
        assert run.returncode == 0, run.stderr[-3000:] + worker_log
        assert "12/12 matches finished, status closed" in run.stdout, run.stdout + worker_log
        assert "analysis: http://127.0.0.1:" in run.stdout, run.stdout + worker_log
    links = [re.findall(r"http://127.0.0.1:(\d+)(/\S+)", run.stdout) for run in runs]
    assert {port for port, _ in links[0]} == {"8555"}
    assert {port for port, _ in links[1]} == {"8556"}
    assert [path for _, path in links[0]] == [path for _, path in links[1]]
