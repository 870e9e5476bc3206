"""Private stays private: a bot version's stderr (`log`), build log and fault
evidence reach its owner and staff only. Every endpoint, page and download that can carry them
is fetched as an anonymous visitor, as another author, as the owner and as staff."""

from __future__ import annotations

import gzip
import hashlib
import json
import sys
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

import workers.runner as real_runner
from arena.cli import main
from engine import new_game
from replayfile.format import decode, document_from_game, encode
from replayfile.public_copy import is_public
from replayfile.recording import header_for_bots, play_recorded
from replayfile.verify import verify_document
from replays.live import LivePublisher
from replays.storage import save_replay
from tests.replays.live_matches import file_live_logs
from tournament.models import BotVersion, Match, MatchSeat
from tournament.services import matches as ms

pytestmark = pytest.mark.django_db

STDERR = "SECRET-STDERR-4f1c: my opening book says cats first"
VERSION_LOG = "SECRET-VLOG-77ab: validation stderr"
BUILD_LOG = "SECRET-BUILD-9c1e: main.cpp:3: warning"
EVIDENCE = {"cpu": 1.234, "wall": 4.987, "load": [7.321, 2.5, 1.0]}
EVIDENCE_MARK = "4.987"
BUILD_REASON = "SECRET-REASON-31d0 'my_book' was not declared"  # a compile error quotes sources
MARKS = {"stderr": [STDERR.split(":")[0], VERSION_LOG.split(":")[0]],
         "build log": [BUILD_LOG.split(":")[0], BUILD_REASON.split()[0]],
         "evidence": [EVIDENCE_MARK]}  # fmt: skip


def _fault(step: int) -> dict[str, Any]:
    """A fault as competition/faults.py writes it, with the private parts the runner keeps."""
    return {"seat": 0, "kind": "crash", "step": step, "message": "exited with status 1",
            "seconds": 0.01, "stderr": [STDERR], "evidence": EVIDENCE}  # fmt: skip


def _replay(seed: int) -> tuple[dict[str, Any], bytes]:
    game, steps = play_recorded("duel", 2, seed)
    doc = document_from_game(game, steps, header_for_bots(2), faults=[_fault(5)])
    return game.result(), encode(doc)


@pytest.fixture
def world(author, other_author, make_user, ready_version, runner, monkeypatch, settings,
          tmp_path):
    """A played match between the author's bot (seat 0, crashed, its stderr and evidence kept)
    and another author's bot, recorded by the match service from a real replay; and an older
    match whose stored replay still carries the fault's private fields."""
    monkeypatch.setattr(ms, "match_enqueue", lambda *a, **kw: None)  # played below, once
    mine, theirs = ready_version(author, "secretive"), ready_version(other_author, "open")
    BotVersion.objects.filter(pk=mine.pk).update(log=VERSION_LOG, build_log=BUILD_LOG)
    failed = BotVersion.objects.create(
        bot=mine.bot, number=2, bundle_kind="zip", status=BotVersion.Status.FAILED,
        failure_reason=f"build failed: main.cpp:2: error: {BUILD_REASON}", build_log=BUILD_LOG,
    )  # fmt: skip
    match = ms.match_create_internal(
        kind="challenge", mode="duel", options={}, bot_versions=[mine, theirs], league=None,
        requested_by=author,
    )  # fmt: skip
    result, data = _replay(seed=3)
    assert not is_public(decode(data))

    def played(spec, **hooks):
        seats = [{"seat": 0, "score": result["scores"][0], "rank": result["ranks"][0],
                  "fault": "crash", "fault_detail": "exited with status 1", "time_used": 0.5,
                  "log": STDERR, "fault_evidence": EVIDENCE},
                 {"seat": 1, "score": result["scores"][1], "rank": result["ranks"][1],
                  "fault": "", "fault_detail": "", "time_used": 0.4, "log": ""}]  # fmt: skip
        return {"seats": seats, "result": result, "replay": data}

    sys.modules["workers.runner"].run_match = played  # the `runner` fixture's module
    ms.match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.replay_name

    # Stored before replays were stripped when recorded: the faults' private fields are in it.
    old_result, old_data = _replay(seed=4)
    old = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="duel", seed=4,
                               status=Match.Status.FINISHED, result=old_result,
                               requested_by=author)  # fmt: skip
    name, sha, size = save_replay(match_id=old.pk, data=old_data)
    Match.objects.filter(pk=old.pk).update(replay_name=name, replay_sha256=sha, replay_size=size)
    for seat, version in enumerate((mine, theirs)):
        MatchSeat.objects.create(
            match=old, seat=seat, bot_version=version, score=old_result["scores"][seat],
            rank=old_result["ranks"][seat], fault="crash" if seat == 0 else "",
            fault_detail="exited with status 1" if seat == 0 else "",
            log=STDERR if seat == 0 else "", fault_evidence=EVIDENCE if seat == 0 else None,
        )  # fmt: skip
    # A match being played: its live frames, published step by step as the runner does.
    file_live_logs(settings, tmp_path / "data")
    running = Match.objects.create(kind=Match.Kind.CHALLENGE, mode="duel", seed=5,
                                   status=Match.Status.RUNNING, requested_by=author)  # fmt: skip
    for seat, version in enumerate((mine, theirs)):
        MatchSeat.objects.create(match=running, seat=seat, bot_version=version)
    publisher = LivePublisher(match_id=running.pk, spec={
        "mode": "duel", "seed": 5, "seats": [{"seat": 0, "name": "secretive"},
                                             {"seat": 1, "name": "open"}]})  # fmt: skip
    live = new_game("duel", 2, 5)
    for step in play_recorded("duel", 2, 5)[1][:12]:
        publisher(live, step["seat"], live.apply(step["seat"], step["action"]), 0.001)
    staff = make_user("sam", is_staff=True)
    return {"mine": mine, "theirs": theirs, "match": match, "old": old, "staff": staff,
            "author": author, "other": other_author, "failed": failed,
            "running": running}  # fmt: skip


def _urls(world: dict[str, Any], signed_in: bool) -> list[str]:
    mine, match, old = world["mine"], world["match"], world["old"]
    bot = mine.bot_id
    failed = world["failed"].pk
    urls = [
        "/api/v1/bots/", f"/api/v1/bots/{bot}/", f"/api/v1/bots/{bot}/versions/",
        f"/api/v1/bot-versions/{mine.pk}/", f"/api/v1/bot-versions/{failed}/",
        f"/versions/{failed}/", f"/versions/{failed}/status/", "/api/v1/matches/",
        f"/api/v1/matches/?bot={bot}",
        f"/api/v1/bots/{bot}/head-to-head/",
        "/bots/", f"/bots/{bot}/", f"/versions/{mine.pk}/", f"/versions/{mine.pk}/status/",
        "/matches/", "/",
    ]  # fmt: skip
    for m in (match, old):
        urls += [f"/api/v1/matches/{m.pk}/", f"/api/v1/matches/{m.pk}/replay",
                 f"/matches/{m.pk}/", f"/replays/{m.pk}/"]  # fmt: skip
        urls += [f"/api/v1/matches/{m.pk}/frames?seat={s}" for s in ("spectator", "0", "1")]
    running = world["running"].pk
    urls += [f"/api/v1/matches/{running}/", f"/api/v1/matches/{running}/frames?seat=spectator",
             f"/matches/{running}/", f"/replays/{running}/"]  # fmt: skip
    if signed_in:
        urls += ["/api/v1/challenges/", "/dashboard/"]
    return urls


def _text(response: Any) -> str:
    """What a response tells its reader, whatever its encoding: a replay is decoded with
    replayfile.format, gzip'd frames unpacked, JSON and pages read as text."""
    body = response.content
    if response.get("Content-Encoding") == "gzip":
        body = gzip.decompress(body)
    if response["Content-Type"].startswith("application/zstd"):
        return json.dumps(decode(body), default=str)
    return body.decode()


def _client(user: Any | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _leaks(client: Client, urls: list[str]) -> dict[str, list[str]]:
    """url -> the private fragments its response holds."""
    leaks = {}
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200, (url, response.status_code)
        text = _text(response)
        found = [mark for marks in MARKS.values() for mark in marks if mark in text]
        if found:
            leaks[url] = found
    return leaks


@pytest.mark.parametrize("who", ["anonymous", "another author"])
def test_others_get_no_stderr_build_log_or_evidence_anywhere(world, who):
    user = None if who == "anonymous" else world["other"]
    assert _leaks(_client(user), _urls(world, signed_in=user is not None)) == {}
    # what they do read: that the versions failed, and how
    failed = _client(user).get(f"/api/v1/bot-versions/{world['failed'].pk}/").json()
    assert failed["status"] == "failed" and failed["failure_reason"] == "build failed"
    assert failed["log"] is None and failed["build_log"] is None
    live = _client(user).get(f"/api/v1/matches/{world['running'].pk}/frames?seat=spectator")
    assert live.json()["live"] is True and len(live.json()["steps"]) == 12  # steps were fetched


@pytest.mark.parametrize("who", ["owner", "staff"])
def test_the_owner_and_staff_get_them_where_they_are_kept(world, who):
    user = world["author"] if who == "owner" else world["staff"]
    leaks = _leaks(_client(user), _urls(world, signed_in=True))
    mine, match = world["mine"], world["match"]
    version_api = leaks[f"/api/v1/bot-versions/{mine.pk}/"]
    assert set(version_api) == {MARKS["stderr"][1], MARKS["build log"][0]}
    assert set(leaks[f"/versions/{mine.pk}/"]) == set(version_api)
    failed = world["failed"].pk
    assert set(leaks[f"/api/v1/bot-versions/{failed}/"]) == set(MARKS["build log"])
    assert set(leaks[f"/versions/{failed}/"]) == set(MARKS["build log"])
    every = {*version_api, *MARKS["build log"]}
    assert set(leaks[f"/api/v1/bots/{mine.bot_id}/versions/"]) == every
    for m in (match, world["old"]):
        assert set(leaks[f"/api/v1/matches/{m.pk}/"]) == {MARKS["stderr"][0], EVIDENCE_MARK}
        assert set(leaks[f"/matches/{m.pk}/"]) == {MARKS["stderr"][0], EVIDENCE_MARK}
        # the replay and the viewer's frames are public files: the same for everybody
        assert f"/api/v1/matches/{m.pk}/replay" not in leaks
        assert not any(url.startswith(f"/api/v1/matches/{m.pk}/frames") for url in leaks)
    body = _client(user).get(f"/api/v1/matches/{match.pk}/").json()
    assert body["seats"][0]["log"] == STDERR and body["seats"][0]["fault_evidence"] == EVIDENCE
    # the other author's seat: staff see its (empty) log, the owner of seat 0 nothing of it
    assert body["seats"][1]["log"] == ("" if who == "staff" else None)


def test_a_public_replay_keeps_what_verifying_and_watching_need(world):
    """The stored replay has each fault's seat, kind, step and message, and still proves
    itself (`arena verify`, `arena replay`); its sha256 is the one the API records."""
    match = world["match"]
    data = Client().get(f"/api/v1/matches/{match.pk}/replay").content
    assert hashlib.sha256(data).hexdigest() == match.replay_sha256
    doc = decode(data)
    assert doc["faults"] == [{"seat": 0, "kind": "crash", "step": 5,
                              "message": "exited with status 1", "seconds": 0.01}]  # fmt: skip
    assert verify_document(doc).ok
    frames = Client().get(f"/api/v1/matches/{match.pk}/frames?seat=spectator").json()
    [fault] = frames["faults"]  # the replay's, with where it happened said in words
    assert {k: fault[k] for k in doc["faults"][0]} == doc["faults"][0]
    assert fault["say"].startswith("seat 0 (") and "the default policy plays for it" in fault["say"]


def test_an_older_replay_is_stripped_when_sent_and_rewritten_by_the_command(world):
    old = world["old"]
    sent = Client().get(f"/api/v1/matches/{old.pk}/replay")
    doc = decode(sent.content)
    assert is_public(doc) and doc["faults"][0]["kind"] == "crash" and verify_document(doc).ok
    assert sent["ETag"] == f'"{hashlib.sha256(sent.content).hexdigest()}"'
    assert sent["ETag"] != f'"{old.replay_sha256}"'  # other bytes than the stored ones

    call_command("make_replays_public")
    old.refresh_from_db()
    again = Client().get(f"/api/v1/matches/{old.pk}/replay").content
    assert hashlib.sha256(again).hexdigest() == old.replay_sha256  # `arena replay` agrees
    assert decode(again) == doc
    call_command("make_replays_public")  # nothing left to do
    old.refresh_from_db()
    assert hashlib.sha256(again).hexdigest() == old.replay_sha256


@pytest.mark.django_db(transaction=True)
def test_the_cli_prints_what_the_api_decides(world, live_server, tmp_path, monkeypatch, capsys):
    """`arena matches` and `arena replay` against a real server: another author reads no
    stderr or evidence; the owner reads the evidence of their own seat."""
    from rest_framework.authtoken.models import Token

    monkeypatch.setitem(sys.modules, "workers.runner", real_runner)  # `arena play` imports it
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("ISLE_ARENA_SERVER", live_server.url)
    match = world["match"]

    def run(user: Any | None, *argv: str) -> tuple[int, str]:
        if user is None:
            monkeypatch.delenv("ISLE_ARENA_TOKEN", raising=False)
        else:
            monkeypatch.setenv("ISLE_ARENA_TOKEN", Token.objects.get_or_create(user=user)[0].key)
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out + err

    private = [mark for marks in MARKS.values() for mark in marks]
    for user in (None, world["other"]):
        for argv in (["matches"], ["matches", "--json"], ["matches", "--bot", "secretive"]):
            code, text = run(user, *argv)
            assert code == 0 and f"{match.pk}" in text, text
            assert not [mark for mark in private if mark in text], (user, argv, text)
        saved = tmp_path / f"match-{match.pk}.replay"
        code, text = run(user, "replay", str(match.pk), "-o", str(saved))
        assert code == 0 and "verified" in text, text
        assert not [m for m in private if m in json.dumps(decode(saved.read_bytes()))]
    code, text = run(world["author"], "matches", "--json")
    assert code == 0 and EVIDENCE_MARK in text
