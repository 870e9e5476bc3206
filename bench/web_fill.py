"""The web bench's fill at scale: finished matches, their seats and rating changes written
with PostgreSQL's COPY (not the ORM), a league at a time, so a million matches take minutes,
not hours. Used by `bench/web.py` (always: the ORM's bulk inserts were the old path).

Every league is a ladder of ENTRANTS entrants with matches of its seat count; each match
carries the result and replay of one of a few real games of that seat count, and the
entrants' Elo and OpenSkill are computed in match order as the ratings service does, with
their standings, chart points and head-to-head records, so every page reads what a live
database would hold.

Columns the bench does not choose (a field another part of the project added to the match
or seat tables, say) take the model field's default, so the fill keeps working as the
models grow.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Any

ENTRANTS = 10


def _copy(cursor: Any, model: Any, given: Sequence[str], rows: Iterable[Sequence[Any]]) -> int:
    """COPY `rows` (values of the `given` fields, by attname) into `model`'s table; every
    other concrete column gets the field's default (the primary key, when not given, its
    sequence). Returns the number of rows."""
    fields = [
        f for f in model._meta.concrete_fields if not (f.primary_key and f.attname not in given)
    ]
    names = [f.attname for f in fields]
    missing = [f for f in fields if f.attname not in given]
    defaults = []
    for f in missing:
        value = f.get_default()
        if isinstance(value, (dict, list)):
            value = json.dumps(value)
        defaults.append(value)
    columns = ", ".join(f'"{f.column}"' for f in fields)
    position = {name: i for i, name in enumerate(given)}
    order = [position.get(name) for name in names]
    table = model._meta.db_table
    count = 0
    with cursor.copy(f'COPY "{table}" ({columns}) FROM STDIN') as copy:
        for row in rows:
            out = []
            d = 0
            for index in order:
                if index is None:
                    out.append(defaults[d])
                    d += 1
                else:
                    out.append(row[index])
            copy.write_row(out)
            count += 1
    return count


def _reserve_ids(cursor: Any, model: Any, count: int) -> int:
    """The first of `count` new primary keys of `model`, taken from its sequence."""
    table = model._meta.db_table
    cursor.execute(f"SELECT pg_get_serial_sequence('\"{table}\"', 'id')")
    sequence = cursor.fetchone()[0]
    cursor.execute(f'SELECT COALESCE(MAX(id), 0) FROM "{table}"')
    first = cursor.fetchone()[0] + 1
    cursor.execute("SELECT setval(%s, %s)", [sequence, first + count])
    return first


def fill_league(
    cursor: Any,
    league: Any,
    entries: list[Any],
    games: list[dict[str, Any]],
    count: int,
    times: Sequence[datetime],
    rng: random.Random,
) -> dict[str, Any]:
    """COPY `count` finished matches of `league` (their seats and rating changes) and update
    its entries in memory; returns the rows written and the seats for its head-to-head."""
    from competition import elo, skill
    from competition.head_to_head_tally import SeatRow
    from tournament.models import Match, MatchSeat, RatingChange
    from tournament.services.ratings import add_placement

    seats = league.seats
    first_match = _reserve_ids(cursor, Match, count)
    picks = [rng.sample(entries, seats) for _ in range(count)]
    results = [json.dumps(g["played"].result) for g in games]
    match_cols = ["id", "kind", "league_id", "round", "mode", "seed", "engine_version", "status",
                  "result", "replay_name", "replay_sha256", "replay_size", "created_at",
                  "queued_at", "started_at", "finished_at"]  # fmt: skip

    def match_rows() -> Iterable[tuple]:
        for m in range(count):
            g = games[m % len(games)]
            stored, when = g["replay"], times[m]
            yield (first_match + m, "league", league.pk, m + 1, league.mode, rng.getrandbits(31),
                   "bench", "finished", results[m % len(games)], stored.name, stored.sha256,
                   stored.size, when, when, when, when)  # fmt: skip

    _copy(cursor, Match, match_cols, match_rows())
    seat_rows: list[tuple] = []
    change_rows: list[tuple] = []
    h2h_rows: list[Any] = []
    for m, chosen in enumerate(picks):
        played = games[m % len(games)]["played"]
        ranks = [s.rank for s in played.seats]
        before = [e.rating for e in chosen]
        after = elo.match_update(before, ranks, k=32.0)
        sk_before = [skill.Skill(e.openskill_mu, e.openskill_sigma) for e in chosen]
        sk_after = skill.match_update(sk_before, ranks)
        top = min(ranks)
        match_id = first_match + m
        for seat, (entry, out) in enumerate(zip(chosen, played.seats, strict=True)):
            seat_rows.append((match_id, seat, entry.bot_version_id, out.score, out.rank,
                              out.time_used))  # fmt: skip
            change_rows.append((league.pk, entry.pk, match_id, entry.bot_version_id,
                                before[seat], after[seat], sk_before[seat].mu, sk_after[seat].mu,
                                sk_before[seat].sigma, sk_after[seat].sigma,
                                times[m]))  # fmt: skip
            h2h_rows.append(SeatRow(match_id, entry.bot_version_id, out.rank, out.score))
            entry.rating, entry.last_change = after[seat], after[seat] - before[seat]
            entry.openskill_mu, entry.openskill_sigma = sk_after[seat]
            entry.games += 1
            entry.score_sum += out.score or 0.0
            entry.placements = add_placement(entry.placements, out.rank)
            if out.rank == top:
                entry.wins += 1
            else:
                entry.losses += 1
    _copy(cursor, MatchSeat, ["match_id", "seat", "bot_version_id", "score", "rank", "time_used"],
          seat_rows)  # fmt: skip
    first_change = _reserve_ids(cursor, RatingChange, len(change_rows))
    _copy(cursor, RatingChange,
          ["id", "league_id", "entry_id", "match_id", "bot_version_id", "before", "after",
           "mu_before", "mu_after", "sigma_before", "sigma_after", "created_at"],
          ((first_change + i, *row) for i, row in enumerate(change_rows)))  # fmt: skip
    return {"matches": count, "seats": len(seat_rows), "h2h": h2h_rows}


def fill(matches: int, leagues: int, samples: dict[int, list[dict[str, Any]]],
         marker: str) -> dict[str, Any]:  # fmt: skip
    """Users, bots, leagues and entries by the ORM (a few hundred rows); matches, seats and
    rating changes by COPY; head-to-head records and chart points after. Returns the fill's
    figures: seconds, rows, and the database's size."""
    from django.contrib.auth import get_user_model
    from django.db import connection, transaction
    from django.utils import timezone

    from competition import head_to_head_tally as h2h
    from tournament.models import Bot, BotVersion, HeadToHead, League, LeagueEntry
    from tournament.services.ratings import rating_charts_rebuild

    started = time.monotonic()
    user_model = get_user_model()
    rng = random.Random(16)
    organiser = user_model.objects.create_user("bench-organiser", password=None)
    authors = user_model.objects.bulk_create(
        [user_model(username=f"bench-author-{i}") for i in range(20)]
    )
    bots = Bot.objects.bulk_create([
        Bot(name=f"bench-bot-{i:03d}", owner=authors[i % len(authors)],
            description="A random bot of the web bench.")
        for i in range(leagues * 4)
    ])  # fmt: skip
    versions = BotVersion.objects.bulk_create([
        BotVersion(bot=b, number=n, builtin="random", status=BotVersion.Status.READY)
        for b in bots for n in (1, 2)
    ])  # fmt: skip
    all_leagues = League.objects.bulk_create([
        League(name=marker if i == 0 else f"bench-league-{i:03d}", organiser=organiser,
               mode="standard", seats=2 + i % 3, format=League.Format.LADDER,
               status=League.Status.RUNNING)
        for i in range(leagues)
    ])  # fmt: skip
    per_league = matches // leagues
    start = timezone.now() - timedelta(days=365)
    step = timedelta(days=365) / max(1, matches)
    seats_written = 0
    for li, league in enumerate(all_leagues):
        pool = [versions[(li * ENTRANTS + k) % len(versions)] for k in range(ENTRANTS)]
        entries = LeagueEntry.objects.bulk_create(
            [LeagueEntry(league=league, bot_version=v) for v in pool]
        )
        times = [start + step * (m * leagues + li) for m in range(per_league)]
        with transaction.atomic(), connection.cursor() as django_cursor:
            cursor = django_cursor.cursor  # psycopg's own, for COPY
            written = fill_league(cursor, league, entries, samples[league.seats], per_league,
                                  times, rng)  # fmt: skip
            # what services/matches.py counts as each match ends
            League.objects.filter(pk=league.pk).update(matches_finished=per_league)
            LeagueEntry.objects.bulk_update(entries, [
                "rating", "openskill_mu", "openskill_sigma", "last_change", "games",
                "score_sum", "wins", "losses", "placements",
            ])  # fmt: skip
            HeadToHead.objects.bulk_create(
                [HeadToHead(league=league, subject_id=s, opponent_id=o,
                            **{k: getattr(r, k) for k in ("games", "wins", "draws", "losses",
                                                          "score_diff_sum")})
                 for (s, o), r in h2h.tally(written["h2h"]).items()],
                batch_size=2000,
            )  # fmt: skip
        seats_written += written["seats"]
        if (li + 1) % max(1, leagues // 10) == 0 or li + 1 == leagues:
            print(f"  league {li + 1}/{leagues} ({time.monotonic() - started:.0f} s)",
                  file=sys.stderr)  # fmt: skip
    rating_charts_rebuild()
    rows_seconds = time.monotonic() - started
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
        cursor.execute("SELECT pg_database_size(current_database())")
        size = cursor.fetchone()[0]
    return {"seconds": round(time.monotonic() - started, 1),
            "rows_seconds": round(rows_seconds, 1), "matches": per_league * leagues,
            "seats": seats_written, "database_bytes": size}  # fmt: skip


BRACKET_ENTRANTS = 64  # the most an elimination bracket takes (competition/bracket_plan.py)
BRACKET_BEST_OF = 3


def fill_bracket(marker: str) -> dict[str, Any]:
    """A double-elimination Duel bracket of BRACKET_ENTRANTS of the bench's bots (best of
    BRACKET_BEST_OF, seeded by their ratings in the ladders), played to its champion through
    the services as a worker plays it: each queued game is a real game of the built-in random
    bots on the runner (`match_play`), and each result advances the bracket and queues the
    next games. The play tasks are taken in this process instead of being sent to a broker.
    A few hundred games, so it is a step of its own, keyed by its own league (`marker`): a
    database filled before there was a bracket gets it without a refill. Returns its figures."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Permission
    from django.test import override_settings

    from tournament.models import BotVersion, League
    from tournament.services import brackets as bracket_services
    from tournament.services import leagues as league_services
    from tournament.services.matches import match_play
    from tournament.tasks import match_play_task

    started = time.monotonic()
    organiser = get_user_model().objects.get(username="bench-organiser")
    organiser.user_permissions.add(Permission.objects.get(codename="organise_leagues"))
    organiser = get_user_model().objects.get(pk=organiser.pk)  # no cached permissions
    versions = list(
        BotVersion.objects.filter(bot__name__startswith="bench-bot-", number=2)
        .order_by("bot__name")[:BRACKET_ENTRANTS]
    )  # fmt: skip
    queued: list[int] = []

    def take(args: Any = (), kwargs: Any = None, **options: Any) -> None:
        queued.append(args[0])

    original = match_play_task.apply_async
    match_play_task.apply_async = take  # the bench plays them itself, in order
    try:
        with override_settings(LIVE_MATCHES=False):
            league = bracket_services.bracket_league_create(
                organiser=organiser, name=marker, mode="duel", seats=2,
                format=League.Format.DOUBLE_ELIMINATION, best_of=BRACKET_BEST_OF,
            )  # fmt: skip
            for version in versions:
                league_services.league_entry_add(league=league, user=organiser,
                                                 bot_version_id=version.pk)  # fmt: skip
            league_services.league_start(league=league, user=organiser)
            played = 0
            while queued:
                match_play(match_id=queued.pop(0))
                played += 1
    finally:
        match_play_task.apply_async = original
    league.refresh_from_db()
    if league.status != League.Status.CLOSED:
        raise RuntimeError(f"the bench's bracket stopped unfinished ({league.status})")
    return {"seconds": round(time.monotonic() - started, 1), "entrants": len(versions),
            "games": played, "league": league.pk}  # fmt: skip
