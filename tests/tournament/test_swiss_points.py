"""Swiss with points: points by placing from the organiser's table, byes worth a stated score,
pairing by points without repeat opponents, Buchholz / median Buchholz (two seats) and the
opponents' points (more seats), played to the end with the in-process runner; and the pure
pairing and tiebreak functions on their own."""

from __future__ import annotations

import itertools
import re
from collections import Counter

import pytest

from competition import swiss
from tournament.errors import ValidationFailed
from tournament.models import League, LeaguePlace
from tournament.services import leagues as ls
from tournament.standings import league_standings

pytestmark = pytest.mark.django_db


def _strength(spec_seat: dict) -> int:
    """The scripted runner's scores: the bot named s<k> scores k (higher is stronger)."""
    return int(re.search(r"s(\d+)", spec_seat["name"]).group(1))


def _swiss(organiser, ready_version, *, n, seats, mode, rounds, **kw):
    league = ls.league_create(organiser=organiser, name=f"Swiss {n}x{seats}", mode=mode,
                              seats=seats, format="swiss", rounds=rounds, **kw)  # fmt: skip
    for k in range(n):
        version = ready_version(organiser, f"s{k}-{league.pk}")
        ls.league_entry_add(league=league, user=organiser, bot_version_id=version.pk)
    return league


def _tables(league, rnd=None):
    matches = league.matches.all() if rnd is None else league.matches.filter(round=rnd)
    return [[s.bot_version_id for s in m.seats.order_by("seat")] for m in matches.order_by("pk")]


def test_duel_swiss_with_points_and_tiebreaks_to_the_end(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = _swiss(organiser, ready_version, n=8, seats=2, mode="duel", rounds=3)
    runner.scores = lambda spec: [float(_strength(s)) for s in spec["seats"]]
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    assert league.status == League.Status.CLOSED and league.current_round == 3
    tables = _tables(league)
    assert len(tables) == 12  # 3 rounds x 4 tables
    pairs = Counter(frozenset(t) for t in tables)
    assert max(pairs.values()) == 1  # no pair met twice

    rows = league_standings(league=league)
    strength = {r.entry.pk: int(r.entry.bot_version.bot.name[1]) for r in rows}
    by_version = {r.entry.bot_version_id: r.entry.pk for r in rows}
    # points: 1 a win, 0 a loss (default table for two seats); counted here from the tables
    points = Counter()
    opponents = {r.entry.pk: [] for r in rows}
    for a, b in tables:
        ea, eb = by_version[a], by_version[b]
        points[ea if strength[ea] > strength[eb] else eb] += 1
        opponents[ea].append(eb)
        opponents[eb].append(ea)
    for row in rows:
        assert row.points == points[row.entry.pk]
        assert row.played == 3 and row.byes == 0
        opp_points = sorted(points[o] for o in opponents[row.entry.pk])
        assert row.buchholz == sum(opp_points)
        assert row.median_buchholz == sum(opp_points[1:-1])  # best and worst opponent cut
    # the strongest wins every round, the weakest loses every round
    assert rows[0].entry.bot_version.bot.name.startswith("s7") and rows[0].points == 3
    assert rows[-1].entry.bot_version.bot.name.startswith("s0") and rows[-1].points == 0
    # the order is points, then Buchholz, then median Buchholz
    keys = [(-r.points, -r.buchholz, -(r.median_buchholz or 0)) for r in rows]
    assert keys == sorted(keys)
    # after three rounds of eight, 3-0 and 0-3 are single; 2-1 and 1-2 have three each
    assert Counter(r.points for r in rows) == {3: 1, 2: 3, 1: 3, 0: 1}
    # the closed Swiss's podium is its standings (points, then tiebreaks), not its Elo order
    places = list(LeaguePlace.objects.filter(league=league).order_by("place", "id"))
    assert [(p.entry_id, p.place) for p in places] == [(r.entry.pk, r.rank) for r in rows]
    assert places[0].result.startswith("3 points, Buchholz")
    assert places[0].figures["points"] == 3


def test_four_seat_swiss_with_bga_points_and_opponents_points(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = _swiss(organiser, ready_version, n=16, seats=4, mode="standard", rounds=2)
    assert swiss.default_points(4) == (6, 5, 3, 1)
    runner.scores = lambda spec: [float(_strength(s)) for s in spec["seats"]]
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    assert league.status == League.Status.CLOSED
    tables = _tables(league)
    assert len(tables) == 8
    met = Counter(frozenset(p) for t in tables for p in itertools.combinations(t, 2))
    assert max(met.values()) == 1  # round 2 seats no two that shared a round-1 table
    rows = league_standings(league=league)
    by_version = {r.entry.bot_version_id: r for r in rows}

    def k(version_id):
        return _strength({"name": by_version[version_id].entry.bot_version.bot.name})

    earned = Counter()
    for table in tables:
        ranked = sorted(table, key=lambda v: -k(v))
        for place, version in enumerate(ranked):
            earned[version] += (6, 5, 3, 1)[place]
    for row in rows:
        assert row.points == earned[row.entry.bot_version_id]
        assert row.median_buchholz is None  # a two-seat tiebreak
        mates = [v for t in tables if row.entry.bot_version_id in t for v in t
                 if v != row.entry.bot_version_id]  # fmt: skip
        assert row.opponents_points == sum(earned[v] for v in mates)
    assert rows[0].points == 12  # s15 wins both its tables
    # round 2 grouped by points: the four 6-point winners of round 1 share a table
    round1 = _tables(league, 1)
    winners = {max(t, key=k) for t in round1}
    assert any(set(t) == winners for t in _tables(league, 2))


def test_custom_points_table_and_bye_score(
    organiser, ready_version, runner, django_capture_on_commit_callbacks
):
    league = _swiss(organiser, ready_version, n=5, seats=2, mode="duel", rounds=5,
                    points_table=[3, 1], bye_points=2)  # fmt: skip
    runner.scores = lambda spec: [float(_strength(s)) for s in spec["seats"]]
    with django_capture_on_commit_callbacks(execute=True):
        ls.league_start(league=league, user=organiser)
    league.refresh_from_db()
    assert league.status == League.Status.CLOSED
    rows = league_standings(league=league)
    assert all(r.byes == 1 and r.played == 4 for r in rows)  # the bye rotates
    pairs = Counter(frozenset(t) for t in _tables(league))
    assert len(pairs) == 10 and set(pairs.values()) == {1}  # a full round robin, no repeat
    for row in rows:  # s<k> beats exactly the k weaker ones: 3 a win, 1 a loss, 2 the bye
        k = int(row.entry.bot_version.bot.name[1])
        assert row.points == 3 * k + 1 * (4 - k) + 2


@pytest.mark.parametrize(
    ("kwargs", "field", "words"),
    [
        ({"points_table": [6, 5, 3]}, "points_table", "4 values for 4 seats, not 3"),
        ({"points_table": [1, 3, 5, 6]}, "points_table", "cannot earn fewer points"),
        ({"points_table": [3, 2, 1, 0], "format": "ladder"}, "points_table", "Swiss leagues only"),
        ({"max_entrants": 3}, "max_entrants", "at least 4: a match needs 4 entrants"),
    ],
)
def test_bad_event_fields_are_refused_with_a_plain_message(organiser, kwargs, field, words):
    args = {"name": "bad", "mode": "standard", "seats": 4, "format": "swiss", **kwargs}
    with pytest.raises(ValidationFailed) as caught:
        ls.league_create(organiser=organiser, **args)
    assert words in caught.value.message
    assert field in caught.value.fields


def test_pairing_avoids_repeats_and_counts_the_fewest_when_unavoidable():
    players = list("abcdefgh")
    points = dict.fromkeys(players, 0.0)
    first = swiss.pair_round(players, 2, [], points)
    assert first == [("a", "e"), ("b", "f"), ("c", "g"), ("d", "h")]  # Dutch: top half v bottom
    points.update(a=1, b=1, c=1, d=1)
    second = swiss.pair_round(players, 2, first, points)
    assert swiss.repeat_pairs(second, first) == 0
    assert {frozenset(t) for t in second} == {frozenset("ac"), frozenset("bd"), frozenset("eg"),
                                              frozenset("fh")}  # fmt: skip
    # twelve at tables of four after one round: each new table must repeat at least one pair
    twelve = [str(i) for i in range(12)]
    r1 = swiss.pair_round(twelve, 4, [])
    r2 = swiss.pair_round(twelve, 4, r1)
    assert swiss.repeat_pairs(r2, r1) == 3
    assert sorted(p for t in r2 for p in t) == sorted(twelve)


def test_tied_places_share_their_points_and_tied_entrants_share_a_rank():
    assert swiss.place_points([1, 1, 3, 4], (6, 5, 3, 1)) == [5.5, 5.5, 3, 1]
    recs = swiss.records(["a", "b", "c", "d"], [[("a", 1), ("b", 2)], [("c", 1), ("d", 2)]],
                         (1, 0), {}, 1.0)  # fmt: skip
    rows = swiss.standings(recs, 2)
    assert [(r.key, r.rank) for r in rows] == [("a", 1), ("c", 1), ("b", 3), ("d", 3)]
