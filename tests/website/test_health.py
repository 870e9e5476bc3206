"""Health is visible: /status and /metrics read what the database and the broker
hold, on real matches played by the engine and a real bot that crashes in its validation
match; /metrics is closed to all but staff and the token holder with DEBUG off; organisers and
staff see a banner when no worker has checked in; every visitor sees that a queued match is
waiting for a worker rather than "live"."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families

from tournament.models import Match, MatchSeat, WorkerHeartbeat
from tournament.services.bots import bot_create, bot_version_upload
from tournament.worker_heartbeat import Heartbeat
from workers.queueing.worker_queues import WorkerQueues

from .conftest import builtin_copy

pytestmark = pytest.mark.django_db

TOKEN = "metrics-token-for-the-test"
# what a match worker (`celery worker -Q celery,matches.retry`) and the periodic one beside
# beat (`-Q periodic`) say of their queues (workers.queueing.worker_queues)
MATCH_QUEUES = WorkerQueues(consumed=("celery", "matches.retry"))
PERIODIC_QUEUES = WorkerQueues(consumed=("periodic",))
REFUSING_QUEUES = WorkerQueues(consumed=(), refused=("celery", "matches.retry"), missing=("pid",))


def _families(text: str) -> dict[str, list]:
    """Family name -> samples, as Prometheus's own parser reads the page."""
    return {f.name: f.samples for f in text_string_to_metric_families(text)}


def _value(samples: list, name: str, **labels: str) -> float:
    found = [s.value for s in samples if s.name == name and s.labels == labels]
    assert len(found) == 1, (name, labels, samples)
    return found[0]


def _beat(name: str, seconds_ago: float, queues: WorkerQueues = MATCH_QUEUES) -> None:
    """A worker's row as its heartbeat leaves it, ``seconds_ago`` old."""
    now = timezone.now()
    WorkerHeartbeat.objects.update_or_create(name=name, defaults={
        "pid": 4242, "started_at": now - timedelta(hours=1),
        "beat_at": now - timedelta(seconds=seconds_ago), "role": queues.role,
        "queues": list(queues.consumed), "refused_queues": list(queues.refused),
        "isolation_missing": list(queues.missing),
    })  # fmt: skip


def _queued_match(author, name: str = "waits") -> Match:
    a, b = builtin_copy(author, f"{name}-a"), builtin_copy(author, f"{name}-b")
    match = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="duel", seed=1)
    MatchSeat.objects.create(match=match, seat=0, bot_version=a)
    MatchSeat.objects.create(match=match, seat=1, bot_version=b)
    return match


def test_metrics_parse_and_hold_the_recorded_matches_faults_queue_and_workers(
    played_league, author, client, settings, django_capture_on_commit_callbacks
) -> None:
    settings.DEBUG, settings.METRICS_TOKEN = False, TOKEN
    league = played_league(seats=2, entrants=3)  # real Duels, played by the engine
    crashy = bot_create(owner=author, name="crashy")
    with django_capture_on_commit_callbacks(execute=True):  # a real validation match
        bot_version_upload(bot=crashy, user=author, filename="bot.py",
                           data=b"raise SystemExit(1)\n")  # fmt: skip
    crashed = MatchSeat.objects.filter(fault="crash").count()
    assert crashed >= 1
    beat = Heartbeat("celery@metrics-test", 5.0, MATCH_QUEUES)
    assert beat.beat()  # what a worker's heartbeat thread does every WORKER_HEARTBEAT_SECONDS
    _queued_match(author)

    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    families = _families(response.content.decode())

    finished = Match.objects.filter(status="finished")
    assert finished.filter(league=league).count() >= 3  # a round robin of three entrants
    matches = families["arena_matches"]
    assert _value(matches, "arena_matches", status="finished") == finished.count()
    assert _value(matches, "arena_matches", status="queued") == 1
    assert _value(matches, "arena_matches", status="failed") == 0

    histogram = families["arena_match_duration_seconds"]
    count = _value(histogram, "arena_match_duration_seconds_count")
    assert count == finished.count()
    assert _value(histogram, "arena_match_duration_seconds_sum") > 0
    buckets = [s for s in histogram if s.name.endswith("_bucket")]
    assert [s.value for s in buckets] == sorted(s.value for s in buckets)  # cumulative
    assert buckets[-1].labels == {"le": "+Inf"} and buckets[-1].value == count
    took = [(m.finished_at - m.started_at).total_seconds() for m in finished]
    for bucket in buckets[:-1]:  # each bucket counts the matches that took at most its bound
        bound = float(bucket.labels["le"])
        assert bucket.value == sum(t <= bound for t in took), (bound, took)

    faults = families["arena_match_faults"]
    assert _value(faults, "arena_match_faults_total", kind="crash") == crashed

    depth = families["arena_queue_depth"]
    assert len(depth) == 1 and depth[0].labels["source"] in ("broker", "database")
    assert families["arena_oldest_queued_match_age_seconds"][0].value >= 0

    assert _value(families["arena_workers_live"], "arena_workers_live") == 1
    age = _value(families["arena_worker_last_beat_age_seconds"],
                 "arena_worker_last_beat_age_seconds", worker="celery@metrics-test")  # fmt: skip
    assert 0 <= age < settings.WORKER_STALE_SECONDS


def test_metrics_are_closed_to_all_but_staff_and_the_token_with_debug_off(
    client, author, make_user, settings
) -> None:
    from tests.accounts import PASSWORD

    staff = make_user("sam", is_staff=True)
    settings.DEBUG, settings.METRICS_TOKEN = False, TOKEN
    anonymous = client.get("/metrics")
    assert anonymous.status_code == 401 and anonymous["WWW-Authenticate"].startswith("Bearer")
    assert b"METRICS_TOKEN" in anonymous.content
    wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token")
    assert wrong.status_code == 401 and b"not the metrics token" in wrong.content
    assert client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200
    client.login(username=author.username, password=PASSWORD)
    refused = client.get("/metrics")
    assert refused.status_code == 403 and b"staff only" in refused.content
    client.login(username=staff.username, password=PASSWORD)
    assert client.get("/metrics").status_code == 200
    client.logout()
    settings.METRICS_TOKEN = ""  # no token configured: no bearer gets in, staff still do
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer ").status_code == 401
    settings.DEBUG = True  # development: open
    assert client.get("/metrics").status_code == 200


def test_status_when_no_worker_beats(client, author, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False  # a real setup: matches wait for a worker
    _beat("celery@gone", seconds_ago=125)
    match = _queued_match(author)
    Match.objects.filter(pk=match.pk).update(created_at=timezone.now() - timedelta(seconds=90))
    response = client.get("/status")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["status"] == "no_worker" and body["workers"] == []
    assert body["last_beat_seconds"] >= 125 and body["worker_stale_seconds"] == 30
    assert body["matches"] == {"queued": 1, "running": 0, "finished": 0, "failed": 0,
                               "cancelled": 0}  # fmt: skip
    assert 90 <= body["oldest_queued_seconds"] < 3600
    queue = body["queue"]
    assert queue["source"] in ("broker", "database") and queue["depth"] >= 0
    if queue["source"] == "database":
        assert queue["depth"] == 1 and queue["queues"] is None
    else:
        assert queue["depth"] == sum(queue["queues"].values()) and "celery" in queue["queues"]

    WorkerHeartbeat.objects.all().delete()  # never any worker
    body = client.get("/status").json()
    assert body["status"] == "no_worker" and body["last_beat_seconds"] is None


def test_status_lists_the_workers_that_beat_recently(client, make_user, settings) -> None:
    from tests.accounts import PASSWORD

    settings.CELERY_TASK_ALWAYS_EAGER = False
    assert Heartbeat("celery@alive", 5.0, MATCH_QUEUES).beat()
    _beat("celery@silent", seconds_ago=45)
    client.login(username=make_user("sam", is_staff=True).username, password=PASSWORD)
    body = client.get("/status").json()
    assert body["status"] == "ok"
    assert [w["name"] for w in body["workers"]] == ["celery@alive"]
    alive = body["workers"][0]
    assert 0 <= alive["last_beat_seconds"] < 30 and alive["up_seconds"] >= 0
    assert body["last_beat_seconds"] == alive["last_beat_seconds"]
    assert body["oldest_queued_seconds"] is None and body["matches"]["queued"] == 0


def test_banner_for_organisers_and_staff_when_no_worker_checked_in(
    client, author, organiser, make_user, settings
) -> None:
    from tests.accounts import PASSWORD

    settings.CELERY_TASK_ALWAYS_EAGER = False
    staff = make_user("sam", is_staff=True)
    banner = 'class="worker-alarm" role="alert"'

    def page(user) -> str:
        client.logout()
        if user is not None:
            client.login(username=user.username, password=PASSWORD)
        return client.get("/leagues/").content.decode()

    assert "No match worker has checked in yet" in page(organiser)  # none ever beat
    _beat("celery@one", seconds_ago=31)
    for user in (organiser, staff):
        html = page(user)
        # 31 s ago when beaten; a slow machine may take a second or more to render the page
        silent = re.search(r"No match worker has checked in for (\d+) s", html)
        assert banner in html and silent and 31 <= int(silent.group(1)) < 90, user
        assert 'href="/status"' in html
    for user in (author, None):  # authors and visitors are not told
        assert banner not in page(user)
    _beat("celery@one", seconds_ago=2)  # a worker is back
    assert banner not in page(organiser) and banner not in page(staff)


def test_a_queued_match_is_waiting_for_a_worker_not_live(client, author) -> None:
    match = _queued_match(author)
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert '<span class="badge queued" data-match-status>waiting for a worker</span>' in html
    assert '<h2 id="replay-title" data-match-heading>Waiting for a worker</h2>' in html
    assert ">Live<" not in html
    # the viewer's live badge waits hidden until the match starts; it says where it queues
    assert '<span id="live-badge" class="live-badge" hidden>● live</span>' in html
    assert "This match is waiting for a worker. It is next in the queue." in html
    row = client.get("/matches/").content.decode()
    assert '<span class="badge queued">waiting for a worker</span>' in row
    viewer = client.get(f"/replays/{match.pk}/").content.decode()
    assert "This match is waiting for a worker." in viewer
    assert 'class="live-badge" hidden>● live</span>' in viewer
    Match.objects.filter(pk=match.pk).update(status=Match.Status.RUNNING)  # a worker took it
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert '<span class="badge running live" data-match-status>running</span>' in html
    assert ">Live</h2>" in html and "● live" in html and "waiting for a worker" not in html


@pytest.fixture
def broker_away():
    """The Celery app's broker pointed at a port where nothing listens, for one test."""
    from workers.queueing.celery_app import app

    keys = ("broker_url", "broker_transport_options")
    saved = {key: app.conf[key] for key in keys}
    app.conf.update(broker_url="redis://127.0.0.1:1/0", broker_transport_options={})
    try:
        yield
    finally:
        app.conf.update(saved)


def test_queue_depth_falls_back_on_the_database_when_the_broker_is_away(
    client, author, settings, broker_away
) -> None:
    settings.DEBUG = True  # /metrics open
    _queued_match(author, "first")
    _queued_match(author, "second")
    queue = client.get("/status").json()["queue"]
    assert queue == {"depth": 2, "source": "database", "queues": None}
    families = _families(client.get("/metrics").content.decode())
    assert _value(families["arena_queue_depth"], "arena_queue_depth", source="database") == 2
    assert "arena_broker_queue_messages" not in families


def test_the_queues_asked_are_read_from_the_configuration(settings) -> None:
    """A queue that periodic jobs or a mode's matches are routed to is counted too."""
    from tournament.selectors.health import broker_queues
    from workers.queueing.celery_app import app

    keys = ("task_routes", "beat_schedule")
    saved = {key: app.conf[key] for key in keys}
    settings.MATCH_QUEUE_PER_MODE = True
    app.conf.update(
        task_routes={"arena.ladders_schedule": {"queue": "jobs"}},
        beat_schedule={"reap": {"task": "arena.matches_reap_stale", "schedule": 60.0,
                                "options": {"queue": "periodic"}}},
    )  # fmt: skip
    try:
        queues = broker_queues()
    finally:
        app.conf.update(saved)
    assert queues[0] == "celery" and {"jobs", "periodic", "matches.duel"} <= set(queues)
    assert len(queues) == len(set(queues))


def test_a_given_up_embedded_worker_is_said_at_once_on_the_site_and_in_status(
    client, organiser, make_user, settings, tmp_path, monkeypatch
) -> None:
    """The supervisor gave up on an embedded worker that kept dying: organisers see why on
    every page without waiting for the heartbeats to go stale, and /status says it too. Its
    restarts are a tenth as far apart as the product's: what counts is that it gave up."""
    import sys
    import time

    from tests.accounts import PASSWORD
    from workers.queueing import embedded
    from workers.queueing.embedded import EmbeddedWorker, supervisor_state

    monkeypatch.setattr(embedded, "RESTART_PAUSES", tuple(p / 10 for p in embedded.RESTART_PAUSES))

    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.EMBEDDED_WORKER = True
    settings.DATA_DIR = tmp_path
    _beat("celery@one", seconds_ago=1)  # a worker beat a moment ago: no stale-heartbeat alarm
    crasher = [sys.executable, "-c", "import sys; print('CRITICAL Unrecoverable error: boom'); "
               "sys.exit(3)"]  # fmt: skip
    sleeper = [sys.executable, "-c", "import time; time.sleep(600)"]
    client.login(username=organiser.username, password=PASSWORD)
    assert "worker-alarm" not in client.get("/leagues/").content.decode()
    supervisor = EmbeddedWorker(
        data_dir=tmp_path, command=lambda role: crasher if role == "matches" else sleeper,
        console=None,
    )  # fmt: skip
    with supervisor:
        deadline = time.monotonic() + 120
        while supervisor_state(tmp_path)["state"] != "failed":
            assert time.monotonic() < deadline, "the supervisor never gave up"
            time.sleep(0.1)
        html = client.get("/leagues/").content.decode()
        assert 'class="worker-alarm" role="alert"' in html
        assert "The embedded worker stopped for good." in html
        assert "CRITICAL Unrecoverable error: boom" in html and "not restarted any more" in html
        status = client.get("/status").json()
        assert status["status"] == "worker_gave_up"  # not "ok", though a worker beat
        assert status["embedded_workers"]["state"] == "failed"
        message = status["embedded_workers"]["message"]
        assert "not restarted any more" in message and "boom" not in message  # not staff
        client.logout()
        client.login(username=make_user("sam", is_staff=True).username, password=PASSWORD)
        message = client.get("/status").json()["embedded_workers"]["message"]
        assert "not restarted any more" in message and "Unrecoverable error: boom" in message
        client.logout()
        client.login(username=organiser.username, password=PASSWORD)
    client.logout()
    assert "worker-alarm" not in client.get("/leagues/").content.decode()  # visitors: nothing


BANNER = 'class="worker-alarm" role="alert"'


def _page(client, user) -> str:
    from tests.accounts import PASSWORD

    client.logout()
    if user is not None:
        client.login(username=user.username, password=PASSWORD)
    return client.get("/leagues/").content.decode()


def test_with_every_match_worker_dead_and_beat_alive_status_says_no_worker_within_30_s(
    client, organiser, settings
) -> None:
    """Beat and the periodic worker still beat; the match workers stopped. /status and the
    banner count match workers only, so they turn once the last match worker's beat is
    WORKER_STALE_SECONDS (30) old: at 29 s it is live, at 31 s it is not."""
    settings.CELERY_TASK_ALWAYS_EAGER, settings.DEBUG = False, True  # /metrics open
    _beat("beat@host", seconds_ago=1, queues=PERIODIC_QUEUES)
    _beat("w1@host", seconds_ago=29)
    _beat("w2@host", seconds_ago=40)  # died before
    body = client.get("/status").json()
    assert body["status"] == "ok"
    assert body["workers_live"] == {"match": 1, "periodic": 1, "other": 0}
    assert sorted(w["role"] for w in body["workers"]) == ["match", "periodic"]
    assert BANNER not in _page(client, organiser)

    _beat("w1@host", seconds_ago=31)  # the last match worker's beat is now stale
    body = client.get("/status").json()
    assert body["status"] == "no_worker"
    assert body["workers_live"] == {"match": 0, "periodic": 1, "other": 0}
    assert [w["role"] for w in body["workers"]] == ["periodic"]
    assert 31 <= body["last_beat_seconds"] < 90  # the newest beat of a match worker
    html = _page(client, organiser)
    silent = re.search(r"No match worker has checked in for (\d+) s", html)
    assert BANNER in html and silent and 31 <= int(silent.group(1)) < 90
    families = _families(client.get("/metrics").content.decode())
    assert _value(families["arena_workers_live"], "arena_workers_live") == 0
    by_state = families["arena_workers_live_by_state"]
    assert _value(by_state, "arena_workers_live_by_state", role="periodic", state="ok") == 1
    assert not [s for s in by_state if s.labels["role"] == "match"]


def test_a_worker_lacking_an_isolation_layer_shows_it_and_is_not_counted(
    client, organiser, settings
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER, settings.DEBUG = False, True
    _beat("good@host", seconds_ago=1)
    _beat("bad@host", seconds_ago=1, queues=REFUSING_QUEUES)
    body = client.get("/status").json()
    assert body["status"] == "ok" and body["workers_refusing"] == 1
    assert body["workers_live"]["match"] == 1
    assert sorted(w["state"] for w in body["workers"]) == ["isolation: missing pid", "ok"]
    families = _families(client.get("/metrics").content.decode())
    assert _value(families["arena_workers_live"], "arena_workers_live") == 1
    info = families["arena_worker_info"]
    assert _value(info, "arena_worker_info", worker="bad@host", role="match",
                  state="isolation: missing pid") == 1  # fmt: skip
    assert _value(info, "arena_worker_info", worker="good@host", role="match", state="ok") == 1
    by_state = families["arena_workers_live_by_state"]
    assert _value(by_state, "arena_workers_live_by_state", role="match",
                  state="isolation: missing pid") == 1  # fmt: skip

    _beat("good@host", seconds_ago=45)  # only the worker that cannot isolate is left
    assert client.get("/status").json()["status"] == "no_worker"
    html = _page(client, organiser)
    assert BANNER in html
    assert "1 live match worker lacks an isolation layer the deployment requires" in html


def test_host_names_and_process_ids_in_status_are_for_staff_only(
    client, author, make_user, settings
) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    _beat("w1@secret-host", seconds_ago=1)
    _beat("beat@secret-host", seconds_ago=1, queues=PERIODIC_QUEUES)
    staff = make_user("sam", is_staff=True)
    for user in (None, author):  # a visitor, and a logged-in author
        _page(client, user)
        response = client.get("/status")
        text = response.content.decode()
        assert response.status_code == 200 and "secret-host" not in text and "4242" not in text
        body = response.json()
        assert body["status"] == "ok"
        assert body["workers_live"] == {"match": 1, "periodic": 1, "other": 0}
        for worker in body["workers"]:
            assert set(worker) == {"role", "state", "last_beat_seconds", "up_seconds"}
    _page(client, staff)
    body = client.get("/status").json()
    shown = {w["name"]: w for w in body["workers"]}
    assert set(shown) == {"w1@secret-host", "beat@secret-host"}
    assert shown["w1@secret-host"]["pid"] == 4242
    assert shown["w1@secret-host"]["queues"] == ["celery", "matches.retry"]
    assert shown["beat@secret-host"]["role"] == "periodic"
