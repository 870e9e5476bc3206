"""Two plays of one match that finish back to back (the reaper re-queued it while its first
worker still played it): both store their replay, then both try to record. The play that
records first wins: its replay is the one recorded, served and viewed, with bytes that hash to
the recorded sha256; the other play's replay and its frames are deleted. On a folder and on
the S3 server."""

from __future__ import annotations

import gzip
import hashlib
import json
import logging

import pytest
from django.core.cache import cache
from django.core.files.storage import storages

from replayfile.format import decode, document_from_game, encode
from replayfile.frames import build_frames
from replayfile.recording import header_for_bots, play_recorded
from replays.storage import delete_replay, open_replay
from replays.stored_frames import encode_frames, frames_key, frames_name
from tournament.models import Match
from tournament.services import matches as ms
from tournament.services.challenges import challenge_create
from tournament.services.outcome import SeatOutcome
from tournament.services.replay_upload import replay_discard, replay_upload

pytestmark = pytest.mark.django_db


@pytest.fixture(params=["folder", "s3"])
def backend(request: pytest.FixtureRequest) -> str:
    """The ``replays`` storage: a folder under tmp_path (the tournament tests' default) or a
    fresh bucket of the S3 server."""
    if request.param == "s3":
        request.getfixturevalue("s3_storages")
    return request.param


@pytest.fixture
def running_match(author, ready_version, django_capture_on_commit_callbacks) -> Match:
    """A Duel challenge marked running, as a worker's `match_start` leaves it."""
    a, b = ready_version(author, "race-a"), ready_version(author, "race-b")
    with django_capture_on_commit_callbacks(execute=False):  # not played by a worker
        match = challenge_create(user=author, mode="duel", bot_version_ids=[a.pk, b.pk])
    return ms.match_start(match_id=match.pk)


def two_plays(seed: int) -> tuple[dict, bytes, bytes]:
    """The result and the replays of two plays of one game: same moves, other step times."""
    game, steps = play_recorded("duel", 2, seed)
    header = header_for_bots(2)
    first = encode(document_from_game(game, steps, header))
    slower = [{**step, "seconds": (step["seconds"] or 0.0) + 0.125} for step in steps]
    second = encode(document_from_game(game, slower, header))
    assert first != second
    return game.result(), first, second


def seats_of(result: dict) -> list[SeatOutcome]:
    return [SeatOutcome(seat=s, score=result["scores"][s], rank=result["ranks"][s])
            for s in range(len(result["scores"]))]  # fmt: skip


def folder_files(name: str) -> list[str]:
    folder = name.rpartition("/")[0]
    return sorted(storages["replays"].listdir(folder)[1])


def served_frames(client, match_id: int) -> dict:
    cache.clear()  # another web process: the storage, not this one's cache
    response = client.get(f"/api/v1/matches/{match_id}/frames", HTTP_ACCEPT_ENCODING="gzip")
    assert response.status_code == 200
    return json.loads(gzip.decompress(response.content))


@pytest.mark.parametrize("loser_uploads", ["last", "first"])
def test_the_play_that_records_first_keeps_its_replay(
    backend, running_match, client, loser_uploads, caplog
):
    match_id = running_match.pk
    result, winner_data, loser_data = two_plays(seed=5)
    order = [winner_data, loser_data] if loser_uploads == "last" else [loser_data, winner_data]
    stored = {data: replay_upload(match_id=match_id, data=data) for data in order}
    winner, loser = stored[winner_data], stored[loser_data]
    assert winner["name"] != loser["name"]
    assert winner["name"].startswith(f"matches/0000/match-{match_id}-")
    assert storages["replays"].exists(loser["name"])  # both uploads went through

    seats = seats_of(result)
    recorded = ms.match_record_result(match_id=match_id, seats=seats, result=result, replay=winner)
    assert recorded is not None and recorded.status == Match.Status.FINISHED
    with caplog.at_level(logging.INFO, logger="tournament.services.replay_upload"):
        assert (
            ms.match_record_result(match_id=match_id, seats=seats, result=result, replay=loser)
            is None
        )
    assert "deleted the replay of a losing play" in caplog.text

    match = Match.objects.get(pk=match_id)
    assert (match.replay_name, match.replay_sha256, match.replay_size) == (
        winner["name"], hashlib.sha256(winner_data).hexdigest(), len(winner_data),
    )  # fmt: skip
    data = open_replay(match.replay_name, sha256=match.replay_sha256)
    assert hashlib.sha256(data).hexdigest() == match.replay_sha256 and data == winner_data
    # The loser's replay and its precomputed frames are gone; the winner's frames stay.
    spectator = frames_name(winner["name"], frames_key(winner["sha256"], None))
    assert folder_files(winner["name"]) == sorted(
        n.rpartition("/")[2] for n in (winner["name"], spectator)
    )  # fmt: skip
    assert not storages["replays"].exists(loser["name"])

    download = client.get(f"/api/v1/matches/{match_id}/replay")
    assert download.status_code == 200 and download.content == winner_data
    assert download["ETag"] == f'"{winner["sha256"]}"'
    frames = served_frames(client, match_id)
    expected = json.loads(gzip.decompress(encode_frames(build_frames(decode(winner_data), None))))
    assert frames == expected
    assert frames["steps"] != build_frames(decode(loser_data), None)["steps"]  # other times
    page = client.get(f"/replays/{match_id}/")
    assert f"?v={winner['sha256'][:16]}".encode() in page.content


def test_byte_identical_plays_share_one_replay_and_keep_it(backend, running_match, client):
    """Two plays that gave the same bytes store one object: the loser deletes nothing."""
    match_id = running_match.pk
    result, data, _ = two_plays(seed=6)
    first = replay_upload(match_id=match_id, data=data)
    second = replay_upload(match_id=match_id, data=data)
    assert first == second
    seats = seats_of(result)
    assert ms.match_record_result(match_id=match_id, seats=seats, result=result, replay=first)
    assert (
        ms.match_record_result(match_id=match_id, seats=seats, result=result, replay=second) is None
    )
    match = Match.objects.get(pk=match_id)
    assert open_replay(match.replay_name, sha256=match.replay_sha256) == data
    assert client.get(f"/api/v1/matches/{match_id}/replay").content == data


def test_a_play_recorded_without_its_replay_still_deletes_the_losers(running_match):
    """The winner's upload failed (recorded without a replay): the loser's is no one's."""
    match_id = running_match.pk
    result, _, loser_data = two_plays(seed=7)
    seats = seats_of(result)
    ms.match_record_result(match_id=match_id, seats=seats, result=result, error="no replay")
    loser = replay_upload(match_id=match_id, data=loser_data)
    assert (
        ms.match_record_result(match_id=match_id, seats=seats, result=result, replay=loser) is None
    )
    assert not storages["replays"].exists(loser["name"])
    assert Match.objects.get(pk=match_id).replay_name == ""


def test_delete_replay_takes_its_frames_and_nothing_else(backend, running_match):
    match_id = running_match.pk
    _, one, other = two_plays(seed=8)
    kept = replay_upload(match_id=match_id, data=one)
    gone = replay_upload(match_id=match_id, data=other)
    before = folder_files(kept["name"])
    assert len(before) == 4  # two replays, each with its spectator's frames
    deleted = delete_replay(gone["name"])
    assert deleted[0] == gone["name"] and len(deleted) == 2
    assert all(n.startswith(gone["name"] + ".frames-") for n in deleted[1:])
    after = folder_files(kept["name"])
    assert len(after) == 2 and all(n.startswith(kept["name"].rpartition("/")[2]) for n in after)
    assert open_replay(kept["name"], sha256=kept["sha256"]) == one
    assert delete_replay("matches/9999/match-9999999-0.replay") == [
        "matches/9999/match-9999999-0.replay"
    ]  # nothing there: no error


def test_a_failing_delete_is_logged_not_raised(monkeypatch, caplog):
    import replays.storage

    def broken(name: str) -> list[str]:
        raise ConnectionError("the object store is not answering")

    monkeypatch.setattr(replays.storage, "delete_replay", broken)
    with caplog.at_level(logging.WARNING, logger="tournament.services.replay_upload"):
        replay_discard(match_id=3, name="matches/0000/match-3-00.replay")
    assert "replay matches/0000/match-3-00.replay of a losing play not deleted" in caplog.text
