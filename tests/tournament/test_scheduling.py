"""Ladder scheduling by expected information: the pure scheduler, the service, the bench."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from competition import ladder_scheduling as scheduling
from competition import skill
from tournament.models import LeagueEntry, Match
from tournament.services import leagues as ls

C = scheduling.Candidate
ROOT = Path(__file__).resolve().parents[2]


def test_information_is_highest_for_uncertain_outcomes_of_uncertain_entrants():
    even = scheduling.table_information([C("a", 25, 5), C("b", 25, 5)])
    lopsided = scheduling.table_information([C("a", 35, 5), C("b", 15, 5)])
    sure = scheduling.table_information([C("a", 25, 2), C("b", 25, 2)])
    assert even > lopsided and even > sure
    assert scheduling.outcome_entropy([C("a", 25, 5), C("b", 25, 5)]) == pytest.approx(1.0)
    four = [C(k, 25, 5) for k in "abcd"]
    assert scheduling.outcome_entropy(four) == pytest.approx(1.0)


def test_a_new_entry_gets_its_first_game_at_once():
    settled = [C(i, 20 + i, 2.0, games=40) for i in range(10)]
    new = C("new", skill.START_MU, skill.START_SIGMA, games=0)
    tables = scheduling.information_tables([*settled, new], 2, 1, random.Random(0))
    assert "new" in tables[0]


def test_the_anchor_meets_the_opponent_it_is_least_sure_to_beat():
    entrants = [C("anchor", 25, 8), C("close", 25.5, 3), C("far", 40, 3), C("low", 10, 3)]
    assert set(scheduling.information_tables(entrants, 2, 1, random.Random(1))[0]) == {
        "anchor", "close",
    }  # fmt: skip


def test_each_entrant_plays_once_per_batch_and_busy_ones_wait():
    entrants = [C(i, 25 + (i % 3), 4 + i / 10, busy=i < 2) for i in range(8)]
    tables = scheduling.information_tables(entrants, 2, 3, random.Random(2))
    seated = Counter(k for t in tables for k in t)
    assert set(seated.values()) == {1} and len(seated) == 6
    assert not {0, 1} & set(seated)  # the two busy entrants sat this batch out
    four = scheduling.information_tables(entrants, 4, 2, random.Random(3))
    assert all(len(set(t)) == 4 for t in four)
    assert set(Counter(k for t in four for k in t).values()) == {1}


def test_pairs_at_the_cap_are_kept_apart_while_there_is_a_choice():
    entrants = [C("a", 25, 8), C("b", 25, 7), C("c", 30, 3)]
    free = scheduling.information_tables(entrants, 2, 1, random.Random(0))
    assert set(free[0]) == {"a", "b"}
    met = scheduling.meetings([("a", "b"), ("b", "a")])
    assert met[scheduling.pair_key("a", "b")] == 2
    capped = scheduling.information_tables(
        entrants, 2, 1, random.Random(0), recent_meetings=met, pair_cap=2
    )
    assert set(capped[0]) == {"a", "c"}
    # With no other choice the cap gives way rather than leaving the ladder idle.
    only = scheduling.information_tables(
        entrants[:2], 2, 1, random.Random(0), recent_meetings=met, pair_cap=2
    )
    assert set(only[0]) == {"a", "b"}


def test_solo_tables_and_random_baseline():
    entrants = [C("x", 25, 3), C("y", 25, 6)]
    assert scheduling.information_tables(entrants, 1, 1, random.Random(0)) == [("y",)]
    tables = scheduling.random_tables(list(range(6)), 2, 3, random.Random(0))
    assert sorted(k for t in tables for k in t) == list(range(6))


def _information_tables_priced_in_full(candidates, seats, count, rng, recent_meetings, pair_cap=2):
    """The scheduler as it was before it skipped pricing hopeless candidates: every candidate
    of every table priced (kept here to prove the faster one chooses the same tables)."""
    met = Counter(recent_meetings)
    placed = Counter()
    by_key = {c.key: c for c in candidates}
    tables = []
    for _ in range(count):
        order = sorted(candidates, key=lambda c: (placed[c.key], c.busy, -c.sigma, c.games,
                                                  rng.random()))  # fmt: skip
        table = [order[0]]
        while len(table) < seats:
            best = best_key = None
            for c in order[1:]:
                if c in table:
                    continue
                over_cap = any(met[scheduling.pair_key(c.key, t.key)] >= pair_cap for t in table)
                score = (-int(over_cap), -placed[c.key], -int(c.busy),
                         scheduling.table_information([*table, c]), rng.random())  # fmt: skip
                if best is None or score > best:
                    best, best_key = score, c.key
            table.append(by_key[best_key])
        for a, b in itertools.combinations(table, 2):
            met[scheduling.pair_key(a.key, b.key)] += 1
        for member in table:
            placed[member.key] += 1
        keys = [m.key for m in table]
        rng.shuffle(keys)
        tables.append(tuple(keys))
    return tables


def test_the_scheduler_chooses_as_if_it_priced_every_candidate():
    """Skipping the information of candidates that cannot win keeps every choice of a seed
    (and the random stream after it), over busy, capped, placed and tied candidates."""
    draw = random.Random(11)
    for case in range(150):
        n, seats = draw.choice([2, 3, 6, 15, 40]), draw.choice([2, 2, 3, 4])
        if n < seats:
            continue
        entrants = [
            C(k, skill.START_MU, skill.START_SIGMA) if draw.random() < 0.2
            else C(k, draw.gauss(25, 6), draw.uniform(1, 8), draw.randint(0, 50),
                   draw.random() < 0.6)
            for k in range(n)
        ]  # fmt: skip
        met = scheduling.meetings(
            draw.sample(range(n), seats) for _ in range(draw.randint(0, 3 * n))
        )
        count = draw.randint(1, n)
        fast, full = random.Random(case), random.Random(case)
        assert scheduling.information_tables(entrants, seats, count, fast, recent_meetings=met) == (
            _information_tables_priced_in_full(entrants, seats, count, full, met)
        ), case
        assert fast.random() == full.random()


def test_a_table_of_a_big_busy_ladder_prices_few_candidates(monkeypatch):
    """At 1,000 entrants, nearly all in an open match (the ladder keeps one open match per
    entrant), the next table prices only the free ones, not the whole ladder
    (bench/season.py without divisions)."""
    rng = random.Random(5)
    entrants = [C(k, rng.gauss(25, 6), rng.uniform(1, 8), 50, busy=k >= 10) for k in range(1000)]
    priced = []
    real = scheduling.table_information
    monkeypatch.setattr(scheduling, "table_information", lambda m: priced.append(m) or real(m))
    (table,) = scheduling.information_tables(entrants, 2, 1, random.Random(0))
    assert not any(entrants[k].busy for k in table)
    assert len(priced) < 20


def test_scheduling_module_imports_no_django():
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(scheduling))
    names = {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    names |= {n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert not any(name.startswith("django") for name in names)


@pytest.mark.django_db
def test_ladder_service_schedules_by_information(organiser, ready_version):
    league = ls.league_create(
        organiser=organiser, name="info-ladder", mode="duel", seats=2, format="ladder"
    )
    versions = [ready_version(organiser, f"b{i}") for i in range(6)]
    for v in versions:
        ls.league_entry_add(league=league, user=organiser, bot_version_id=v.pk)
    entries = {e.bot_version_id: e for e in league.entries.all()}
    # Five settled entrants and one newcomer (the start σ).
    for i, v in enumerate(versions[:5]):
        LeagueEntry.objects.filter(pk=entries[v.pk].pk).update(
            openskill_mu=20 + 2 * i, openskill_sigma=2.0, games=30
        )
    league.status = "running"
    league.save()
    created = ls.league_schedule_round(league=league)  # on_commit not run: they stay queued
    assert len(created) == 3
    seated = Counter(s.bot_version_id for m in created for s in m.seats.all())
    assert seated[versions[5].pk] == 1 and set(seated.values()) == {1}
    # The queue is full: nothing more until a match ends.
    assert ls.league_schedule_round(league=league) == []
    # Those entrants are now busy; after the queue empties, recent meetings count.
    Match.objects.filter(league=league).update(status=Match.Status.FINISHED)
    again = ls.league_schedule_round(league=league)
    assert len(again) == 3


def test_bench_runs_and_prints_both_schedulers():
    out = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "scheduling.py"), "--runs", "1", "--matches", "60",
         "--bots", "10", "--json"],
        capture_output=True, text=True, check=True, timeout=300,
    )  # fmt: skip
    figures = json.loads(out.stdout)
    assert figures["bots"] == 10 and figures["table"][0]["matches"] == 30
    assert set(figures["table"][0]) == {"matches", "random", "information"}
    assert -1 <= figures["table"][-1]["information"]["tau"] <= 1
