"""What the bracket formats share (single and double elimination, knockout): their settings,
seeding, the series stored as `BracketSeries` rows, advancing after each game, and the final
places of a finished bracket.

The plan and the decisions are pure functions in `competition/bracket_plan.py`; this module
stores them. Each format says how its bracket is drawn and advanced (`_first_round`,
`_next_round`, `_finished`), its seats and its number of entrants.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from django.db.models import Max
from django.utils import timezone

from competition import bracket_plan as plan
from competition.seeds import seed_from

from ..errors import Faults, ValidationFailed
from ..models import Bracket, BracketGame, BracketSeries, League, LeagueEntry, LeaguePlace, Match
from ..services.matches import match_create_internal
from .base import OPEN, Format, Place
from .playoff import playoff_problems

BRACKET_SETTINGS = ("best_of", "seeding", "advance", "playoff_of", "playoff_top")
DONE = BracketSeries.Status.DONE


def seeding_of(settings: dict[str, Any]) -> str:
    """The seeding asked for, else the default: a playoff is seeded by the final order of the
    league it follows (a season's point), any other bracket by ratings."""
    chosen = settings.get("seeding")
    if chosen:
        return chosen
    return Bracket.Seeding.STANDINGS if settings.get("playoff_of") else Bracket.Seeding.RATINGS


class BracketFormat(Format):
    has_bracket = True
    rated_ladder = False
    withdraws_while_running = False
    settings_fields = BRACKET_SETTINGS
    most_entrants: ClassVar[int]

    def filled_by(self, league: League) -> League | None:
        """A draft playoff waits for the league it follows to close: that league's top
        entrants enter it then and it starts by itself (formats/playoff.py)."""
        if league.status != League.Status.DRAFT:
            return None
        source = League.objects.filter(playoffs__league=league).first()
        return source if source is not None and source.status != League.Status.CLOSED else None

    # --- what each bracket format says -------------------------------------------------------

    def least_of(self, seats: int) -> int:
        """The fewest entrants a bracket of `seats` needs."""
        return 2

    def default_best_of(self, seats: int) -> int:
        return 3

    def _shape_problems(self, faults: Faults, seats: int, best_of: int | None) -> None:
        """The faults of its seats and games per series."""

    def _advance_problems(self, faults: Faults, seats: int, advance: int | None) -> None:
        """The faults of how many go on from each table."""

    def _first_round(self, league: League, bracket: Bracket, entrants: int) -> None:
        """Store the series (or tables) known at the start."""
        raise NotImplementedError

    def _next_round(self, league: League, bracket: Bracket, rows: dict[str, BracketSeries]) -> bool:
        """Store the next round once this one is decided; whether it did."""
        return False

    def _finished(self, rows: dict[str, BracketSeries]) -> bool:
        done = (DONE, BracketSeries.Status.VOID)
        return bool(rows) and all(s.status in done for s in rows.values())

    # --- settings ---------------------------------------------------------------------------

    def settings_problems(
        self, *, organiser: Any, mode: str, seats: int, settings: dict[str, Any]
    ) -> Faults:
        faults = super().settings_problems(organiser=organiser, mode=mode, seats=seats,
                                           settings=settings)  # fmt: skip
        seeding = seeding_of(settings)
        self._shape_problems(faults, seats, settings.get("best_of"))
        if seeding not in Bracket.Seeding.values:
            choices = ", ".join(Bracket.Seeding.values)
            faults.add("seeding", f"Seeding must be one of {choices}.", f"one of {choices}")
        self._advance_problems(faults, seats, settings.get("advance"))
        playoff_problems(faults, entrants=(self.least_of(seats), self.most_entrants),
                         organiser=organiser, mode=mode, seats=seats,
                         seeding=seeding, playoff_of=settings.get("playoff_of"),
                         playoff_top=settings.get("playoff_top"))  # fmt: skip
        return faults

    def created(self, league: League, settings: dict[str, Any]) -> None:
        Bracket.objects.create(
            league=league,
            best_of=settings.get("best_of") or self.default_best_of(league.seats),
            seeding=seeding_of(settings),
            advance=settings.get("advance") or max(1, league.seats // 2),
            playoff_of_id=settings.get("playoff_of"),
            playoff_top=settings.get("playoff_top") or 0,
        )

    # --- running ----------------------------------------------------------------------------

    def least_entrants(self, league: League) -> int:
        return self.least_of(league.seats)

    def start(self, league: League) -> None:
        """Seed and start a draft bracket: plan its series, play the walkovers of the byes and
        queue the first games. Too few or too many entrants: a 400."""
        bracket = Bracket.objects.select_for_update().get(league=league)
        entries = list(league.entries.select_related("bot_version").order_by("pk"))
        least, most = self.least_entrants(league), self.most_entrants
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
        self._first_round(league, bracket, len(entries))
        self._advance(league, bracket)

    def after_match(self, league: League) -> None:
        bracket = Bracket.objects.select_for_update().filter(league=league).first()
        if bracket is None or bracket.finished_at is not None:
            return
        self._advance(league, bracket)

    def is_over(self, league: League) -> bool:
        return Bracket.objects.filter(league=league, finished_at__isnull=False).exists()

    def _advance(self, league: League, bracket: Bracket) -> None:
        """Resolve every series whose slots are now known, decide those whose games are done,
        queue the games still needed; repeat until nothing changes; mark the end."""
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
            if self._next_round(league, bracket, rows):
                rows = {s.key: s for s in bracket.series.all()}
                changed = True
        if self._finished(rows):
            bracket.finished_at = timezone.now()
            bracket.save(update_fields=["finished_at"])

    # --- results ----------------------------------------------------------------------------

    def places(self, league: League) -> list[Place]:
        """The places of a bracket that ran to its end (one closed early has no champion)."""
        bracket = Bracket.objects.filter(league=league).first()
        if bracket is None or bracket.finished_at is None:
            return []
        return bracket_places(bracket)


def _seeded(league: League, bracket: Bracket, entries: list[LeagueEntry]) -> list[LeagueEntry]:
    """Entries in seed order: the followed league's final places, the best rating each
    version earned in its other leagues, or a shuffle fixed by the league's seed."""
    if bracket.seeding == Bracket.Seeding.RANDOM:
        rng = random.Random(seed_from(league.base_seed, "seeding"))
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


def _resolve(series: BracketSeries, rows: dict[str, BracketSeries], bracket: Bracket) -> bool:
    slots: list[int | None] = []
    for kind, ref in series.sources:
        if kind == "seed":
            slots.append(bracket.seeds[ref - 1] if ref <= len(bracket.seeds) else None)
            continue
        source = rows[ref]
        if source.status not in (DONE, BracketSeries.Status.VOID):
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
        series.status = DONE
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
                bot_versions=[_version(e) for e in order], league=league,
                requested_by=None, round=series.round,
                seed=seed_from(league.base_seed, "bracket", series.key, number),
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
    series.status = DONE
    series.save(update_fields=["order", "points", "status"])
    return True


def _version(entry_id: int) -> Any:
    return LeagueEntry.objects.select_related("bot_version").get(pk=entry_id).bot_version


# --- final places -----------------------------------------------------------------------------


def _last_series(
    rows: list[BracketSeries],
) -> tuple[dict[int, tuple[int, BracketSeries]], dict[int, dict[str, float]]]:
    """Each entrant's last decided series (its index in `rows`), and its figures: series won
    and lost (two-slot series) and the points it earned."""
    stats: dict[int, dict[str, float]] = {}
    last: dict[int, tuple[int, BracketSeries]] = {}
    for index, s in enumerate(rows):
        if s.status != DONE or s.stage == "bye":
            continue
        two = s.stage != plan.TABLE and len([x for x in s.slots if x]) == 2
        for e in s.slots:
            if e is None:
                continue
            last[e] = (index, s)
            st = stats.setdefault(e, {"series_won": 0, "series_lost": 0, "points": 0.0})
            st["points"] += float(s.points.get(str(e), 0.0))
            if two:
                st["series_won" if s.order[0] == e else "series_lost"] += 1
    return last, stats


def bracket_places(bracket: Bracket) -> list[Place]:
    """The places of a finished bracket, best first. Entrants out in the same round (and, in
    a knockout, at the same place of their tables) share a place."""
    rows = list(bracket.series.order_by("pk"))
    last, stats = _last_series(rows)
    final = rows[max(i for i, _ in last.values())]
    winners_rounds = max((r.round for r in rows if r.stage == plan.WINNERS), default=0)
    losers_rounds = max((r.round for r in rows if r.stage == plan.LOSERS), default=0)

    def sort_key(item: tuple) -> tuple:
        e, s, position = item
        if s is final:
            return (0, position, bracket.seeds.index(e))
        return (1, -s.round, position if s.stage == plan.TABLE else 0, bracket.seeds.index(e))

    keyed = [(e, s, s.order.index(e) if e in s.order else len(s.order))
             for e, (_, s) in last.items()]  # fmt: skip
    out: list[Place] = []
    previous: tuple[tuple, int] | None = None
    for i, item in enumerate(sorted(keyed, key=sort_key), start=1):
        e, s, position = item
        group = sort_key(item)[:3]
        place = previous[1] if previous is not None and previous[0] == group else i
        previous = (group, place)
        result = _result(s, position, s is final, winners_rounds, losers_rounds)
        out.append(Place(e, place, result, stats[e]))
    return out


def _result(s: BracketSeries, position: int, final: bool, rounds: int, losers: int) -> str:
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
