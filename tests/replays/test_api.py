"""The replay endpoints and pages: download, frames, viewer, 404s (the spectator pages are the
website's: tests/website)."""

from __future__ import annotations

import gzip
import hashlib
import json

import pytest

from replayfile.format import decode
from replays.storage import open_replay, replay_name, save_replay

pytestmark = pytest.mark.django_db


def test_save_and_open_replay(replay_storage):
    stored = save_replay(match_id=1234, data=b"abc")
    name, sha, size = stored
    assert sha == hashlib.sha256(b"abc").hexdigest()
    assert name == replay_name(1234, sha) == f"matches/0001/match-1234-{sha[:16]}.replay"
    assert dict(stored) == {"name": name, "sha256": sha, "size": 3}
    assert open_replay(name, sha256=sha) == b"abc"
    assert save_replay(match_id=1234, data=b"abc") == stored  # a retry: the same file
    other = save_replay(match_id=1234, data=b"abcd")  # another play: a file of its own
    assert other.name != name and open_replay(other.name) == b"abcd"
    assert open_replay(name, sha256=sha) == b"abc"
    assert sorted(p.name for p in (replay_storage / "matches/0001").iterdir()) == sorted(
        n.rpartition("/")[2] for n in (name, other.name)
    )  # fmt: skip
    from replays.storage import ReplayCorrupt, ReplayNotFound
    (replay_storage / name).write_bytes(b"abx")  # changed in the store
    with pytest.raises(ReplayCorrupt):
        open_replay(name, sha256=sha)
    assert save_replay(match_id=1234, data=b"abc") == stored  # a cut-short write is replaced
    assert open_replay(name, sha256=sha) == b"abc"
    with pytest.raises(ReplayNotFound):
        open_replay("matches/nope.replay")


def test_a_replay_stored_under_an_older_name_is_still_served(stored_match, client):
    """Replays stored before names carried a sha256 prefix (``match-<id>.replay``) are read
    by the name recorded on their match: download, frames and viewer."""
    from django.core.files.base import ContentFile
    from django.core.files.storage import storages

    from tournament.models import Match

    match = stored_match("duel", seed=4)
    data = open_replay(match.replay_name, sha256=match.replay_sha256)
    old = f"matches/{match.pk // 1000:04d}/match-{match.pk}.replay"
    storages["replays"].save(old, ContentFile(data))
    storages["replays"].delete(match.replay_name)
    Match.objects.filter(pk=match.pk).update(replay_name=old)
    download = client.get(f"/api/v1/matches/{match.pk}/replay")
    assert download.status_code == 200 and download.content == data
    frames = client.get(f"/api/v1/matches/{match.pk}/frames?seat=0")
    assert frames.status_code == 200 and json.loads(frames.content)["seat"] == 0
    assert client.get(f"/replays/{match.pk}/").status_code == 200


def test_pages_for_every_mode(any_mode, stored_match, client):
    match = stored_match(any_mode)
    page = client.get(f"/replays/{match.pk}/")
    assert page.status_code == 200
    # The frames URL names the replay (a new replay, a new URL: the frames are cached long).
    assert (b'data-frames-url="/api/v1/matches/%d/frames?v=%s"'
            % (match.pk, match.replay_sha256[:16].encode())) in page.content

    download = client.get(f"/api/v1/matches/{match.pk}/replay")
    assert download.status_code == 200
    assert download["Content-Type"] == "application/zstd"
    assert download["Content-Disposition"] == f'attachment; filename="match-{match.pk}.replay"'
    assert not download.streaming  # one read: sent whole, so the page cache can keep it
    assert decode(download.content)["header"]["mode"] == any_mode

    frames = client.get(f"/api/v1/matches/{match.pk}/frames?seat=spectator",
                        HTTP_ACCEPT_ENCODING="gzip")
    assert frames.status_code == 200
    assert frames["Content-Encoding"] == "gzip"
    payload = json.loads(gzip.decompress(frames.content))
    assert payload["seat"] == "spectator"
    assert payload["result"]["scores"] == match.result["scores"]
    assert len(payload["views"]["patches"]) == len(payload["steps"])

    seat = client.get(f"/api/v1/matches/{match.pk}/frames?seat=0")
    assert seat.status_code == 200 and json.loads(seat.content)["seat"] == 0


def test_unknown_match_and_bad_seat(stored_match, client, toy_mode):
    match = stored_match(toy_mode, seats=2)
    for url in ("/replays/999999/", "/api/v1/matches/999999/replay",
                "/api/v1/matches/999999/frames"):
        assert client.get(url).status_code == 404, url
    body = client.get("/api/v1/matches/999999/frames").json()
    assert body["error"]["code"] == "not_found"
    bad = client.get(f"/api/v1/matches/{match.pk}/frames?seat=5")
    assert bad.status_code == 400
    assert bad.json()["error"]["message"] == "seat must be 0..1 or 'spectator', not '5'"


def test_frames_are_cached_by_sha_and_seat(stored_match, client, toy_mode, monkeypatch):
    from replays import stored_frames

    match = stored_match(toy_mode)
    first = client.get(f"/api/v1/matches/{match.pk}/frames").content
    seat1 = client.get(f"/api/v1/matches/{match.pk}/frames?seat=1").content
    assert json.loads(seat1)["seat"] == 1

    def no_rebuild(*args, **kwargs):
        raise AssertionError("frames were rebuilt instead of read from the cache")

    monkeypatch.setattr(stored_frames, "build_frames", no_rebuild)
    assert client.get(f"/api/v1/matches/{match.pk}/frames").content == first
    assert client.get(f"/api/v1/matches/{match.pk}/frames?seat=1").content == seat1


def test_tampered_stored_replay_is_refused(stored_match, client, toy_mode, replay_storage):
    match = stored_match(toy_mode)
    (replay_storage / match.replay_name).write_bytes(open_replay(match.replay_name) + b"x")
    response = client.get(f"/api/v1/matches/{match.pk}/frames")
    assert response.status_code == 500
    assert response.json()["error"]["code"] == "replay_corrupt"


def test_uploaded_replay_frames(record, client, toy_mode):
    from django.core.cache import cache

    cache.clear()
    game, _, data = record(toy_mode, seed=4, seats=3)
    page = client.get("/replays/file/")
    assert page.status_code == 200 and b'id="replay-file"' in page.content
    url = "/api/v1/replays/frames"
    ok = client.post(f"{url}?seat=2", data=data, content_type="application/zstd")
    assert ok.status_code == 200
    payload = ok.json()
    assert payload["seat"] == 2 and payload["result"]["scores"] == game.result()["scores"]
    garbage = client.post(url, data=b"nope", content_type="application/zstd")
    assert garbage.status_code == 422
    assert garbage.json()["error"]["message"].startswith("not a zstd-compressed replay")
    assert client.post(url, data=b"", content_type="application/zstd").status_code == 400
    big = client.post(url, data=b"x" * (2 * 1024 * 1024 + 1), content_type="application/zstd")
    assert big.status_code == 413
    wrong = client.get(url)
    assert wrong.status_code == 405 and wrong["Allow"] == "POST"
    assert wrong.json()["error"]["code"] == "method_not_allowed"


def test_uploaded_replay_of_an_unknown_mode(record, client, toy_mode):
    from replayfile.format import encode

    _, _, data = record(toy_mode, seats=2)
    doc = decode(data)
    doc["header"]["mode"] = "chess"
    response = client.post("/api/v1/replays/frames", data=encode(doc),
                           content_type="application/zstd")
    assert response.status_code == 422
    assert "unknown mode 'chess'" in response.json()["error"]["message"]
