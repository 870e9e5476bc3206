"""Applies a finished league match to its entrants' ratings (Elo and OpenSkill, in one
transaction, from the same ranks) and standings, and recomputes both from history."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F

from competition import elo, skill
from competition.rating_history import add_point

from ..models import League, LeagueEntry, Match, RatingChange


def elo_k() -> float:
    return float(getattr(settings, "ELO_K", elo.DEFAULT_K))


def match_ranks(match: Match, seats: list[Any]) -> list[int]:
    """Ranks of the seats; a seat without a rank (it crashed out) counts as last."""
    worst = max((s.rank for s in seats if s.rank is not None), default=0) + 1
    return [s.rank if s.rank is not None else worst for s in seats]


def solo_margin(match: Match) -> float:
    """The board margin of a solo game (player minus sister), as shown and summed."""
    result = match.result or {}
    if "margin" in result:
        return float(result["margin"])
    sister = result.get("sister")
    scores = result.get("scores") or [0]
    sister_score = sister.get("score", sister.get("total")) if isinstance(sister, dict) else sister
    return float(scores[0]) - float(sister_score or 0)


def rated_margin(match: Match) -> float:
    """The margin the ratings see: the board's, but a loss whatever it is when the player
    faulted (the fault rule, competition/standing.py, has ``won`` false then)."""
    margin = solo_margin(match)
    result = match.result or {}
    if result.get("faulted") and margin >= 0:
        return -1.0
    return margin


def _skill_after(match: Match, ranks: list[int], before: list[skill.Skill]) -> list[skill.Skill]:
    solo = match.mode == "solo"
    return skill.match_update(
        before, ranks, solo_difficulty=match.options.get("difficulty") if solo else None,
        margin=rated_margin(match) if solo else None,
    )  # fmt: skip


def _ratings_after(
    match: Match, ranks: list[int], before: list[float], skill_before: list[skill.Skill]
) -> tuple[list[float], list[skill.Skill]]:
    """The Elo and OpenSkill ratings of a match's seats after it: the one rule that both
    applying a result and recomputing a league's history follow."""
    solo = match.mode == "solo"
    after = elo.match_update(
        before, ranks, k=elo_k(),
        solo_difficulty=match.options.get("difficulty") if solo else None,
        margin=rated_margin(match) if solo else None,
    )  # fmt: skip
    return after, _skill_after(match, ranks, skill_before)


def _outcome(seat: Any, rank: int, ranks: list[int], margin: float | None) -> str:
    """Win, draw or loss of a seat for the W-D-L counts; `margin`: a solo game's board margin
    (None in a game of several bots)."""
    if margin is not None:  # solo: a fault loses to the sister, whatever the board margin
        return "loss" if seat.fault else "win" if margin > 0 else "draw" if margin == 0 else "loss"
    top = min(ranks)
    if rank != top:
        return "loss"
    return "draw" if ranks.count(top) > 1 else "win"


def add_placement(placements: list[int], rank: int) -> list[int]:
    """The ladder's placement counts (index 0 = times 1st) with one more finish at `rank`."""
    counts = list(placements or [])
    counts += [0] * (rank - len(counts))
    counts[rank - 1] += 1
    return counts


def rating_apply_match(*, match: Match) -> list[RatingChange]:
    """Update every entrant of a finished league match once (RatingChange is unique per
    match and bot version, and an existing change means the match was already applied).

    Only league matches reach here: challenges, validation runs and paired comparisons are
    unrated and never touch an entry."""
    with transaction.atomic():
        if RatingChange.objects.filter(match=match).exists():
            return []
        seats = list(match.seats.order_by("seat"))
        version_ids = [s.bot_version_id for s in seats]
        entries = {
            e.bot_version_id: e
            for e in LeagueEntry.objects.select_for_update()
            .filter(league_id=match.league_id, bot_version_id__in=version_ids)
            .order_by("pk")
        }
        ordered = [entries[v] for v in version_ids]
        league_match = _count_rated_match(match.league_id)
        ranks = match_ranks(match, seats)
        before = [e.rating for e in ordered]
        margin = solo_margin(match) if match.mode == "solo" else None
        skill_before = [skill.Skill(e.openskill_mu, e.openskill_sigma) for e in ordered]
        after, skill_after = _ratings_after(match, ranks, before, skill_before)
        changes = []
        rows = zip(ordered, seats, ranks, before, after, skill_before, skill_after, strict=True)
        for entry, seat, rank, old, new, sk_old, sk_new in rows:
            entry.rating = new
            entry.openskill_mu, entry.openskill_sigma = sk_new
            entry.last_change = new - old
            entry.games += 1
            entry.chart = add_point(entry.chart, league_match=league_match, games=entry.games,
                                    before=old, after=new)  # fmt: skip
            entry.score_sum += seat.score or 0.0
            entry.placements = add_placement(entry.placements, rank)
            entry.faults += 1 if seat.fault else 0
            if margin is not None and not seat.fault:
                entry.margin_sum += margin
            outcome = _outcome(seat, rank, ranks, margin)
            if outcome == "win":
                entry.wins += 1
            elif outcome == "draw":
                entry.draws += 1
            else:
                entry.losses += 1
            changes.append(
                RatingChange(
                    league_id=match.league_id,
                    entry=entry,
                    match=match,
                    bot_version_id=seat.bot_version_id,
                    before=old,
                    after=new,
                    mu_before=sk_old.mu,
                    mu_after=sk_new.mu,
                    sigma_before=sk_old.sigma,
                    sigma_after=sk_new.sigma,
                )  # fmt: skip
            )
        LeagueEntry.objects.bulk_update(
            ordered,
            [
                "rating",
                "openskill_mu",
                "openskill_sigma",
                "last_change",
                "games",
                "score_sum",
                "margin_sum",
                "wins",
                "draws",
                "losses",
                "placements",
                "chart",
                "faults",
            ],
        )
        return RatingChange.objects.bulk_create(changes)


def _count_rated_match(league_id: int) -> int:
    """One more rated match in the league: its number (the x of the league's rating chart).
    The update locks the league's row until the result commits: results of one league are
    numbered one after the other."""
    League.objects.filter(pk=league_id).update(rated_matches=F("rated_matches") + 1)
    return League.objects.filter(pk=league_id).values_list("rated_matches", flat=True).get()


def rating_charts_rebuild(*, league_id: int | None = None) -> int:
    """Every entrant's chart points and every league's rated-match count from the stored
    rating changes, in the order they were applied (what `rating_apply_match` builds one
    result at a time; after bulk imports that bypass it, such as the web bench's fill).
    Returns the number of entries written."""
    leagues = League.objects.order_by("pk")
    if league_id is not None:
        leagues = leagues.filter(pk=league_id)
    written = 0
    for league in leagues:
        entries = {e.pk: e for e in league.entries.all()}
        games = dict.fromkeys(entries, 0)
        for entry in entries.values():
            entry.chart = {}
        numbers: dict[int, int] = {}  # match id -> its number, in the order applied
        changes = RatingChange.objects.filter(league=league).order_by("pk")
        for match_id, entry_id, before, after in changes.values_list(
            "match_id", "entry_id", "before", "after"
        ).iterator():
            number = numbers.setdefault(match_id, len(numbers) + 1)
            games[entry_id] += 1
            entry = entries[entry_id]
            entry.chart = add_point(entry.chart, league_match=number, games=games[entry_id],
                                    before=before, after=after)  # fmt: skip
        LeagueEntry.objects.bulk_update(list(entries.values()), ["chart"], batch_size=1000)
        League.objects.filter(pk=league.pk).update(rated_matches=len(numbers))
        written += len(entries)
    return written


def ratings_recompute(*, league_id: int, tolerance: float = 1e-6) -> list[str]:
    """Replay a league's finished matches from the start ratings (Elo 1500, OpenSkill μ 25,
    σ 25/3) in the order they were applied and compare both ratings with every stored change
    and every entrant. Returns the disagreements (empty when the stored ladder is exactly what
    its history gives)."""
    league = League.objects.get(pk=league_id)
    entries = {e.bot_version_id: e for e in league.entries.all()}
    ratings = {vid: elo.START_RATING for vid in entries}
    skills = {vid: skill.START for vid in entries}
    problems: list[str] = []
    changes = RatingChange.objects.filter(league=league).select_related("match").order_by("pk")
    by_match: dict[int, list[RatingChange]] = {}
    order: list[Match] = []
    for change in changes:
        if change.match_id not in by_match:
            order.append(change.match)
        by_match.setdefault(change.match_id, []).append(change)
    finished = set(league.matches.filter(status=Match.Status.FINISHED).values_list("pk", flat=True))
    for missing in sorted(finished - set(by_match)):
        problems.append(f"match {missing} is finished but changed no rating")
    for match in order:
        seats = list(match.seats.order_by("seat"))
        vids = [s.bot_version_id for s in seats]
        before = [ratings[v] for v in vids]
        skill_before = [skills[v] for v in vids]
        after, skill_after = _ratings_after(match, match_ranks(match, seats), before, skill_before)
        stored = {c.bot_version_id: c for c in by_match[match.pk]}
        rows = zip(vids, before, after, skill_before, skill_after, strict=True)
        for vid, b, a, sk_b, sk_a in rows:
            problems += _change_problems(match.pk, vid, stored.get(vid), (b, a), (sk_b, sk_a),
                                         tolerance)  # fmt: skip
            ratings[vid] = a
            skills[vid] = sk_a
    for vid, entry in entries.items():
        if abs(entry.rating - ratings[vid]) > tolerance:
            problems.append(
                f"entry {entry.pk} (bot version {vid}): stored rating {entry.rating:.4f}, "
                f"recomputed {ratings[vid]:.4f}"
            )
        stored_skill = (entry.openskill_mu, entry.openskill_sigma)
        if not _close(stored_skill, skills[vid], tolerance):
            problems.append(
                f"entry {entry.pk} (bot version {vid}): stored OpenSkill "
                f"{_skill_text(stored_skill)}, recomputed {_skill_text(skills[vid])}"
            )
    return problems


def _change_problems(
    match_id: int,
    vid: int,
    change: RatingChange | None,
    elo_pair: tuple[float, float],
    skill_pair: tuple[skill.Skill, skill.Skill],
    tolerance: float,
) -> list[str]:
    """How a stored rating change disagrees with the recomputed one (before, after)."""
    if change is None:
        return [f"match {match_id}: no stored change for bot version {vid}"]
    out = []
    (b, a), (sk_b, sk_a) = elo_pair, skill_pair
    if abs(change.before - b) > tolerance or abs(change.after - a) > tolerance:
        out.append(
            f"match {match_id}, bot version {vid}: stored Elo {change.before:.4f} -> "
            f"{change.after:.4f}, recomputed {b:.4f} -> {a:.4f}"
        )
    stored_skill = (change.mu_before, change.sigma_before, change.mu_after, change.sigma_after)
    if not _close(stored_skill, (*sk_b, *sk_a), tolerance):
        out.append(
            f"match {match_id}, bot version {vid}: stored OpenSkill "
            f"{_skill_text(stored_skill[:2])} -> {_skill_text(stored_skill[2:])}, "
            f"recomputed {_skill_text(sk_b)} -> {_skill_text(sk_a)}"
        )
    return out


def _close(stored: tuple[float | None, ...], computed: tuple[float, ...], tolerance: float) -> bool:
    pairs = zip(stored, computed, strict=True)
    return all(s is not None and abs(s - c) <= tolerance for s, c in pairs)


def _skill_text(pair: tuple[float | None, ...]) -> str:
    mu, sigma = pair
    if mu is None or sigma is None:
        return "(none)"
    return f"μ {mu:.4f} σ {sigma:.4f}"
