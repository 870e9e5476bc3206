"""Rating chart points kept on each entrant (competition/rating_history.py): bounded and evenly
spaced however long the history, and the same whether counted one result at a time, rebuilt
from the rating changes, or backfilled by migration 0012."""

from __future__ import annotations

import importlib

import pytest

from competition import rating_history as rating_points
from tournament.models import League, LeagueEntry, Match
from tournament.services import leagues as ls
from tournament.services.ratings import rating_charts_rebuild


def test_points_stay_few_and_even_however_long_the_history():
    chart = None
    for games in range(1, 5001):
        chart = rating_points.add_point(
            chart, league_match=3 * games, games=games, before=1500.0 + games - 1,
            after=1500.0 + games,
        )  # fmt: skip
        points, stride = chart["points"], chart["stride"]
        assert len(points) <= 2 * rating_points.MAX_POINTS + 1
        assert points[0] == [2, 0, 1500.0]  # where the entrant started
        assert points[-1] == [3 * games, games, 1500.0 + games]  # always the newest
        assert all(p[1] % stride == 0 for p in points[:-1])
    assert chart["stride"] == 16 and len(chart["points"]) > rating_points.MAX_POINTS
    kept = chart["points"][:-1]  # the newest point is off the stride
    steps = {b[1] - a[1] for a, b in zip(kept, kept[1:], strict=False)}
    assert steps == {16}  # evenly spaced


def test_short_histories_keep_every_point():
    chart = None
    for games in range(1, 4):
        chart = rating_points.add_point(chart, league_match=games, games=games,
                                        before=float(games), after=float(games + 1))  # fmt: skip
    assert chart == {"stride": 1, "points": [[0, 0, 1.0], [1, 1, 2.0], [2, 2, 3.0], [3, 3, 4.0]]}


@pytest.mark.django_db
def test_points_counted_with_results_are_what_the_history_gives(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    from django.apps import apps

    league = ls.league_create(
        organiser=organiser, name="pts", mode="family", seats=3, format="round_robin", seeds=2
    )
    for i in range(5):
        version = ready_version(organiser, f"pts{i}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    finished = league.matches.filter(status=Match.Status.FINISHED).count()
    assert finished == 60  # C(5, 3) tables x 3 rotations x 2 seeds
    league.refresh_from_db()
    assert league.rated_matches == finished

    def charts() -> dict:
        return dict(LeagueEntry.objects.filter(league=league).values_list("pk", "chart"))

    kept = charts()
    for entry in LeagueEntry.objects.filter(league=league):
        points = kept[entry.pk]["points"]
        assert len(points) == entry.games + 1 and points[-1][1:] == [entry.games, entry.rating]
        numbers = [p[0] for p in points]
        assert numbers == sorted(numbers) and numbers[-1] <= finished
    LeagueEntry.objects.filter(league=league).update(chart={})
    League.objects.filter(pk=league.pk).update(rated_matches=0)
    rating_charts_rebuild(league_id=league.pk)
    assert charts() == kept and League.objects.get(pk=league.pk).rated_matches == finished
    LeagueEntry.objects.filter(league=league).update(chart={})
    migration = importlib.import_module("tournament.migrations.0013_pages_without_history")
    migration.draw_rating_charts(apps, None)
    assert charts() == kept
