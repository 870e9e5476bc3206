"""`manage.py demo`: serves at once, plays beside the site, prints links that work on the chosen
port, a staff account, and a re-run keeps those links.

The first tests run inside the suite (eager tasks, `--no-serve`). The others share one demo run
as a user starts it (scripts/demo.sh): a subprocess on a fresh DATA_DIR that serves the site
while its embedded workers validate the bots and play a small league (`--entrants 2`: two
duel matches), its output read line by line as it comes.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests
from django.core.management import call_command
from django.core.management.base import CommandError

from scripts.embedded_ladder import REPO, embedded_env
from tests.ports import free_port
from tournament.models import Bot, BotVersion, League, Match, MatchAnalysis, RatingChange
from tournament.services.demo import DEMO_ANALYSIS_PLAYOUTS, STAFF
from tournament.services.ratings import ratings_recompute

LINK = re.compile(r"http://127\.0\.0\.1:(\d+)(/[^\s():,]*)")


@pytest.mark.django_db(transaction=True)
def test_demo_plays_a_duel_league_and_is_idempotent(capsys, monkeypatch):
    monkeypatch.delenv("PORT", raising=False)
    call_command("demo", mode=["duel"], entrants=2, serve=False)
    out = capsys.readouterr().out
    assert "Demo duel" in out and "2/2 matches finished" in out
    assert "replay: http://127.0.0.1:8000/matches/" in out  # the match page with the viewer
    assert "http://127.0.0.1:8000/accounts/signup/" in out
    league = League.objects.get(name="Demo duel")
    assert f"league: http://127.0.0.1:8000/leagues/{league.pk}/" in out
    assert league.status == League.Status.CLOSED
    assert {m.status for m in league.matches.all()} == {Match.Status.FINISHED}
    assert all(m.replay_size > 0 for m in league.matches.all())
    # the quick house bots only, the first two of them
    assert set(league.entries.values_list("bot_version__bot__name", flat=True)) == {
        "random", "greedy"}
    assert BotVersion.objects.filter(bot__name="starter-heuristic", status="ready").exists()
    assert ratings_recompute(league_id=league.pk) == []
    # The demo ends with one analysed match: its chances at each day's end, few playouts.
    analysed = MatchAnalysis.objects.get()
    assert analysed.status == "done" and analysed.playouts == DEMO_ANALYSIS_PLAYOUTS
    assert analysed.match.league_id == league.pk
    assert f"analysis: http://127.0.0.1:8000/matches/{analysed.match_id}/#chances" in out
    for point in analysed.result["points"]:
        assert sum(point["chances"]) == pytest.approx(1.0, abs=1e-3)
    # The always-open ladder: running, the house bots entered (the search bot plays there).
    ladder = League.objects.get(name="Open duel ladder")
    assert ladder.status == League.Status.RUNNING and ladder.format == League.Format.LADDER
    assert f"Open duel ladder: http://127.0.0.1:8000/leagues/{ladder.pk}/" in out
    assert set(ladder.entries.values_list("bot_version__bot__name", flat=True)) == {
        "random", "greedy", "search-0.05s"}
    # A staff account for /admin/, its password generated and printed once.
    staff = re.search(rf"staff account for http://127.0.0.1:8000/admin/: {STAFF} / (\S+) ", out)
    assert staff, out
    from django.contrib.auth import get_user_model

    admin = get_user_model().objects.get(username=STAFF)
    assert admin.is_staff and admin.check_password(staff.group(1))
    bots, versions = Bot.objects.count(), BotVersion.objects.count()
    matches = set(league.matches.values_list("pk", flat=True))
    monkeypatch.setenv("PORT", "8765")
    call_command("demo", mode=["duel"], entrants=2, serve=False, port=9123)
    again = capsys.readouterr().out
    # The same league, matches and replays: links printed by the first run still work; the
    # --port option beats PORT; the staff password is not printed again.
    assert League.objects.get(name="Demo duel").pk == league.pk
    assert set(league.matches.values_list("pk", flat=True)) == matches
    assert (Bot.objects.count(), BotVersion.objects.count()) == (bots, versions)
    assert RatingChange.objects.count() == 4  # the one league's 2 matches x 2 seats
    assert list(MatchAnalysis.objects.values_list("pk", "finished_at")) == [
        (analysed.pk, analysed.finished_at)]  # the same analysis, not computed again
    assert f"league: http://127.0.0.1:9123/leagues/{league.pk}/" in again and ":8765" not in again
    first_replay = re.search(r"replay: http://127.0.0.1:8000(/matches/\d+/)", out).group(1)
    assert f"replay: http://127.0.0.1:9123{first_replay}" in again
    assert staff.group(1) not in again and "printed by the first run" in again


def test_demo_rejects_a_bad_port(monkeypatch):
    monkeypatch.setenv("PORT", "eighty")
    with pytest.raises(CommandError, match="PORT='eighty' is not a port number"):
        call_command("demo", mode=["duel"])


class DemoRun:
    """`manage.py demo` as scripts/demo.sh runs it, its stdout lines kept with their arrival."""

    def __init__(self, data_dir: Path, port: int) -> None:
        self.env = embedded_env(data_dir, PYTHONUNBUFFERED="1")
        self.port = port
        self.lines: list[tuple[float, str]] = []
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "demo", "--mode", "duel", "--entrants", "2",
             "--port", str(self.port)],
            cwd=REPO, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.append((time.monotonic() - self.started, line.rstrip("\n")))

    def wait_for(self, text: str, timeout: float) -> float:
        deadline = time.monotonic() + timeout
        while True:
            for at, line in list(self.lines):
                if text in line:
                    return at
            if self.process.poll() is not None or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        raise AssertionError(f"no {text!r} in:\n{self.text()}\n{self.stderr_tail()}")

    def timed_text(self) -> str:
        return "\n".join(f"{at:6.1f} {line}" for at, line in self.lines)

    def text(self) -> str:
        return "\n".join(line for _, line in self.lines)

    def stderr_tail(self) -> str:
        log = Path(self.env["DATA_DIR"]) / "embedded-worker.log"
        return log.read_text()[-3000:] if log.exists() else ""

    def stop(self) -> int:
        self.process.send_signal(signal.SIGINT)  # Ctrl-C
        try:  # a generous wait: a busy machine may take long to stop the workers' matches
            return self.process.wait(timeout=300)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


@pytest.fixture(scope="module")
def demo_run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoRun]:
    data_dir = tmp_path_factory.mktemp("demo") / "data"
    run = DemoRun(data_dir, free_port())
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=REPO,
                   env=run.env, check=True, capture_output=True, timeout=300)  # fmt: skip
    run.start()
    try:
        run.wait_for("until Ctrl-C", timeout=240)
        yield run
    finally:
        if run.process.poll() is None:
            run.stop()


@pytest.mark.slow
def test_demo_serves_at_once_and_says_how_it_goes(demo_run):
    """It serves before any league match is played, and no silence is long while it waits:
    a line of progress at least every PROGRESS_SECONDS (3 s) of its own time; the arrival gaps
    allow for a busy machine."""
    serving = demo_run.wait_for("demo: serving http://", timeout=0)
    league = demo_run.wait_for("demo: Demo duel: http://", timeout=0)
    summary = demo_run.wait_for("matches finished", timeout=0)
    assert serving < league < summary
    gaps = [b - a for (a, _), (b, _) in zip(demo_run.lines, demo_run.lines[1:], strict=False)
            if b <= summary]  # fmt: skip
    assert max(gaps) < 10, demo_run.timed_text()
    stamps = [int(s) for s in re.findall(r"^demo: .*\((\d+)s\)$", demo_run.text(), re.M)]
    assert stamps == sorted(stamps), demo_run.text()
    assert "2/2 matches finished, status closed" in demo_run.text()
    assert "analysis: http://127.0.0.1:" in demo_run.text()


@pytest.mark.slow
def test_every_printed_link_works_and_the_staff_account_logs_in(demo_run):
    text = demo_run.text()
    links = LINK.findall(text)
    assert {port for port, _ in links} == {str(demo_run.port)}
    base = f"http://127.0.0.1:{demo_run.port}"
    paths = {path.split("#")[0] for _, path in links}
    assert {"/admin/", "/accounts/signup/", "/api/docs/"} <= paths
    for path in paths:
        assert requests.get(base + path, timeout=30).status_code == 200, path
    staff = re.search(rf"/admin/: {STAFF} / (\S+) ", text).group(1)
    with requests.Session() as session:
        login = session.get(f"{base}/admin/login/", timeout=30)
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', login.text).group(1)
        session.post(f"{base}/admin/login/?next=/admin/", timeout=30, data={
            "csrfmiddlewaretoken": token, "username": STAFF, "password": staff,
            "next": "/admin/"}, headers={"Referer": f"{base}/admin/login/"})  # fmt: skip
        assert "Site administration" in session.get(f"{base}/admin/", timeout=30).text


@pytest.mark.slow
def test_a_second_run_keeps_the_links_and_the_staff_password(demo_run):
    """Ctrl-C stops it cleanly; run again without serving, the same leagues and replays are
    printed and the staff password is not shown again."""
    assert demo_run.stop() == 0
    again = subprocess.run(
        [sys.executable, "manage.py", "demo", "--mode", "duel", "--entrants", "2",
         "--no-serve", "--port", str(demo_run.port)],
        cwd=REPO, env=demo_run.env, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr[-3000:]
    first = [path for _, path in LINK.findall(demo_run.text()) if "/leagues/" in path
             or "/matches/" in path]  # fmt: skip
    assert set(first) <= {path for _, path in LINK.findall(again.stdout)}
    staff = re.search(rf"/admin/: {STAFF} / (\S+) ", demo_run.text()).group(1)
    assert staff not in again.stdout and "printed by the first run" in again.stdout
