"""Head-to-head: the pure tally, the league and bot selectors, and their API endpoints."""

from __future__ import annotations

import pytest

from competition import head_to_head_tally as h2h
from tournament import selectors
from tournament.models import League, Match
from tournament.services import leagues as ls
from tournament.services.challenges import challenge_create

from .conftest import client_for


def test_tally_reads_every_pair_of_seats_by_rank():
    rows = [
        # match 1: a first, b and c share second, d crashed (no rank: last)
        h2h.SeatRow(1, "a", 1, 60.0), h2h.SeatRow(1, "b", 2, 50.0),
        h2h.SeatRow(1, "c", 2, 50.0), h2h.SeatRow(1, "d", None, 0.0),
        # match 2: b beats a
        h2h.SeatRow(2, "a", 2, 30.0), h2h.SeatRow(2, "b", 1, 40.0),
        # match 3: two copies of a and one of c: a-a is no head-to-head
        h2h.SeatRow(3, "a", 1, 10.0), h2h.SeatRow(3, "a", 2, 5.0), h2h.SeatRow(3, "c", 3, 1.0),
    ]  # fmt: skip
    t = h2h.tally(rows)
    ab = t["a", "b"]
    assert (ab.games, ab.wins, ab.draws, ab.losses) == (2, 1, 0, 1)
    assert ab.mean_score_diff == pytest.approx((10.0 - 10.0) / 2)
    assert ab.win_rate == pytest.approx(0.5)
    bc = t["b", "c"]
    assert (bc.games, bc.draws) == (1, 1)
    assert (t["d", "a"].losses, t["a", "d"].wins) == (1, 1)
    ac = t["a", "c"]
    assert (ac.games, ac.wins) == (3, 3)  # match 1 once, match 3 twice (two copies of a)
    assert ("a", "a") not in t
    for (x, y), rec in t.items():  # both directions agree
        back = t[y, x]
        assert (rec.wins, rec.draws, rec.losses, rec.games) == (
            back.losses, back.draws, back.wins, back.games,
        )  # fmt: skip
    table = h2h.matrix(["a", "b", "e"], t)
    assert table[0][0] is None and table[0][1] is ab and table[2][0].games == 0


def test_head_to_head_module_imports_no_django():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(h2h))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(name.startswith(("django", "tournament")) for name in names)


def _played_league(organiser, ready_version, django_capture_on_commit_callbacks, runner):
    league = ls.league_create(
        organiser=organiser, name="h2h", mode="duel", seats=2, format="round_robin", seeds=2
    )
    versions = [ready_version(organiser, name) for name in ("strong", "middle", "weak")]
    for version in versions:
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    strength = {"strong": 3, "middle": 2, "weak": 1}
    runner.scores = lambda spec: [10.0 * strength[s["name"]] for s in spec["seats"]]
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    return league, versions


@pytest.mark.django_db
def test_league_head_to_head_selector_and_api(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league, (strong, middle, weak) = _played_league(
        organiser, ready_version, django_capture_on_commit_callbacks, runner
    )
    assert league.matches.filter(status=Match.Status.FINISHED).count() == 12
    table = selectors.league_head_to_head(league=league)
    assert [e.bot_version_id for e, _ in table] == [strong.pk, middle.pk, weak.pk]  # ladder order
    (_, top_row), (_, mid_row), _ = table
    assert top_row[0] is None
    assert (top_row[1].games, top_row[1].wins, top_row[1].losses) == (4, 4, 0)  # 2 seeds x 2 seats
    assert top_row[1].opponent_entry.bot_version_id == middle.pk
    assert (mid_row[0].wins, mid_row[0].losses, mid_row[2].wins) == (0, 4, 4)

    body = client_for(None).get(f"/api/v1/leagues/{league.pk}/head-to-head/").json()
    assert [e["bot"] for e in body["entrants"]] == ["strong", "middle", "weak"]
    assert len(body["records"]) == 6  # 3 pairs, both directions
    first = body["records"][0]
    assert first == {
        "entry": body["entrants"][0]["entry"], "opponent_entry": body["entrants"][1]["entry"],
        "games": 4, "wins": 4, "draws": 0, "losses": 0, "win_rate": 1.0, "mean_score_diff": 10.0,
    }  # fmt: skip


@pytest.mark.django_db
def test_bot_head_to_head_selector_and_api(
    organiser, author, ready_version, runner, django_capture_on_commit_callbacks
):
    league, (strong, middle, weak) = _played_league(
        organiser, ready_version, django_capture_on_commit_callbacks, runner
    )
    with django_capture_on_commit_callbacks(execute=True):  # a challenge counts too
        challenge_create(user=author, mode="duel", options={}, bot_version_ids=[weak.pk, strong.pk])
    records = selectors.bot_head_to_head(bot=strong.bot)
    assert [(r.opponent_bot.name, r.games, r.wins) for r in records] == [
        ("weak", 5, 5), ("middle", 4, 4),
    ]  # fmt: skip
    only_league = selectors.bot_head_to_head(bot=strong.bot, league=league)
    assert [r.games for r in only_league] == [4, 4]

    api = client_for(author)
    body = api.get(f"/api/v1/bots/{weak.bot_id}/head-to-head/").json()
    assert body["bot"] == weak.bot_id and body["league"] is None
    assert [(o["opponent_name"], o["games"], o["losses"]) for o in body["opponents"]] == [
        ("strong", 5, 5), ("middle", 4, 4),
    ]  # fmt: skip
    body = api.get(f"/api/v1/bots/{weak.bot_id}/head-to-head/?league={league.pk}").json()
    assert body["league"] == league.pk and body["opponents"][0]["games"] == 4
    bad = api.get(f"/api/v1/bots/{weak.bot_id}/head-to-head/?league=x")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid"
    assert api.get(f"/api/v1/bots/{weak.bot_id}/head-to-head/?league=999").status_code == 404
    assert api.get("/api/v1/bots/999/head-to-head/").status_code == 404


@pytest.mark.django_db
def test_private_league_matches_stay_out_of_a_strangers_head_to_head(
    organiser, author, ready_version, runner, django_capture_on_commit_callbacks
):
    league, (strong, _, _) = _played_league(
        organiser, ready_version, django_capture_on_commit_callbacks, runner
    )
    League.objects.filter(pk=league.pk).update(public=False)
    assert selectors.bot_head_to_head(bot=strong.bot, user=author) == []
    assert len(selectors.bot_head_to_head(bot=strong.bot, user=organiser)) == 2
    response = client_for(author).get(f"/api/v1/leagues/{league.pk}/head-to-head/")
    assert response.status_code == 404


@pytest.mark.django_db
def test_head_to_head_costs_a_fixed_number_of_queries(
    organiser, ready_version, runner, django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
):  # fmt: skip
    league, (strong, _, _) = _played_league(
        organiser, ready_version, django_capture_on_commit_callbacks, runner
    )
    anon = client_for(None)
    with django_assert_max_num_queries(4):
        assert len(anon.get(f"/api/v1/leagues/{league.pk}/head-to-head/").json()["records"]) == 6
    with django_assert_max_num_queries(4):
        body = anon.get(f"/api/v1/bots/{strong.bot_id}/head-to-head/").json()
        assert len(body["opponents"]) == 2


@pytest.mark.django_db
def test_records_kept_with_results_are_what_the_history_gives(
    organiser, author, ready_version, runner, django_capture_on_commit_callbacks
):
    """The league and bot pages read `HeadToHead` rows counted with each result: the same
    records as a tally of every finished match, and as the migration's backfill."""
    import importlib

    from django.apps import apps

    from tournament.models import HeadToHead, MatchSeat
    from tournament.services.head_to_head import COUNTED, head_to_head_from_history

    league, (strong, middle, weak) = _played_league(
        organiser, ready_version, django_capture_on_commit_callbacks, runner
    )
    runner.scores = lambda spec: [10.0, 10.0, 5.0][: len(spec["seats"])]  # a shared first place
    with django_capture_on_commit_callbacks(execute=True):
        challenge_create(user=author, mode="duel", options={}, bot_version_ids=[weak.pk, strong.pk])
        challenge_create(user=author, mode="duel", options={}, bot_version_ids=[middle.pk, weak.pk])
    # a seat that crashed out has no rank: it counts last
    seat = MatchSeat.objects.filter(match__league=league, rank=1).order_by("pk").first()
    MatchSeat.objects.filter(pk=seat.pk).update(rank=None)

    def stored() -> dict:
        return {
            (r.league_id, r.subject_id, r.opponent_id): tuple(getattr(r, n) for n in COUNTED)
            for r in HeadToHead.objects.all()
        }

    history = {key: tuple(getattr(rec, n) for n in COUNTED)
               for key, rec in head_to_head_from_history().items()}  # fmt: skip
    kept = stored()
    assert {k[0] for k in kept} == {league.pk, None} and len(kept) == 6 + 4
    rival = MatchSeat.objects.filter(match_id=seat.match_id).exclude(pk=seat.pk).get()
    pair = {seat.bot_version_id, rival.bot_version_id}
    changed = {k for k in kept if k[0] == league.pk and set(k[1:]) == pair}
    assert {k: v for k, v in kept.items() if k not in changed} == {
        k: v for k, v in history.items() if k not in changed
    }  # the rank removed by hand afterwards is the only difference
    assert len(changed) == 2 and all(kept[k][0] == history[k][0] for k in changed)
    assert all(kept[k][1:4] != history[k][1:4] for k in changed)  # its win became a loss
    migration = importlib.import_module("tournament.migrations.0013_pages_without_history")
    HeadToHead.objects.all().delete()
    migration.count_head_to_head(apps, None)
    assert stored() == history
