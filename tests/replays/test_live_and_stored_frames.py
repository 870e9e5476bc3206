"""Frames stored with the replay when a match is recorded (served with an ETag and a long
cache lifetime, never rebuilt), and live matches: the publisher on the runner's step hook,
the live log (file and Redis), and the frames endpoint of a running match (public view)."""

from __future__ import annotations

import gzip
import json
import os

import pytest

from engine import new_game
from engine.bots import make_bot
from replayfile.frames import apply_patch
from replays import stored_frames
from replays.live import FileLog, LivePublisher, RedisLog, live_payload

from .live_matches import file_live_logs, greedy_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def live_dir(settings, tmp_path):
    return file_live_logs(settings, tmp_path)


_match = greedy_match


def _publish(match_id: int, mode: str, seats: int, steps: int | None = None) -> object:
    """Play a game with greedy bots, publishing each step as the runner would."""
    spec = {"mode": mode, "seed": 11, "seats": [{"seat": s, "name": "greedy"}
                                                for s in range(seats)]}
    publisher = LivePublisher(match_id=match_id, spec=spec)
    game = new_game(mode, seats, 11)
    bots = [make_bot("greedy", mode, s, 11) for s in range(seats)]
    n = 0
    while not game.is_over() and (steps is None or n < steps):
        seat = game.pending()[0]
        action = bots[seat].act(game, seat)
        game.apply_unchecked(seat, action)
        publisher(game, seat, action, 0.001)
        n += 1
    return game


def test_frames_are_stored_when_the_match_is_recorded_and_served_without_a_rebuild(
    replay_storage, record, client, monkeypatch
):
    from django.core.cache import cache

    from tournament.models import Match
    from tournament.services.replay_upload import replay_upload

    match = _match("standard", 4, status="finished")
    game, _steps, data = record("standard", 4, 4)
    stored = replay_upload(match_id=match.pk, data=data)
    Match.objects.filter(pk=match.pk).update(replay_name=stored["name"],
                                             replay_sha256=stored["sha256"],
                                             replay_size=stored["size"], result=game.result())
    files = os.listdir(replay_storage / os.path.dirname(stored["name"]))
    assert any(".frames-" in f and f.endswith(".json.gz") for f in files), files

    cache.clear()  # another web process: only the storage has the frames
    monkeypatch.setattr(stored_frames, "build_frames", lambda *a, **k: pytest.fail("rebuilt"))
    url = f"/api/v1/matches/{match.pk}/frames"
    first = client.get(url, HTTP_ACCEPT_ENCODING="gzip, br")
    assert first.status_code == 200
    assert first["Content-Encoding"] == "gzip"
    assert "max-age=31536000" in first["Cache-Control"]
    payload = json.loads(gzip.decompress(first.content))
    assert payload["result"]["scores"] == game.result()["scores"]
    assert payload["live"] is False
    assert len(payload["scores"]) == len(payload["steps"]) + 1
    assert all(s["say"] for s in payload["steps"])

    again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and again["ETag"] == first["ETag"]
    plain = client.get(url)  # a client without gzip gets plain JSON
    assert "Content-Encoding" not in plain and json.loads(plain.content)["seat"] == "spectator"


def test_a_seat_view_is_built_once_then_read_from_storage(stored_match, client, monkeypatch):
    from django.core.cache import cache

    match = stored_match("standard", seed=3, seats=3)
    url = f"/api/v1/matches/{match.pk}/frames?seat=1"
    built = client.get(url)
    assert built.status_code == 200 and json.loads(built.content)["seat"] == 1
    cache.clear()
    monkeypatch.setattr(stored_frames, "build_frames", lambda *a, **k: pytest.fail("rebuilt"))
    assert client.get(url).content == built.content


def test_file_log_reads_only_whole_lines(tmp_path):
    log = FileLog(tmp_path)
    log.start(5, "ab12")
    log.append(5, "ab12", {"a": 1})
    log.append(5, "ab12", {"a": 2})
    with open(log.file_of(5, "ab12"), "ab") as handle:
        handle.write(b'{"a": 3')  # a write in progress
    assert log.read(5) == [{"a": 1}, {"a": 2}]
    assert log.read(5, 1) == [{"a": 2}]
    log.clear(5, "ab12")
    assert log.read(5) == [] and log.current(5) is None


def _two_plays(log):
    """The first play of match 9 starts, the second starts (a re-queue), and the first,
    still running, goes on writing; then each play ends."""
    log.start(9, "aaa1")
    log.append(9, "aaa1", {"step": "first-0"})
    log.start(9, "bbb2")
    log.append(9, "bbb2", {"step": "second-0"})
    log.append(9, "aaa1", {"step": "first-1"})
    assert log.current(9) == "bbb2"
    assert log.read(9) == [{"step": "second-0"}]  # spectators follow the newer play only
    assert {"step": "first-1"} in log.entries(9, "aaa1")  # kept apart
    log.clear(9, "aaa1")  # the first play ends: the second's pointer and log stay
    assert log.current(9) == "bbb2" and log.read(9) == [{"step": "second-0"}]
    log.clear(9, "bbb2")
    assert log.current(9) is None and log.read(9) == []


def test_the_plays_of_a_match_keep_their_own_file_logs(tmp_path):
    _two_plays(FileLog(tmp_path))
    assert list(tmp_path.iterdir()) == []
    log = FileLog(tmp_path)  # a play killed with its worker: the next play removes its log
    log.start(9, "dead1a")
    log.append(9, "dead1a", {"step": 0})
    log.start(9, "ae02")
    assert [p.name for p in tmp_path.iterdir()] == ["match-9.play"]
    with pytest.raises(ValueError, match="play token"):
        FileLog(tmp_path).append(9, "../x", {})


@pytest.mark.integration
def test_redis_log(settings):
    url = os.environ.get("TEST_REDIS_URL")
    if not url:
        pytest.skip("TEST_REDIS_URL is not set")
    log = RedisLog(url)
    for play in ("c77", "aaa1", "bbb2"):
        log.clear(77, play)
        log.clear(9, play)
    log.start(77, "c77")
    log.append(77, "c77", {"step": 0})
    log.append(77, "c77", {"step": 1})
    assert log.read(77, 1) == [{"step": 1}]
    log.clear(77, "c77")
    assert log.read(77) == [] and log.current(77) is None
    _two_plays(log)


def test_a_viewer_following_a_play_gets_the_new_play_whole_when_the_match_starts_again(
    live_dir, client
):
    match = _match("duel", 2)
    _publish(match.pk, "duel", 2, steps=12)
    url = f"/api/v1/matches/{match.pk}/frames"
    first = client.get(url).json()
    assert first["cursor"] == 12 and first["play"]
    again = client.get(f"{url}?since=12&play={first['play']}").json()
    assert again["from"] == 12 and again["steps"] == [] and again["play"] == first["play"]
    _publish(match.pk, "duel", 2, steps=5)  # re-queued: a second play starts over
    moved = client.get(f"{url}?since=12&play={first['play']}").json()
    assert moved["play"] != first["play"] and "views" in moved and moved["cursor"] == 5
    assert client.get(f"{url}?since=12&play=NOT-A-TOKEN").status_code == 400


def test_live_payload_is_the_public_view_and_follows_step_by_step(live_dir):
    match_id = 4242
    game = _publish(match_id, "standard", 3, steps=60)
    full = live_payload(match_id, 0)
    assert full["live"] is True and full["cursor"] == 60 and len(full["steps"]) == 60
    views = [full["views"]["base"]]
    for patch in full["views"]["patches"]:
        views.append(apply_patch(views[-1], patch))
    public = dict(game.observation(0))
    for key in ("you", "decision", "seat"):
        public.pop(key, None)
    assert views[-1] == public
    text = json.dumps(full)
    for player in views[-1]["players"]:  # nobody's hand, draft or private lessons
        assert not {"hand", "draft_pile", "kept", "private_lessons", "chosen_rescue"} & set(player)
    assert '"you"' not in text
    for events in full["events"]:
        for event in events:
            if event.get("hidden"):
                assert set(event) <= {"step", "type", "seat", "hidden", "say"}, event
    sheets = game.scores()
    assert full["scores"][-1] == [s["total"] - s.get("private_lessons", 0) for s in sheets]
    assert full["scores_count"] == "public"  # and the viewer says so beside the scores
    later = live_payload(match_id, 58)
    assert later["from"] == 58 and len(later["steps"]) == 2 and later["cursor"] == 60
    assert later["steps"] == full["steps"][58:]


def test_frames_endpoint_of_running_queued_and_finished_matches(live_dir, client):
    match = _match("duel", 2, status="queued")
    url = f"/api/v1/matches/{match.pk}/frames"
    waiting = client.get(url)
    assert waiting.status_code == 200 and waiting.json()["waiting"] is True
    assert waiting["Cache-Control"] == "no-store"
    assert client.get(f"/replays/{match.pk}/").status_code == 200  # the page says live

    match.status = "running"
    match.save()
    _publish(match.pk, "duel", 2, steps=20)
    body = client.get(url).json()
    assert body["live"] and body["status"] == "running" and len(body["steps"]) == 20
    more = client.get(url + "?since=19").json()
    assert len(more["steps"]) == 1 and more["from"] == 19
    refused = client.get(url + "?seat=1")
    assert refused.status_code == 400 and "spectators" in refused.json()["error"]["message"]
    assert client.get(url + "?since=x").status_code == 400

    match.status = "failed"
    match.save()
    assert client.get(url).status_code == 404


def test_match_play_publishes_and_clears_the_live_log(live_dir, replay_storage, monkeypatch):
    from tournament.models import Match
    from tournament.services import matches

    match = _match("duel", 2, status="queued")
    seen: list[int] = []
    real = LivePublisher.__call__

    def watching(self, game, seat, action, seconds):
        real(self, game, seat, action, seconds)
        seen.append(len(FileLog(live_dir).read(match.pk)))

    monkeypatch.setattr(LivePublisher, "__call__", watching)
    matches.match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.replay_name
    assert seen and seen[0] == 2 and seen[-1] == len(seen) + 1  # set-up + one entry a step
    assert FileLog(live_dir).read(match.pk) == []  # the replay takes over
