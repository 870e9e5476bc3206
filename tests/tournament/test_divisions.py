"""Divisions of a ladder (competition/division_plan.py): equal splits by rating, placement of new
entrants, promotion and relegation, and tables drawn mostly inside one division."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from competition import division_plan as div
from competition import ladder_scheduling as scheduling


def test_split_into_divisions_of_the_target_size():
    order = list(range(23))
    division = div.split(order, 10)
    assert Counter(division.values()) == {0: 8, 1: 8, 2: 7}  # ceil(23 / 10) = 3, equal ±1
    assert [division[k] for k in order] == sorted(division[k] for k in order)  # best on top


def test_promotion_and_relegation_swap_the_edges():
    division = {k: (0 if k < 5 else 1) for k in range(10)}
    ratings = {k: float(-k) for k in range(10)}
    ratings[7] = 100.0  # a strong entrant in division 1
    ratings[2] = -100.0  # a weak one in division 0
    moved = div.promote(division, ratings, 1)
    assert moved[7] == 0 and moved[2] == 1
    assert Counter(moved.values()) == {0: 5, 1: 5}


def test_placement_joins_the_nearest_division():
    division = {k: (0 if k < 5 else 1) for k in range(10)}
    ratings = {k: (30.0 if k < 5 else 10.0) for k in range(10)}
    assert div.place(division, "new", 28.0, ratings) == 0
    assert div.place(division, "new", 12.0, ratings) == 1


def test_a_ladder_that_outgrew_its_divisions_is_split_again():
    """Newcomers are placed into the divisions there are; once their number is no longer
    ceil(n / size), the refresh splits the ladder again by rating."""
    ratings = {k: float(-k) for k in range(300)}
    first = div.refresh({}, ratings, list(range(99)), 50, entrants=300, promote_round=True)
    assert first == {}  # fewer than 2 x size have played their placement matches
    first = div.refresh({}, ratings, list(range(100)), 50, entrants=300, promote_round=False)
    assert Counter(first.values()) == {0: 50, 1: 50}
    grown = div.refresh(first, ratings, list(range(300)), 50, entrants=300, promote_round=False)
    assert Counter(grown.values()) == {d: 50 for d in range(6)}  # not two divisions of 150
    assert [grown[k] for k in range(300)] == sorted(grown.values())  # the best on top
    assert not div.out_of_shape(grown, 50)


def test_newcomers_that_fit_the_divisions_are_placed_and_the_edges_swap():
    ratings = {k: float(-k) for k in range(280)}
    split = div.split(list(range(280)), 50)  # 6 divisions of 46-47
    ratings.update({f"new{i}": 100.0 for i in range(10)})  # strong newcomers: the top division
    ready = [*range(280), *(f"new{i}" for i in range(10))]
    kept = div.refresh(split, ratings, ready, 50, entrants=290, promote_round=False)
    assert all(kept[k] == split[k] for k in range(280)) and not div.out_of_shape(kept, 50)
    assert {kept[f"new{i}"] for i in range(10)} == {0}
    swapped = div.refresh(split, ratings, ready, 50, entrants=290, promote_round=True)
    assert swapped == div.promote(kept, ratings, 5)  # size // 10 each way


def test_tables_stay_mostly_inside_a_division_and_new_entrants_play_anyone():
    rng = random.Random(3)
    candidates = [scheduling.Candidate(k, 25.0 - k * 0.1, 3.0, 20) for k in range(60)]
    division = div.split([c.key for c in candidates], 20)
    newcomer = scheduling.Candidate("new", 25.0, 8.3, 0)  # unplaced: highest σ, no division
    tables = div.division_tables([*candidates, newcomer], division, 2, 30, rng, cross_share=0.0)
    assert len(tables) == 30
    assert any("new" in t for t in tables)  # the unplaced entrant gets its placement match
    placed = [t for t in tables if "new" not in t]
    crossing = [t for t in placed if division[t[0]] != division[t[1]]]
    # the newcomer's placement match takes one seat from a division, whose odd one out
    # then meets a neighbour: every other table is inside one division
    assert len(crossing) <= 1, crossing
    seated = Counter(k for t in tables for k in t)
    assert max(seated.values()) == 1  # everyone once per batch while the batch lasts


@pytest.mark.django_db
def test_ladder_with_divisions_places_and_schedules_inside_them(organiser, ready_version, runner):
    import re

    from django.test import Client

    from competition.seeds import seed_from
    from tournament.models import Match
    from tournament.services import leagues as ls
    from tournament.services import matches as ms

    league = ls.league_create(organiser=organiser, name="Big", mode="duel", seats=2,
                              format="ladder", division_size=4, division_every=3)  # fmt: skip
    # The schedule's draws come from the league's seed, which is made from its id: pinned to
    # the first league's of a fresh database, so the test does not depend on the tests before.
    league.base_seed = seed_from("league", 1, league.name)
    league.save(update_fields=["base_seed"])
    for k in range(8):
        ls.league_entry_add(league=league, user=organiser,
                            bot_version_id=ready_version(organiser, f"d{k}").pk)  # fmt: skip
    runner.scores = lambda spec: [float(re.search(r"d(\d)", s["name"]).group(1))
                                  for s in spec["seats"]]  # fmt: skip
    ls.league_start(league=league, user=organiser)
    for _ in range(60):  # play what is queued, one at a time (each result tops the ladder up)
        queued = league.matches.filter(status=Match.Status.QUEUED).order_by("pk").first()
        if queued is None:
            break
        ms.match_play(match_id=queued.pk)
    entries = {e.pk: e for e in league.entries.select_related("bot_version__bot")}
    assert all(e.division is not None for e in entries.values())  # all placed after 5 games
    top = {e.bot_version.bot.name.split("-")[0] for e in entries.values() if e.division == 0}
    assert len(top) == 4 and len(top & {"d4", "d5", "d6", "d7"}) >= 3  # the strong on top
    by_version = {e.bot_version_id: e for e in entries.values()}
    later = league.matches.order_by("-pk")[:8]
    inside = [len({by_version[s.bot_version_id].division for s in m.seats.all()}) == 1
              for m in later]  # fmt: skip
    assert sum(inside) >= 6  # mostly inside one division
    page = Client().get(f"/leagues/{league.pk}/").content.decode()
    assert "Division 1" in page and "Division 2" in page
