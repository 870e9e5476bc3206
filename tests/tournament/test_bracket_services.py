"""Brackets played through the services with the scripted runner (eager tasks): elimination
with byes and a grand-final reset, a 4-seat multi-table knockout to the end, a season (a
ladder's close fills and starts its playoff), the podium, and the 400s of bad settings."""

from __future__ import annotations

import pytest

from tournament.errors import ValidationFailed
from tournament.models import Bracket, BracketSeries, League, LeagueEntry, LeaguePlace, Match
from tournament.services import brackets as bs
from tournament.services import leagues as ls
from tournament.services import matches as ms

pytestmark = pytest.mark.django_db


def _strength(spec):
    """Score of each seat: the bot's strength, its name's number (s90-... beats s10-...)."""
    return [float(seat["name"].split("-")[0][1:]) for seat in spec["seats"]]


def _bracket(organiser, ready_version, strengths, *, fmt, seats=2, mode="duel", **kw):
    league = bs.bracket_league_create(
        organiser=organiser, name=f"B-{fmt}-{len(strengths)}", mode=mode, seats=seats,
        format=fmt, **kw,
    )  # fmt: skip
    for i, s in enumerate(strengths):
        version = ready_version(organiser, f"s{s}-{i}-{league.pk}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    return league


def _names(league):
    return [
        (p.place, p.entry.bot_version.bot.name.split("-")[0])
        for p in LeaguePlace.objects.filter(league=league).select_related("entry__bot_version__bot")
    ]


def test_double_elimination_of_five_plays_to_a_champion(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    runner.scores = _strength
    league = _bracket(organiser, ready_version, [10, 50, 30, 40, 20], fmt="double_elim",
                      best_of=3, seeding="random")  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    assert league.status == League.Status.CLOSED
    bracket = league.bracket
    assert bracket.finished_at is not None
    matches = list(league.matches.all())
    assert matches and {m.status for m in matches} == {Match.Status.FINISHED}
    # best of 3 with a certain winner: every played series is a 2-0 on two seeds, seats swapped
    for series in bracket.series.filter(games__isnull=False).distinct():
        games = list(series.games.select_related("match").order_by("number"))
        assert len(games) == 2
        assert games[0].match.seed != games[1].match.seed
        first = [s.bot_version_id for s in games[0].match.seats.order_by("seat")]
        second = [s.bot_version_id for s in games[1].match.seats.order_by("seat")]
        assert first == second[::-1]
    # three byes in round 1 of a bracket of 8 padded from 5: walkovers, no games
    walkovers = bracket.series.filter(stage="winners", round=1, games__isnull=True)
    assert walkovers.count() == 3
    # the strongest never loses: champion in the grand final, no reset
    assert bracket.series.get(key="GF2").status == BracketSeries.Status.VOID
    places = _names(league)
    assert places[:3] == [(1, "s50"), (2, "s40"), (3, "s30")]
    assert LeaguePlace.objects.get(league=league, place=1).result == "Champion"


def test_grand_final_reset_when_the_losers_finalist_wins(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    """Two entrants: the loser of the first series meets the winner again in the grand final;
    when it wins that, the reset is played."""
    calls = {"n": 0}

    def scores(spec):
        calls["n"] += 1
        strengths = _strength(spec)
        if calls["n"] == 1:  # the first series (one game): the weaker wins
            return [100 - s for s in strengths]
        return strengths

    runner.scores = scores
    league = _bracket(organiser, ready_version, [90, 10], fmt="double_elim", best_of=1,
                      seeding="random")  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    bracket = league.bracket
    assert league.status == League.Status.CLOSED
    assert bracket.series.get(key="GF2").status == BracketSeries.Status.DONE
    assert _names(league) == [(1, "s90"), (2, "s10")]


def test_four_seat_knockout_to_the_end(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    runner.scores = _strength
    strengths = [10, 20, 30, 40, 50, 60, 70, 80, 90]
    league = _bracket(organiser, ready_version, strengths, fmt="knockout", seats=4,
                      mode="standard", advance=2, best_of=4, seeding="random")  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    assert league.status == League.Status.CLOSED
    rounds = {}
    for s in league.bracket.series.all():
        rounds.setdefault(s.round, []).append(s)
    # 9 at 4 seats: two tables and a bye (2 x 2 + 1 = 5 go on), then one table and a bye
    # (3 go on to fill the final), then the final table
    assert [len([s for s in rounds[r] if s.stage == "table"]) for r in sorted(rounds)] == [2, 1, 1]
    assert [len([s for s in rounds[r] if s.stage == "bye"]) for r in sorted(rounds)] == [1, 1, 0]
    bye = next(s for s in rounds[1] if s.stage == "bye")
    assert bye.slots == league.bracket.seeds[:1]  # the bye goes to the top seed
    final = next(s for s in rounds[max(rounds)] if s.stage == "table")
    assert len(final.slots) == 4 and final.games.count() == 4
    places = _names(league)
    # the two strongest finish in the top 2 of every table, so they always meet in the final;
    # the third place is the strongest of the other finalists (the random draw may have put
    # s70 at one table with both of them, where it went out)
    assert places[:2] == [(1, "s90"), (2, "s80")]
    finalists = [
        e.bot_version.bot.name.split("-")[0]
        for e in LeagueEntry.objects.filter(pk__in=final.slots).select_related("bot_version__bot")
    ]
    third = max(set(finalists) - {"s90", "s80"}, key=lambda name: int(name[1:]))
    assert places[2] == (3, third)
    assert [p for p, _ in places[:4]] == [1, 2, 3, 4] and len(places) == 9
    # every game of a table seats its four entrants in a rotated order
    for g in final.games.select_related("match"):
        assert g.match.seats.count() == 4


def test_season_ladder_close_starts_its_playoff(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    runner.scores = _strength
    ladder = ls.league_create(organiser=organiser, name="Season ladder", mode="duel", seats=2,
                              format="ladder")  # fmt: skip
    for i, s in enumerate([15, 25, 35, 45, 55, 65]):
        version = ready_version(organiser, f"s{s}-{i}-ladder")
        ls.league_entry_add(league=ladder, user=organiser, bot_version_id=version.pk)
    playoff = bs.bracket_league_create(
        organiser=organiser, name="Season playoff", mode="duel", seats=2, format="double_elim",
        best_of=3, seeding="standings", playoff_of=ladder.pk, playoff_top=4,
    )  # fmt: skip
    ls.league_start(league=ladder, user=organiser)
    for _ in range(12):  # a ladder tops itself up after each game: play its queue by hand
        queued = ladder.matches.filter(status=Match.Status.QUEUED).first()
        with django_capture_on_commit_callbacks(execute=False):
            ms.match_play(match_id=queued.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_close(league=ladder, user=organiser)
    ladder_top = [e.bot_version_id for e in ladder.entries.order_by("-rating")[:4]]
    playoff.refresh_from_db()
    assert playoff.status == League.Status.CLOSED  # played through with no further action
    assert sorted(playoff.entries.values_list("bot_version_id", flat=True)) == sorted(ladder_top)
    seeds = [playoff.entries.get(pk=e).bot_version_id for e in playoff.bracket.seeds]
    assert seeds == ladder_top  # seeded by the ladder's final standing
    assert LeaguePlace.objects.filter(league=ladder).count() == 6  # the ladder's podium too
    assert _names(playoff)[0] == (1, "s65")


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"format": "double_elim", "seats": 4, "mode": "standard"}, "2-seat modes"),
        ({"format": "knockout", "seats": 2}, "3- and 4-seat modes"),
        ({"format": "single_elim", "best_of": 4}, "odd number"),
        ({"format": "knockout", "seats": 4, "mode": "standard", "advance": 4}, "Advance per table"),
        ({"format": "single_elim", "seeding": "standings"}, "under “Playoff of”"),
        ({"format": "single_elim", "seeding": "luck"}, "Seeding must be one of"),
        ({"format": "single_elim", "playoff_of": 999999, "playoff_top": 4}, "does not exist"),
    ],
)
def test_bad_bracket_settings_are_refused(organiser, fields, message):
    kw = {"name": "Bad", "mode": "duel", "seats": 2, **fields}
    with pytest.raises(ValidationFailed) as exc:
        bs.bracket_league_create(organiser=organiser, **kw)
    assert message in exc.value.message
    assert not League.objects.filter(name="Bad").exists()


def test_a_bracket_of_one_does_not_start(organiser, ready_version):
    league = _bracket(organiser, ready_version, [10], fmt="single_elim", seeding="random")
    with pytest.raises(ValidationFailed) as exc:
        ls.league_start(league=league, user=organiser)
    assert "at least 2 entrants" in exc.value.message
    league.refresh_from_db()
    assert league.status == League.Status.DRAFT
    assert Bracket.objects.get(league=league).series.count() == 0
