"""Services called directly: scheduling, playing, recording (exactly once), ratings, reaper."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from competition import elo
from tournament.errors import BadGameConfig, Conflict, PermissionDenied
from tournament.models import BotVersion, League, LeagueEntry, Match, RatingChange
from tournament.services import leagues as ls
from tournament.services import matches as ms
from tournament.services.bots import bot_create, bot_version_upload, builtin_bots_register
from tournament.services.outcome import SeatOutcome
from tournament.services.ratings import rating_apply_match, ratings_recompute

pytestmark = pytest.mark.django_db


def _league(organiser, ready_version, *, n=3, mode="duel", seats=2, fmt="round_robin", **kw):
    league = ls.league_create(
        organiser=organiser, name=f"L-{mode}-{fmt}-{n}", mode=mode, seats=seats, format=fmt, **kw
    )
    for i in range(n):
        version = ready_version(organiser, f"bot{i}-{league.pk}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    return league


def test_round_robin_rotates_seats_and_shares_seeds(organiser, ready_version, runner):
    league = _league(organiser, ready_version, n=3, seeds=2)
    # Not started: nothing queued. Playing is tested separately; here only the schedule.
    entries = list(league.entries.order_by("pk"))
    tables = ls.round_robin_tables(entries, 2, 2)
    # C(3, 2) = 3 tables x 2 seeds x 2 rotations.
    assert len(tables) == 12
    seat_counts = Counter((order[i].pk, i) for _, order in tables for i in range(2))
    assert set(seat_counts.values()) == {4}  # every entrant sits in every seat 4 times


def test_round_robin_league_plays_to_the_end(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = _league(organiser, ready_version, n=3, mode="family", seats=3, seeds=2)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    matches = list(league.matches.all())
    assert len(matches) == 1 * 2 * 3  # one table, two seeds, three rotations
    assert {m.status for m in matches} == {Match.Status.FINISHED}
    assert league.status == League.Status.CLOSED
    # rotations of the same table and seed share the seed
    assert len({m.seed for m in matches}) == 2
    entries = list(league.entries.all())
    assert all(e.games == 6 for e in entries)
    assert sum(e.rating for e in entries) == pytest.approx(1500 * 3)
    assert sum(e.wins for e in entries) == 6
    assert RatingChange.objects.filter(league=league).count() == 18
    assert all(m.replay_name and len(m.replay_sha256) == 64 for m in matches)
    assert ratings_recompute(league_id=league.pk) == []


def test_recording_twice_counts_once(organiser, ready_version, runner):
    league = _league(organiser, ready_version, n=2)
    league.status = League.Status.RUNNING
    league.save()
    versions = [e.bot_version for e in league.entries.order_by("pk")]
    match = ms.match_create_internal(
        kind="league", mode="duel", options={}, bot_versions=versions, league=league,
        requested_by=None,
    )  # fmt: skip
    seats = [SeatOutcome(0, 10, 1), SeatOutcome(1, 5, 2)]
    assert ms.match_record_result(match_id=match.pk, seats=seats, result={}) is not None
    assert ms.match_record_result(match_id=match.pk, seats=seats, result={}) is None
    match.refresh_from_db()
    assert rating_apply_match(match=match) == []  # applying again changes nothing
    assert RatingChange.objects.filter(match=match).count() == 2
    ratings = sorted(LeagueEntry.objects.filter(league=league).values_list("rating", flat=True))
    assert ratings == pytest.approx([1484, 1516])
    assert ms.match_play(match_id=match.pk) is None  # a duplicate delivery is skipped
    assert runner.specs == []


def test_swiss_pairs_by_standing(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = _league(organiser, ready_version, n=4, fmt="swiss", rounds=2)
    names = {e.bot_version_id: e.bot_version.bot.name for e in league.entries.all()}
    # Whoever sits in seat 0 wins; standing after round 1 decides round 2's tables.
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    assert league.current_round == 2 and league.status == League.Status.CLOSED
    round1 = league.matches.filter(round=1)
    round2 = league.matches.filter(round=2)
    assert round1.count() == 2 and round2.count() == 2
    winners1 = {m.seats.get(rank=1).bot_version_id for m in round1}
    for match in round2:
        table = {s.bot_version_id for s in match.seats.all()}
        # winners meet winners, losers meet losers
        assert table <= winners1 or not (table & winners1), [names[v] for v in table]


def test_ladder_schedules_fewest_games_first(organiser, ready_version, runner):
    league = _league(organiser, ready_version, n=4, fmt="ladder")
    ls.league_start(league=league, user=organiser)  # on_commit not executed: stays queued
    queued = list(league.matches.filter(status=Match.Status.QUEUED))
    assert len(queued) == 2  # 4 entrants x 1 open match each / 2 seats
    seated = Counter(s.bot_version_id for m in queued for s in m.seats.all())
    assert set(seated.values()) == {1}  # fewest games: everyone plays once before anyone twice
    assert ls.ladders_schedule() == 0  # the queue is full


def test_solo_rating_against_sister(organiser, ready_version, runner):
    league = League.objects.create(
        name="solo", organiser=organiser, mode="solo", seats=1, format="round_robin",
        options={"difficulty": "expert"}, status=League.Status.RUNNING,
    )  # fmt: skip
    version = ready_version(organiser, "solo-bot")
    entry = LeagueEntry.objects.create(league=league, bot_version=version)
    runner.scores = lambda spec: [52.0]  # margin 52 - 40 = +12: a win against the sister
    match = ms.match_create_internal(
        kind="league", mode="solo", options=league.options, bot_versions=[version],
        league=league, requested_by=None,
    )  # fmt: skip
    ms.match_play(match_id=match.pk)
    entry.refresh_from_db()
    # E = 0.150979 against 1800: 1500 + 32 * 0.849021 = 1527.1687
    assert entry.rating == pytest.approx(elo.solo_update(1500, "expert", 12))
    assert entry.rating == pytest.approx(1527.1687, abs=1e-3)
    assert (entry.wins, entry.margin_sum) == (1, 12)
    assert ratings_recompute(league_id=league.pk) == []


def test_recompute_detects_tampering(
    organiser, ready_version, runner, django_capture_on_commit_callbacks, capsys
):
    league = _league(organiser, ready_version, n=2)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    call_command("recompute_ratings", league=league.pk)
    assert "ok, 2 matches" in capsys.readouterr().out
    LeagueEntry.objects.filter(league=league).update(rating=1499.0)
    with pytest.raises(CommandError, match="disagree"):
        call_command("recompute_ratings", league=league.pk)
    assert "stored rating 1499.0000" in capsys.readouterr().err


def test_runner_error_retries_then_fails(organiser, ready_version, runner):
    a, b = ready_version(organiser, "a"), ready_version(organiser, "b")
    match = ms.match_create_internal(
        kind="challenge", mode="duel", options={}, bot_versions=[a, b], league=None,
        requested_by=organiser,
    )  # fmt: skip
    runner.raise_error = RuntimeError("engine exploded")
    for _ in range(ms.MAX_ATTEMPTS):
        ms.match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FAILED and match.attempts == ms.MAX_ATTEMPTS
    assert "engine exploded" in match.error


def test_reaper_requeues_stale_running_matches(organiser, ready_version, runner):
    a, b = ready_version(organiser, "a"), ready_version(organiser, "b")
    match = ms.match_create_internal(
        kind="challenge", mode="duel", options={}, bot_versions=[a, b], league=None,
        requested_by=organiser,
    )  # fmt: skip
    ms.match_start(match_id=match.pk)
    assert ms.matches_reap_stale() == []  # not past its deadline yet
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert ms.matches_reap_stale() == [match.pk]
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED
    ms.match_play(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.attempts == 2


def test_paused_league_holds_its_matches(organiser, ready_version, runner):
    league = _league(organiser, ready_version, n=2)
    ls.league_start(league=league, user=organiser)
    ls.league_pause(league=league, user=organiser)
    match = league.matches.first()
    assert ms.match_play(match_id=match.pk) is None
    match.refresh_from_db()
    assert match.status == Match.Status.QUEUED


def test_upload_validation_marks_ready_or_failed(
    author, runner, django_capture_on_commit_callbacks
):
    builtin_bots_register()
    good = bot_create(owner=author, name="good")
    bad = bot_create(owner=author, name="crashy")
    with django_capture_on_commit_callbacks(execute=True):
        v1 = bot_version_upload(bot=good, user=author, filename="bot.py", data=b"print(1)\n")
    v1.refresh_from_db()
    assert v1.status == BotVersion.Status.READY and v1.number == 1 and len(v1.sha256) == 64
    runner.scores = None
    with django_capture_on_commit_callbacks(execute=True):
        v2 = bot_version_upload(
            bot=bad, user=author, filename="bot.py", data=b"raise SystemExit(1)"
        )
    v2.refresh_from_db()
    assert v2.status == BotVersion.Status.FAILED
    assert "crash" in v2.failure_reason and "Traceback" in v2.log
    validation = runner.specs[-1]
    assert [s["builtin"] for s in validation["seats"]] == [None, "random"]


def test_rules_are_enforced(organiser, author, other_author, ready_version):
    with pytest.raises(PermissionDenied):
        ls.league_create(organiser=author, name="x", mode="duel", seats=2, format="ladder")
    with pytest.raises(BadGameConfig, match="2 seats, not 3"):
        ls.league_create(organiser=organiser, name="x", mode="duel", seats=3, format="ladder")
    with pytest.raises(BadGameConfig, match="Unknown or unavailable mode"):
        ls.league_create(organiser=organiser, name="x", mode="chess", seats=2, format="ladder")
    league = _league(organiser, ready_version, n=1)
    with pytest.raises(Conflict, match="more entrants"):
        ls.league_start(league=league, user=organiser)
    with pytest.raises(Conflict, match="already entered"):
        ls.league_entry_add(
            league=league, user=organiser,
            bot_version_id=league.entries.get().bot_version_id,
        )  # fmt: skip
    theirs = ready_version(other_author, "theirs")
    with pytest.raises(PermissionDenied):
        ls.league_entry_add(league=league, user=author, bot_id=theirs.bot_id)
    # the organiser may invite any ready bot
    assert ls.league_entry_add(league=league, user=organiser, bot_id=theirs.bot_id).pk


def test_ladder_keeps_playing_and_beat_task_tops_up(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    from tournament.tasks import ladders_schedule_task, matches_reap_stale_task

    league = _league(organiser, ready_version, n=4, fmt="ladder")
    ls.league_start(league=league, user=organiser)  # two queued matches, not yet played
    first = list(league.matches.values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        ms.match_play(match_id=first[0])
    # finishing a ladder match schedules its replacement at once
    assert league.matches.filter(status=Match.Status.QUEUED).count() == 2
    assert len(callbacks) == 1
    assert ladders_schedule_task.apply().get() == 0  # the beat job finds the ladder full
    assert matches_reap_stale_task.apply().get() == []
    entries = list(LeagueEntry.objects.filter(league=league))
    assert sum(e.games for e in entries) == 2
    assert ratings_recompute(league_id=league.pk) == []


def test_reaper_resends_long_queued_matches_and_a_duplicate_counts_once(
    organiser, ready_version, runner, settings, django_capture_on_commit_callbacks
):
    from tournament.tasks import match_play_task, matches_reap_stale_task

    settings.REAPER_QUEUED_AGE_SECONDS = 600
    league = _league(organiser, ready_version, n=2)
    ls.league_start(league=league, user=organiser)  # the messages are "lost": never executed
    matches = list(league.matches.order_by("pk"))
    assert len(matches) == 2
    assert ms.matches_reap_stale() == []  # queued for less than the age: left alone
    Match.objects.filter(league=league).update(queued_at=timezone.now() - timedelta(seconds=601))
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        assert matches_reap_stale_task.apply().get() == [m.pk for m in matches]
    assert len(callbacks) == 2  # the play task was sent again for each, and ran
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.FINISHED and match.attempts == 1
        # The first message was only slow after all: it arrives and is skipped.
        assert match_play_task.apply(args=[match.pk]).get() == "skipped"
        assert RatingChange.objects.filter(match=match).count() == 2
    assert list(LeagueEntry.objects.filter(league=league).values_list("games", flat=True)) == [2, 2]
    assert len(runner.specs) == 2
    league.refresh_from_db()
    assert league.status == League.Status.CLOSED
    assert ratings_recompute(league_id=league.pk) == []


def test_reaper_resends_once_per_age_and_spares_paused_leagues(organiser, ready_version, settings):
    settings.REAPER_QUEUED_AGE_SECONDS = 600
    league = _league(organiser, ready_version, n=2)
    ls.league_start(league=league, user=organiser)
    a, b = ready_version(organiser, "a"), ready_version(organiser, "b")
    challenge = ms.match_create_internal(
        kind="challenge", mode="duel", options={}, bot_versions=[a, b], league=None,
        requested_by=organiser,
    )  # fmt: skip
    old = timezone.now() - timedelta(seconds=601)
    Match.objects.update(queued_at=old)
    ls.league_pause(league=league, user=organiser)
    assert ms.matches_reap_stale() == [challenge.pk]  # the paused league's match waits
    assert ms.matches_reap_stale() == []  # re-sent just now: not again before the age
    later = timezone.now() + timedelta(seconds=601)
    assert ms.matches_reap_stale(now=later) == [challenge.pk]
    # resuming sends the league's matches again, so they are not "lost" either
    ls.league_start(league=league, user=organiser)
    assert set(ms.matches_reap_stale(now=timezone.now() + timedelta(seconds=300))) == set()


def test_swiss_bye_goes_to_the_lowest_ranked_without_one():
    standing = ["a", "b", "c", "d", "e"]
    assert ls.swiss_byes(standing, 2, [0, 0, 0, 0, 0]) == ["e"]
    assert ls.swiss_byes(standing, 2, [0, 0, 0, 0, 1]) == ["d"]
    assert ls.swiss_byes(standing, 2, [0, 1, 1, 1, 1]) == ["a"]
    assert ls.swiss_byes(standing, 2, [1, 1, 1, 1, 1]) == ["e"]  # everyone had one: start again
    assert ls.swiss_byes(standing, 3, [0, 0, 0, 1, 0]) == ["c", "e"]
    assert ls.swiss_byes(standing[:4], 2, [0, 0, 0, 0]) == []
    tables = ls.swiss_tables(standing, 2, 1, byes=["d"])
    assert tables == [("b", "a"), ("e", "c")]


def test_swiss_bye_rotates_through_the_league(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = _league(organiser, ready_version, n=3, fmt="swiss", rounds=3)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    assert league.status == League.Status.CLOSED and league.current_round == 3
    entries = list(league.entries.all())
    assert [e.byes for e in entries] == [1, 1, 1]  # three rounds, three different byes
    sat_out = []
    for rnd in (1, 2, 3):
        playing = set(
            league.matches.filter(round=rnd).values_list("seats__bot_version", flat=True)
        )
        (bye,) = {e.bot_version_id for e in entries} - playing
        sat_out.append(bye)
    assert len(set(sat_out)) == 3
    assert all(e.games == 2 for e in entries)


def test_failed_upload_transaction_leaves_no_bundle_file(author, runner, monkeypatch):
    from django.core.files.storage import storages

    from tournament.services import bots

    builtin_bots_register()
    bot = bot_create(owner=author, name="orphan")

    def broken(version):
        raise RuntimeError("database went away")

    monkeypatch.setattr(bots, "_queue_validation", broken)
    with pytest.raises(RuntimeError, match="went away"):
        bot_version_upload(bot=bot, user=author, filename="bot.py", data=b"print(1)\n")
    assert not BotVersion.objects.filter(bot=bot).exists()
    storage = storages["bots"]
    assert not storage.exists(str(bot.pk)) or storage.listdir(str(bot.pk)) == ([], [])
    monkeypatch.undo()
    version = bot_version_upload(bot=bot, user=author, filename="bot.py", data=b"print(1)\n")
    assert storage.listdir(str(bot.pk))[1] == [version.bundle_name.split("/")[-1]]


def test_validation_match_uses_the_league_limits_and_a_silent_startup_grace(
    author, organiser, ready_version, settings
):
    from competition.limits import Limits
    from workers.protocol.wire import start_message
    from workers.runner import MatchSpec

    settings.BOT_DECISION_TIME_LIMIT, settings.BOT_TIME_BANK = 1.0, 30.0
    settings.BOT_VALIDATION_STARTUP_GRACE_SECONDS = 25.0
    builtin_bots_register()
    bot = bot_create(owner=author, name="slow-thinker")
    version = bot_version_upload(bot=bot, user=author, filename="bot.py", data=b"print(1)\n")
    validation = Match.objects.get(kind=Match.Kind.VALIDATION, seats__bot_version=version)
    assert (validation.decision_time_limit, validation.time_bank) == (1.0, 30.0)
    league = _league(organiser, ready_version, n=2)
    ls.league_start(league=league, user=organiser)
    league_match = Match.objects.filter(league=league).first()
    specs = {m.kind: MatchSpec.from_json(ms.match_spec(m)) for m in (validation, league_match)}
    assert specs["validation"].limits.startup_grace_seconds == 25.0
    assert specs["league"].limits.startup_grace_seconds == 0.0
    assert specs["validation"].limits.startup_seconds == specs["league"].limits.startup_seconds

    # What the bot is told in `start` is byte-for-byte the same in both kinds of match.
    import engine

    game = engine.new_game("duel", 2, 1, {})
    told = {
        kind: start_message(game, 0, spec.limits)["limits"] for kind, spec in specs.items()
    }
    assert told["validation"] == told["league"] == Limits().protocol_view()
    # a challenge still gets the ordinary limits
    random_version = builtin_bots_register()["random"]
    challenge = ms.match_create_internal(
        kind="challenge", mode="duel", options={}, bot_versions=[random_version] * 2,
        league=None, requested_by=author,
    )  # fmt: skip
    assert (challenge.decision_time_limit, challenge.time_bank) == (1.0, 30.0)
