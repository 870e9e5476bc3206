"""Faults count: with the real runner and sandbox, a seat that crashes ranks last and
loses rating to every other seat, as the match API, the ladder API and the league page show;
a validation with a syntax error fails and ranks the bot last. With the scripted runner: a
version that faults in FAULT_SUSPEND_AFTER rated matches in a row is suspended from scheduling
and challenges, its author sees it and resumes it; a new version lifts nothing, and the
suspended version plays no more until the new one is entered in its place."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client

from tests.workers.conftest import EXAMPLES, hostile
from tournament.models import BotVersion, Match, MatchSeat
from tournament.services import leagues as ls
from tournament.services.bots import builtin_bots_register
from tournament.services.matches import match_play

from .conftest import client_for
from .test_compiled_bots import new_bot, upload

pytestmark = [pytest.mark.django_db]


def _ready(author, name: str, path: str, capture) -> BotVersion:
    bot_id = new_bot(author, name)
    created = upload(author, bot_id, f"{name}.py", Path(path).read_bytes(), capture)
    version = BotVersion.objects.get(pk=created["id"])
    assert version.status == BotVersion.Status.READY, version.failure_reason
    return version


def _league_row(html: str, bot_name: str) -> list[str]:
    """The cells of the ladder row of `bot_name` on the league page (the ladder's section:
    the faults-by-entrant table above it names the bot too)."""
    html = html[html.index('aria-labelledby="ladder-title"'):]
    for row in re.findall(r"<tr>(.*?)</tr>", html, flags=re.S):
        if f">{bot_name} v" in row or f">{bot_name}<" in row:
            return re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
    raise AssertionError(f"no ladder row for {bot_name}")


@pytest.mark.slow
def test_a_crashing_seat_ranks_4th_and_loses_rating_to_every_other_seat(
    author, organiser, django_capture_on_commit_callbacks
) -> None:
    """Four real bots in a 4-seat round robin (each sits in each seat once). The quitter
    passes validation in seat 0 and crashes at its first decision elsewhere: in those three
    matches it ranks 4th and its Elo and OpenSkill fall more than any other seat's."""
    builtin_bots_register()
    capture = django_capture_on_commit_callbacks
    quitter = _ready(author, "quitter", hostile("exits_off_seat0"), capture)
    others = [
        _ready(author, "rand-a", str(EXAMPLES / "random_bot.py"), capture),
        _ready(author, "heur", str(EXAMPLES / "heuristic_bot.py"), capture),
        _ready(author, "rand-b", str(EXAMPLES / "random_bot.py"), capture),
    ]
    # the version page's stderr holds what the example bot writes at `end`
    assert "final scores:" in others[0].log
    owner_page = Client()
    owner_page.force_login(author)
    html = owner_page.get(f"/versions/{others[0].pk}/").content.decode()
    assert "final scores:" in html and "wrote nothing on stderr" not in html
    league = ls.league_create(
        organiser=organiser, name="faults count", mode="standard", seats=4, format="round_robin"
    )
    for version in [quitter, *others]:
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with capture(execute=True):
        ls.league_start(league=league, user=organiser)
    matches = list(league.matches.order_by("pk"))
    assert [m.status for m in matches] == [Match.Status.FINISHED] * 4
    crashed = [m for m in matches if m.seats.get(bot_version=quitter).fault]
    assert len(crashed) == 3
    api = client_for(None)
    for match in crashed:
        seat = match.seats.get(bot_version=quitter)
        assert seat.fault == "crash" and seat.rank == 4 and seat.score is not None
        assert sorted(s.rank for s in match.seats.exclude(bot_version=quitter)) != [4]
        assert all(s.rank < 4 and s.fault == "" for s in match.seats.exclude(pk=seat.pk))
        changes = {c.bot_version_id: c for c in match.rating_changes.all()}
        lost = changes[quitter.pk]
        assert lost.after < lost.before and lost.mu_after < lost.mu_before
        for version in others:
            change = changes[version.pk]
            assert change.after - change.before > lost.after - lost.before
            assert change.mu_after - change.mu_before > lost.mu_after - lost.mu_before
        body = api.get(f"/api/v1/matches/{match.pk}/").json()
        shown = {s["bot_version"]: s for s in body["seats"]}
        assert shown[quitter.pk]["rank"] == 4 and shown[quitter.pk]["fault"] == "crash"
        assert shown[quitter.pk]["score"] is not None
        assert body["result"]["faulted"] == [seat.seat]
    # the ladder counts its faults; the quitter is last, with the most losses
    ladder = api.get(f"/api/v1/leagues/{league.pk}/ladder/").json()["results"]
    row = next(r for r in ladder if r["bot_version"] == quitter.pk)
    assert row["faults"] == 3 and row["suspended"] is False
    assert row["rank"] == len(ladder) and row["placements"][3] >= 3
    assert all(r["faults"] == 0 for r in ladder if r["bot_version"] != quitter.pk)
    # every stored replay proves its match, faulted seats' ranks included
    out = io.StringIO()
    call_command("verify_replays", "--league", str(league.pk), stdout=out)
    assert "4 replay(s) checked, 0 mismatch(es)" in out.getvalue()
    html = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert "Faults</abbr>" in html
    cells = _league_row(html, "quitter")
    assert cells[-1].strip() == "3" and cells[0].strip() == str(len(ladder))


@pytest.mark.slow
def test_a_validation_with_a_syntax_error_fails_and_ranks_the_bot_last(
    author, django_capture_on_commit_callbacks
) -> None:
    builtin_bots_register()
    bot_id = new_bot(author, "typo")
    created = upload(author, bot_id, "typo.py", b"def main(:\n    pass\n",
                     django_capture_on_commit_callbacks)  # fmt: skip
    version = BotVersion.objects.get(pk=created["id"])
    assert version.status == BotVersion.Status.FAILED
    assert version.failure_reason.startswith(("crash:", "exited:"))
    assert "SyntaxError" in version.log
    seat = MatchSeat.objects.get(bot_version=version, match__kind=Match.Kind.VALIDATION)
    assert seat.rank == 2 and seat.fault and seat.score is not None
    assert seat.match.seats.get(seat=1).rank == 1
    page = client_for(author).get(f"/matches/{seat.match_id}/").content.decode()
    assert "(faulted)" in page and "A seat that faults loses" in page
    # a failed validation is not a rated match: the fault rate is untouched
    assert (version.seats_finished, version.seats_faulted) == (0, 0)
    bot_page = Client().get(f"/bots/{bot_id}/").content.decode()
    stats = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", bot_page))
    assert "0 rated seats played — fault rate (0)" in stats


def _play_until(league, condition, limit: int = 60) -> None:
    """Play the league's queued matches one at a time (the scripted runner) until
    `condition()` holds."""
    for _ in range(limit):
        if condition():
            return
        match = league.matches.filter(status=Match.Status.QUEUED).order_by("pk").first()
        assert match is not None, "the ladder stopped scheduling"
        match_play(match_id=match.pk)
    raise AssertionError("the condition never held")


def test_faulting_k_rated_matches_in_a_row_suspends_until_resumed_or_replaced(
    author, other_author, organiser, ready_version, runner, settings
) -> None:
    settings.FAULT_SUSPEND_AFTER = 3
    crasher = ready_version(author, "shaky")
    runner.faulty = lambda seat: seat["bot_version_id"] == crasher.pk
    league = ls.league_create(
        organiser=organiser, name="suspensions", mode="duel", seats=2, format="ladder"
    )
    for version in [crasher] + [ready_version(organiser, f"steady{i}") for i in range(3)]:
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    ls.league_start(league=league, user=organiser)  # its matches stay queued: played below

    def suspended() -> bool:
        crasher.refresh_from_db()
        return crasher.suspended_at is not None

    _play_until(league, suspended)
    assert crasher.fault_streak == 3 and crasher.seats_faulted == 3
    assert "faulted in 3 rated matches in a row" in crasher.suspension_reason
    assert crasher.suspension_reason.endswith("(the last: crash)")  # no private detail
    # no new match seats it: play on and look at every match made from now on
    made_before = league.matches.order_by("-pk").first().pk
    _play_until(league, lambda: league.matches.filter(pk__gt=made_before).count() >= 6)
    later = MatchSeat.objects.filter(match__league=league, match__pk__gt=made_before)
    assert later.exists() and not later.filter(bot_version=crasher).exists()
    # nor does a challenge
    refused = client_for(author).post("/api/v1/challenges/", {
        "mode": "duel", "bot_versions": [crasher.pk, later.first().bot_version_id],
    }, format="json")  # fmt: skip
    assert refused.status_code == 409 and "suspended" in refused.json()["error"]["message"]
    # its author sees it on the dashboard and the bot page, the league shows it to all
    dashboard = Client()
    dashboard.force_login(author)
    html = dashboard.get("/dashboard/").content.decode()
    assert "is suspended</b>" in html and f"/versions/{crasher.pk}/resume/" in html
    html = dashboard.get(f"/bots/{crasher.bot_id}/").content.decode()
    assert "suspended</span>" in html and "Resume v1" in html
    html = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert "suspended</span>" in html
    # only its author may resume it; then it is scheduled again
    denied = client_for(other_author).post(f"/api/v1/bot-versions/{crasher.pk}/resume/")
    assert denied.status_code == 403
    resumed = client_for(author).post(f"/api/v1/bot-versions/{crasher.pk}/resume/")
    assert resumed.status_code == 200 and resumed.json()["suspended_at"] is None
    assert resumed.json()["fault_streak"] == 0
    again = client_for(author).post(f"/api/v1/bot-versions/{crasher.pk}/resume/")
    assert again.status_code == 409
    made_before = league.matches.order_by("-pk").first().pk
    _play_until(league, lambda: MatchSeat.objects.filter(
        match__league=league, match__pk__gt=made_before, bot_version=crasher,
        match__status=Match.Status.FINISHED,
    ).exists())  # fmt: skip
    # it still faults: suspended again after three more
    _play_until(league, suspended)
    # a new version passes validation: it is a version of its own, and lifts nothing
    data = b"# a fixed bot\n"
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client_for(author).post(
        f"/api/v1/bots/{crasher.bot_id}/versions/",
        {"file": SimpleUploadedFile("fixed.py", data)}, format="multipart",
    )  # fmt: skip
    assert response.status_code == 201
    new = BotVersion.objects.get(pk=response.json()["id"])
    validation = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=new)
    match_play(match_id=validation.pk)
    new.refresh_from_db()
    assert new.status == BotVersion.Status.READY and new.suspended_at is None
    assert suspended() and crasher.fault_streak == 3
    # the league's entry is still the broken version: it plays no more rated matches
    made_before = league.matches.order_by("-pk").first().pk
    _play_until(league, lambda: league.matches.filter(pk__gt=made_before).count() >= 6)
    later = MatchSeat.objects.filter(match__league=league, match__pk__gt=made_before)
    assert not later.filter(bot_version=crasher).exists()
    crasher.refresh_from_db()
    # every rated seat it played faulted: three before the resume, three after, and any
    # match the ladder had queued before a suspension (suspending stops scheduling only)
    played = MatchSeat.objects.filter(bot_version=crasher, match__status=Match.Status.FINISHED)
    assert crasher.seats_faulted == played.count() >= 6
    # the new version takes its place when its author enters it
    entered = client_for(author).post(f"/api/v1/leagues/{league.pk}/entries/",
                                      {"bot_version": new.pk}, format="json")  # fmt: skip
    assert entered.status_code == 201, entered.content
    made_before = league.matches.order_by("-pk").first().pk
    _play_until(league, lambda: MatchSeat.objects.filter(
        match__league=league, match__pk__gt=made_before, bot_version=new,
    ).exists())  # fmt: skip


def test_the_site_resume_button_lifts_a_suspension(author, ready_version, settings) -> None:
    from django.utils import timezone

    version = ready_version(author, "paused-bot")
    BotVersion.objects.filter(pk=version.pk).update(
        suspended_at=timezone.now(), suspension_reason="faulted in 5 rated matches in a row",
        fault_streak=5,
    )  # fmt: skip
    site = Client()
    site.force_login(author)
    response = site.post(f"/versions/{version.pk}/resume/", {"next": "dashboard"})
    assert response.status_code == 302 and response["Location"] == "/dashboard/"
    version.refresh_from_db()
    assert version.suspended_at is None and version.fault_streak == 0
    assert "is resumed" in site.get("/dashboard/").content.decode()
