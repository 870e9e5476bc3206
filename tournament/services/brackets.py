"""Brackets: create a single- or double-elimination or a multi-table knockout league, seed and
start it, advance it after each game, and crown its champion; seasons (a ladder whose top
entrants enter a playoff bracket at its close); the final places (podium) of any closed league.

The plan and the decisions are pure functions in `competition/bracket_plan.py`; this module stores
them. `services/leagues.py` calls in at three points: a bracket league starts
(`bracket_start`), one of its matches ends (`bracket_progress`), any league closes
(`league_closed`). All three run under the league's row lock, so two results never advance a
bracket at once.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from competition import bracket_plan as plan

from ..errors import ValidationFailed
from ..models import Bracket, BracketGame, BracketSeries, League, LeagueEntry, LeaguePlace, Match
from .matches import derive_seed, match_create_internal

BRACKET_FORMATS = frozenset(
    {League.Format.SINGLE_ELIMINATION, League.Format.DOUBLE_ELIMINATION, League.Format.KNOCKOUT}
)
ELIMINATION_FORMATS = frozenset(
    {League.Format.SINGLE_ELIMINATION, League.Format.DOUBLE_ELIMINATION}
)
MAX_BEST_OF = 9
MAX_TABLE_GAMES = 12
OPEN = (Match.Status.QUEUED, Match.Status.RUNNING)
PODIUM_PLACES = 3


def is_bracket(league: League) -> bool:
    return league.format in BRACKET_FORMATS


# --- creating ---------------------------------------------------------------------------------


def bracket_settings_check(
    *,
    organiser: Any,
    format: str,  # noqa: A002 - the API's word
    seats: int,
    best_of: int | None,
    seeding: str,
    advance: int | None,
    playoff_of: int | None,
    playoff_top: int | None,
) -> tuple[list[str], dict[str, list[str]], League | None]:
    """(messages, fields, source league) of every fault in a bracket's settings."""
    messages: list[str] = []
    fields: dict[str, list[str]] = {}

    def fault(field: str, message: str, detail: str) -> None:
        messages.append(message)
        fields.setdefault(field, []).append(detail)

    elimination = format in ELIMINATION_FORMATS
    if elimination and seats != 2:
        fault("seats", "Single and double elimination are for 2-seat modes; "
              "use a knockout for 3 or 4 seats.", "2 seats only")  # fmt: skip
    if format == League.Format.KNOCKOUT and seats not in (3, 4):
        fault("seats", "A knockout is for 3- and 4-seat modes; use an elimination bracket "
              "for 2 seats.", "3 or 4 seats only")  # fmt: skip
    if best_of is not None:
        if elimination and not (1 <= best_of <= MAX_BEST_OF and best_of % 2 == 1):
            fault("best_of", f"best_of must be an odd number from 1 to {MAX_BEST_OF}.",
                  f"odd, 1..{MAX_BEST_OF}")  # fmt: skip
        if format == League.Format.KNOCKOUT and not 1 <= best_of <= MAX_TABLE_GAMES:
            fault("best_of", f"A knockout table plays 1 to {MAX_TABLE_GAMES} games (best_of).",
                  f"1..{MAX_TABLE_GAMES}")  # fmt: skip
    if seeding not in Bracket.Seeding.values:
        choices = ", ".join(Bracket.Seeding.values)
        fault("seeding", f"seeding must be one of {choices}.", f"one of {choices}")
    if format == League.Format.KNOCKOUT and advance is not None and not 1 <= advance < seats:
        fault("advance", f"advance (the top k of each table who go on) must be from 1 to "
              f"{seats - 1} at {seats} seats.", f"1..{seats - 1}")  # fmt: skip
    source = None
    if playoff_of is not None:
        source = League.objects.filter(pk=playoff_of).first()
        if source is None:
            fault("playoff_of", f"League {playoff_of} does not exist.", "no such league")
        elif source.organiser_id != organiser.pk and not organiser.is_superuser:
            fault("playoff_of", "A playoff can only follow a league you organise.", "not yours")
        elif source.status == League.Status.CLOSED:
            fault("playoff_of", "That league is already closed.", "closed")
        elif source.format in BRACKET_FORMATS:
            fault("playoff_of", "A playoff follows a ladder, a Swiss or a round robin, not "
                  "another bracket.", "a bracket")  # fmt: skip
        elif source.seats != seats:
            fault("playoff_of", "A playoff has the same number of seats as the league it "
                  "follows.", "other seats")  # fmt: skip
        limit = plan.MAX_KNOCKOUT_ENTRANTS if format == League.Format.KNOCKOUT else (
            plan.MAX_ELIMINATION_ENTRANTS)  # fmt: skip
        least = seats if format == League.Format.KNOCKOUT else 2
        if playoff_top is None or not least <= playoff_top <= limit:
            fault("playoff_top", f"playoff_top (how many of the league enter) must be from "
                  f"{least} to {limit}.", f"{least}..{limit}")  # fmt: skip
    elif seeding == Bracket.Seeding.STANDINGS:
        fault("seeding", "Seeding by standings needs the league it follows (playoff_of); "
              "choose ratings or random.", "needs playoff_of")  # fmt: skip
    elif playoff_top:
        fault("playoff_top", "playoff_top needs playoff_of, the league whose top entrants "
              "enter.", "needs playoff_of")  # fmt: skip
    return messages, fields, source


def bracket_league_create(
    *,
    organiser: Any,
    best_of: int | None = None,
    seeding: str = Bracket.Seeding.RATINGS,
    advance: int | None = None,
    playoff_of: int | None = None,
    playoff_top: int | None = None,
    **league_fields: Any,
) -> League:
    """Create a bracket league and its settings in one go; every fault of the league's fields
    and of the bracket's is named in one 400 (ValidationFailed)."""
    from .leagues import league_create, league_create_check

    league_create_check(user=organiser)
    fmt, seats = league_fields.get("format"), league_fields.get("seats", 2)
    messages, fields, source = bracket_settings_check(
        organiser=organiser, format=fmt, seats=seats, best_of=best_of, seeding=seeding,
        advance=advance, playoff_of=playoff_of, playoff_top=playoff_top,
    )  # fmt: skip
    if source is not None and source.mode != league_fields.get("mode"):
        messages.append("A playoff plays the same mode as the league it follows.")
        fields.setdefault("playoff_of", []).append("other mode")
    with transaction.atomic():
        try:
            league = league_create(organiser=organiser, **league_fields)
        except ValidationFailed as exc:
            if not messages:
                raise
            raise ValidationFailed(
                " ".join([exc.message, *messages]), fields={**exc.fields, **fields}
            ) from None
        if messages:
            raise ValidationFailed(" ".join(messages), fields=fields)
        default_best_of = league.seats if fmt == League.Format.KNOCKOUT else 3
        Bracket.objects.create(
            league=league, best_of=best_of or default_best_of, seeding=seeding,
            advance=advance or max(1, league.seats // 2), playoff_of=source,
            playoff_top=playoff_top or 0,
        )  # fmt: skip
        return league


# --- starting ---------------------------------------------------------------------------------


def _least_entrants(league: League) -> int:
    return league.seats if league.format == League.Format.KNOCKOUT else 2


def bracket_start(*, league: League) -> None:
    """Seed and start a draft bracket league (locked by the caller): plan its series, play the
    walkovers of the byes and queue the first games. Too few or too many entrants: a 400."""
    bracket = Bracket.objects.select_for_update().get(league=league)
    entries = list(league.entries.select_related("bot_version").order_by("pk"))
    least = _least_entrants(league)
    most = (plan.MAX_KNOCKOUT_ENTRANTS if league.format == League.Format.KNOCKOUT
            else plan.MAX_ELIMINATION_ENTRANTS)  # fmt: skip
    if len(entries) < least:
        raise ValidationFailed(
            f"A bracket needs at least {least} entrants; this one has {len(entries)}.",
            fields={"entries": [f"at least {least}"]},
        )
    if len(entries) > most:
        raise ValidationFailed(
            f"A bracket takes at most {most} entrants; this one has {len(entries)}.",
            fields={"entries": [f"at most {most}"]},
        )
    bracket.seeds = [e.pk for e in _seeded(league, bracket, entries)]
    bracket.started_at = timezone.now()
    bracket.save(update_fields=["seeds", "started_at"])
    league.status = League.Status.RUNNING
    league.current_round = 1
    league.save(update_fields=["status", "current_round"])
    if league.format == League.Format.KNOCKOUT:
        _knockout_round(league, bracket, 1, bracket.seeds)
    else:
        BracketSeries.objects.bulk_create(
            [
                BracketSeries(
                    bracket=bracket,
                    key=s.key,
                    stage=s.stage,
                    round=s.round,
                    position=s.position,
                    sources=[x.as_json() for x in s.sources],
                )
                for s in plan.elimination_plan(league.format, len(entries))
            ]  # fmt: skip
        )
    _advance(league, bracket)


def _seeded(league: League, bracket: Bracket, entries: list[LeagueEntry]) -> list[LeagueEntry]:
    """Entries in seed order: the followed league's final places, the best rating each
    version earned in its other leagues, or a shuffle fixed by the league's seed."""
    if bracket.seeding == Bracket.Seeding.RANDOM:
        rng = random.Random(derive_seed(league.base_seed, "seeding"))
        shuffled = list(entries)
        rng.shuffle(shuffled)
        return shuffled
    if bracket.seeding == Bracket.Seeding.STANDINGS and bracket.playoff_of_id:
        places = dict(
            LeaguePlace.objects.filter(league_id=bracket.playoff_of_id).values_list(
                "entry__bot_version_id", "place"
            )
        )
        return sorted(entries, key=lambda e: (places.get(e.bot_version_id, 10**6), e.pk))
    best = dict(
        LeagueEntry.objects.filter(bot_version_id__in=[e.bot_version_id for e in entries],
                                   games__gt=0)
        .exclude(league=league)
        .values("bot_version_id")
        .annotate(best=Max("rating"))
        .values_list("bot_version_id", "best")
    )  # fmt: skip
    return sorted(entries, key=lambda e: (-best.get(e.bot_version_id, 1500.0), e.pk))


def _knockout_round(league: League, bracket: Bracket, number: int, ranked: Sequence[int]) -> None:
    rounds = plan.knockout_plan(len(bracket.seeds), league.seats, bracket.advance)
    this = rounds[number - 1]
    tables, byes = plan.knockout_tables(list(ranked), league.seats, this.tables)
    final = number == len(rounds)
    rows = [
        BracketSeries(bracket=bracket, key=f"R{number}-T{i + 1}", stage=plan.TABLE,
                      round=number, position=i + 1, slots=list(table),
                      status=BracketSeries.Status.PLAYING,
                      advance=0 if final else this.advance)
        for i, table in enumerate(tables)
    ]  # fmt: skip
    if byes:
        rows.append(
            BracketSeries(bracket=bracket, key=f"R{number}-B", stage="bye", round=number,
                          position=len(tables) + 1, slots=list(byes), order=list(byes),
                          status=BracketSeries.Status.DONE, advance=len(byes))
        )  # fmt: skip
    BracketSeries.objects.bulk_create(rows)
    league.current_round = number
    league.save(update_fields=["current_round"])


# --- advancing --------------------------------------------------------------------------------


def bracket_progress(*, league: League) -> None:
    """After a game of the bracket ended (the league row locked by the caller)."""
    bracket = Bracket.objects.select_for_update().filter(league=league).first()
    if bracket is None or bracket.finished_at is not None:
        return
    _advance(league, bracket)


def _games(series: BracketSeries, entry_of: dict[int, int]) -> tuple[list[plan.Game], int]:
    """The decided games of a series (`entry_of`: bot version id -> entry id) and how many
    are still open."""
    decided: list[plan.Game] = []
    open_count = 0
    for game in series.games.select_related("match").prefetch_related("match__seats__bot_version"):
        match = game.match
        if match.status in OPEN:
            open_count += 1
            continue
        seats = sorted(match.seats.all(), key=lambda s: s.seat)
        order = tuple(entry_of[s.bot_version_id] for s in seats)
        if match.status == Match.Status.FINISHED and all(s.rank is not None for s in seats):
            decided.append(plan.Game(order, tuple(s.rank for s in seats),
                                     tuple(s.score for s in seats)))  # fmt: skip
        elif match.status != Match.Status.CANCELLED:
            decided.append(plan.Game(order))  # failed: counts for nobody
    return decided, open_count


def _advance(league: League, bracket: Bracket) -> None:
    """Resolve every series whose slots are now known, decide those whose games are done,
    queue the games still needed; repeat until nothing changes; finish at the end."""
    entry_of = {v: e for e, v in league.entries.values_list("pk", "bot_version_id")}
    rows = {s.key: s for s in bracket.series.all()}
    changed = True
    while changed:
        changed = False
        for series in sorted(rows.values(), key=lambda s: s.pk):
            if series.status == BracketSeries.Status.WAITING:
                changed |= _resolve(series, rows, bracket)
            if series.status == BracketSeries.Status.PLAYING:
                changed |= _play(league, bracket, series, entry_of)
        if league.format == League.Format.KNOCKOUT and _knockout_next(league, bracket, rows):
            rows = {s.key: s for s in bracket.series.all()}
            changed = True
    if _finished(league, rows):
        _finish(league, bracket, rows)


def _resolve(series: BracketSeries, rows: dict[str, BracketSeries], bracket: Bracket) -> bool:
    slots: list[int | None] = []
    for kind, ref in series.sources:
        if kind == "seed":
            slots.append(bracket.seeds[ref - 1] if ref <= len(bracket.seeds) else None)
            continue
        source = rows[ref]
        if source.status not in (BracketSeries.Status.DONE, BracketSeries.Status.VOID):
            return False
        order = source.order or [None, None]
        slots.append(order[0] if kind == "winner" else order[1])
    if series.stage == plan.RESET:
        final = rows["GF"]
        if final.order[0] == final.slots[0]:  # the winners' finalist won: no reset
            series.status = BracketSeries.Status.VOID
            series.save(update_fields=["status"])
            return True
        slots = list(final.slots)
    series.slots = slots
    real = [e for e in slots if e is not None]
    if len(real) < 2:  # a bye: a walkover for the one entrant (or nobody)
        series.order = [real[0] if real else None, None]
        series.status = BracketSeries.Status.DONE
    else:
        series.status = BracketSeries.Status.PLAYING
    series.save(update_fields=["slots", "order", "status"])
    return True


def _play(league: League, bracket: Bracket, series: BracketSeries, entry_of: dict) -> bool:
    games, open_count = _games(series, entry_of)
    if open_count:
        return False
    slots = list(series.slots)
    if series.stage == plan.TABLE:
        need = 0 if games else bracket.best_of
    else:
        need = plan.series_needs(bracket.best_of, slots, games)
    if need:
        played = series.games.count()
        for number in range(played, played + need):
            order = plan.game_order(slots, number)
            match = match_create_internal(
                kind=Match.Kind.LEAGUE, mode=league.mode, options=league.options,
                bot_versions=[_version(league, e) for e in order], league=league,
                requested_by=None, round=series.round,
                seed=derive_seed(league.base_seed, "bracket", series.key, number),
            )  # fmt: skip
            BracketGame.objects.create(series=series, match=match, number=number)
        return False
    if series.stage == plan.TABLE:
        standing = plan.table_standing(slots, games)
        series.order = [e for e, _, _ in standing]
        series.points = {str(e): p for e, p, _ in standing}
    else:
        winner = plan.series_winner(slots, games)
        series.order = [winner, next(e for e in slots if e != winner)]
        series.points = {str(e): p for e, p in plan.series_points(slots, games).items()}
    series.status = BracketSeries.Status.DONE
    series.save(update_fields=["order", "points", "status"])
    return True


def _version(league: League, entry_id: int) -> Any:
    return LeagueEntry.objects.select_related("bot_version").get(pk=entry_id).bot_version


def _knockout_next(league: League, bracket: Bracket, rows: dict[str, BracketSeries]) -> bool:
    """Seat the next knockout round once every table of this one is decided."""
    number = max(s.round for s in rows.values())
    this_round = [s for s in rows.values() if s.round == number]
    if any(s.status != BracketSeries.Status.DONE for s in this_round):
        return False
    rounds = plan.knockout_plan(len(bracket.seeds), league.seats, bracket.advance)
    if number >= len(rounds):
        return False
    seed_index = {e: i for i, e in enumerate(bracket.seeds)}
    going: list[tuple[int, int, int]] = []  # (place in its table, seed, entry); a bye is place 0
    for s in this_round:
        for place, e in enumerate(s.order[: s.advance], start=1):
            going.append((0 if s.stage == "bye" else place, seed_index[e], e))
    _knockout_round(league, bracket, number + 1, [e for _, _, e in sorted(going)])
    return True


def _finished(league: League, rows: dict[str, BracketSeries]) -> bool:
    done = (BracketSeries.Status.DONE, BracketSeries.Status.VOID)
    if league.format == League.Format.KNOCKOUT:
        final = [s for s in rows.values() if s.stage == plan.TABLE and s.advance == 0]
        return bool(final) and final[0].status == BracketSeries.Status.DONE
    return bool(rows) and all(s.status in done for s in rows.values())


def _finish(league: League, bracket: Bracket, rows: dict[str, BracketSeries]) -> None:
    bracket.finished_at = timezone.now()
    bracket.save(update_fields=["finished_at"])
    league.status = League.Status.CLOSED
    league.save(update_fields=["status"])
    league_closed(league=league)


# --- final places -----------------------------------------------------------------------------


def _bracket_places(league: League, bracket: Bracket) -> list[tuple[int, int, str, dict]]:
    """(entry id, place, result, figures) of a finished bracket, best first. Entrants out in
    the same round (and, in a knockout, at the same place of their tables) share a place."""
    rows = list(bracket.series.order_by("pk"))
    stats: dict[int, dict[str, float]] = {}
    last: dict[int, tuple[int, BracketSeries]] = {}
    for index, s in enumerate(rows):
        if s.status != BracketSeries.Status.DONE or s.stage == "bye":
            continue
        for e in s.slots:
            if e is None:
                continue
            last[e] = (index, s)
            st = stats.setdefault(e, {"series_won": 0, "series_lost": 0, "points": 0.0})
            st["points"] += float(s.points.get(str(e), 0.0))
            if league.format != League.Format.KNOCKOUT and len([x for x in s.slots if x]) == 2:
                st["series_won" if s.order[0] == e else "series_lost"] += 1
    keyed = [(e, s, s.order.index(e) if e in s.order else len(s.order))
             for e, (_, s) in last.items()]  # fmt: skip
    final = rows[max(i for i, _ in last.values())]
    winners_rounds = max((r.round for r in rows if r.stage == plan.WINNERS), default=0)
    losers_rounds = max((r.round for r in rows if r.stage == plan.LOSERS), default=0)
    out: list[tuple[int, int, str, dict]] = []

    def sort_key(item: tuple) -> tuple:
        e, s, position = item
        if s is final:
            return (0, position, bracket.seeds.index(e))
        return (1, -s.round, position if s.stage == plan.TABLE else 0, bracket.seeds.index(e))

    ranked = sorted(keyed, key=sort_key)
    previous = None
    for i, item in enumerate(ranked, start=1):
        e, s, position = item
        group = sort_key(item)[:3]
        place = i if group != (previous[0] if previous else None) else previous[1]
        previous = (group, place)
        result = _result(league, s, position, s is final, winners_rounds, losers_rounds)
        out.append((e, place, result, stats[e]))
    return out


def _result(
    league: League, s: BracketSeries, position: int, final: bool, rounds: int, losers: int
) -> str:
    """What earned the place, in words (`rounds`, `losers`: of each side of the bracket)."""
    if final and s.stage == plan.TABLE:
        return f"{_ordinal(position + 1)} at the final table"
    if final:
        return "Champion" if position == 0 else "Runner-up"
    if s.stage == plan.TABLE:
        return f"{_ordinal(position + 1)} at a table of round {s.round}"
    if s.stage == plan.LOSERS:
        return "Out in the losers' final" if s.round == losers else (
            f"Out in losers' round {s.round}")  # fmt: skip
    if s.stage in (plan.GRAND_FINAL, plan.RESET):
        return "Runner-up"
    named = {1: "the semi-finals", 2: "the quarter-finals"}.get(rounds - s.round)
    return f"Out in {named}" if named else f"Out in round {s.round}"


def _ordinal(n: int) -> str:
    return f"{n}{'tsnrhtdd'[(n // 10 % 10 != 1) * (n % 10 < 4) * n % 10 :: 4]}"


def _standing_places(league: League) -> list[tuple[int, int, str, dict]]:
    """The final places of a ladder or round robin: its ladder order (Elo or the
    conservative rating, as the league ranks); of a Swiss: its standings by points, then
    tiebreaks (tournament/standings.py)."""
    from ..selectors import league_ladder

    if league.format == League.Format.SWISS:
        return _swiss_places(league)
    out = []
    for entry in league_ladder(league=league):
        figures = {"rating": round(entry.rating, 1), "games": entry.games, "wins": entry.wins,
                   "draws": entry.draws, "losses": entry.losses}  # fmt: skip
        result = f"Elo {entry.rating:.0f}, {entry.wins}-{entry.draws}-{entry.losses} (W-D-L)"
        out.append((entry.pk, entry.rank, result, figures))
    return out


def _swiss_places(league: League) -> list[tuple[int, int, str, dict]]:
    """A Swiss's final places: points, then Buchholz (two seats) or opponents' points."""
    from ..standings import final_standings

    out = []
    for row in final_standings(league=league):
        tiebreak = (f"Buchholz {row.buchholz:g}" if row.median_buchholz is not None
                    else f"opponents' points {row.opponents_points:g}")  # fmt: skip
        figures = {"points": row.points, "played": row.played, "byes": row.byes,
                   "buchholz": row.buchholz, "median_buchholz": row.median_buchholz,
                   "opponents_points": row.opponents_points}  # fmt: skip
        out.append((row.entry.pk, row.rank, f"{row.points:g} points, {tiebreak}", figures))
    return out


def league_places_record(*, league: League) -> list[LeaguePlace]:
    """Write a closed league's final places once: a bracket's when it ran to its end (one
    closed early has no champion), any other format's standing."""
    if LeaguePlace.objects.filter(league=league).exists():
        return []
    if is_bracket(league):
        bracket = Bracket.objects.filter(league=league).first()
        if bracket is None or bracket.finished_at is None:
            return []
        places = _bracket_places(league, bracket)
    else:
        places = _standing_places(league)
    return LeaguePlace.objects.bulk_create(
        [
            LeaguePlace(league=league, entry_id=e, place=p, result=r[:120], figures=f)
            for e, p, r, f in places
        ]  # fmt: skip
    )


def league_closed(*, league: League) -> None:
    """A league just closed (by its organiser, or at its end): record its places, then fill
    and start the playoffs that follow it (a season runs on with no further action)."""
    league_places_record(league=league)
    for bracket in Bracket.objects.select_related("league").filter(
        playoff_of=league, league__status=League.Status.DRAFT
    ):
        playoff_fill_and_start(playoff=bracket.league, source=league, top=bracket.playoff_top)


def playoff_fill_and_start(*, playoff: League, source: League, top: int) -> None:
    """Enter the top `top` of `source`'s final places into the playoff and start it. Too few
    entrants: the playoff stays a draft, for the organiser to fill by hand."""
    playoff = League.objects.select_for_update().get(pk=playoff.pk)
    places = (
        LeaguePlace.objects.filter(league=source)
        .select_related("entry")
        .order_by("place", "id")[:top]
    )
    have = set(playoff.entries.values_list("bot_version_id", flat=True))
    LeagueEntry.objects.bulk_create(
        [
            LeagueEntry(league=playoff, bot_version_id=p.entry.bot_version_id)
            for p in places
            if p.entry.bot_version_id not in have
        ]  # fmt: skip
    )
    if playoff.entries.count() < _least_entrants(playoff):
        return
    bracket_start(league=playoff)
