"""Paired comparisons: "is bot version B better than A?", answered in the duplicate format.

The plan and the statistics live in `workers/paired.py` (pure, shared with the local CLI);
this service turns the plan into unrated matches played by the ordinary workers, and computes
the result once every game of the comparison is decided.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from workers import paired as plan_lib

from ..errors import Conflict, NotFound, PermissionDenied, RateLimited, ValidationFailed
from ..models import BotVersion, Match, MatchSeat, PairedComparison, PairedGame
from .bots import builtin_version
from .game_config import game_config_check
from .leagues import is_organiser
from .matches import derive_seed, match_create_internal

MAX_SEEDS = 200
MAX_GAMES = 1600  # seeds x seats x 2 arms
NOT_ALLOWED = "Only the owner of bot A or B (or an organiser) can compare them."


def _ready_version(version_id: Any, field: str) -> BotVersion:
    version = BotVersion.objects.select_related("bot").filter(pk=version_id).first()
    if version is None:
        raise NotFound(
            f"Bot version {version_id} does not exist.", fields={field: [str(version_id)]}
        )
    if version.status != BotVersion.Status.READY:
        raise Conflict(Conflict.VERSION_NOT_READY, fields={field: [str(version_id)]})
    if version.bot.retired:
        raise Conflict(Conflict.BOT_RETIRED, fields={field: [str(version_id)]})
    return version


def paired_create(
    *,
    user: Any,
    version_a_id: int,
    version_b_id: int,
    mode: str,
    seats: int,
    seeds: int,
    options: dict[str, Any] | None = None,
    opponent_ids: Sequence[int] | None = None,
    level: float = plan_lib.DEFAULT_LEVEL,
) -> PairedComparison:
    """Plan a comparison and queue its games (unrated matches, played by the workers).

    Opponents fill the seats other than the tested one, in order and cyclically; by default
    the built-in random bot. A may equal B: that measures how noisy a bot is against itself.
    """
    cleaned = game_config_check(mode=mode, seats=seats, options=options)
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not 1 <= seeds <= MAX_SEEDS:
        raise ValidationFailed(f"seeds must be in 1..{MAX_SEEDS}.", fields={"seeds": [str(seeds)]})
    if seeds * seats * 2 > MAX_GAMES:
        raise ValidationFailed(
            f"{seeds} seeds x {seats} seats x 2 versions is more than {MAX_GAMES} games.",
            fields={"seeds": ["too many games"]},
        )
    if not 0.001 <= level <= 0.5:
        raise ValidationFailed("level must be in [0.001, 0.5].", fields={"level": [str(level)]})
    a = _ready_version(version_a_id, "bot_version_a")
    b = _ready_version(version_b_id, "bot_version_b")
    allowed = user.is_superuser or is_organiser(user) or user.pk in (a.bot.owner_id, b.bot.owner_id)
    if not allowed:
        raise PermissionDenied(NOT_ALLOWED)
    limit = settings.PAIRED_ACTIVE_MAX
    running = PairedComparison.objects.filter(
        requested_by=user, status=PairedComparison.Status.RUNNING
    )
    if not user.is_superuser and running.count() >= limit:
        raise RateLimited(
            RateLimited.PAIRED_ACTIVE.format(limit=limit),
            retry_after=settings.CHALLENGE_RETRY_SECONDS,
        )
    if seats == 1:
        opponents: list[BotVersion] = []
        if opponent_ids:
            raise ValidationFailed(
                "A solo game has no opponents.", fields={"opponents": ["none in solo"]}
            )
    elif opponent_ids:
        if len(opponent_ids) > seats - 1:
            raise ValidationFailed(
                f"At most {seats - 1} opponents at {seats} seats.",
                fields={"opponents": ["too many"]},
            )
        opponents = [_ready_version(v, "opponents") for v in opponent_ids]
    else:
        opponents = [builtin_version("random")]
    with transaction.atomic():
        comparison = PairedComparison.objects.create(
            requested_by=user, version_a=a, version_b=b, opponents=[o.pk for o in opponents],
            mode=mode, seats=seats, options=cleaned, seeds=seeds, level=level,
        )  # fmt: skip
        comparison.base_seed = derive_seed("paired", comparison.pk)
        comparison.save(update_fields=["base_seed"])
        games = plan_lib.plan(
            seeds=seeds, seats=seats, opponents=len(opponents), base_seed=comparison.base_seed
        )
        links = []
        for game in games:
            lineup = [
                (a if who == "A" else b) if who in plan_lib.ARMS else opponents[int(who)]
                for who in game.lineup
            ]
            match = match_create_internal(
                kind=Match.Kind.PAIRED, mode=mode, options=cleaned, bot_versions=lineup,
                league=None, requested_by=user, seed=game.seed,
            )  # fmt: skip
            MatchSeat.objects.filter(match=match, seat=game.tested_seat).update(
                bot_seed=game.bot_seed
            )
            links.append(
                PairedGame(
                    comparison=comparison,
                    match=match,
                    seed_index=game.seed_index,
                    rotation=game.rotation,
                    arm=game.arm,
                )  # fmt: skip
            )
        PairedGame.objects.bulk_create(links)
    return comparison


def paired_game_decided(*, match: Match) -> PairedComparison | None:
    """Called in the transaction that finished (or finally failed) one of a comparison's games:
    once none is left open, analyse the games and store the result."""
    link = PairedGame.objects.filter(match=match).first()
    if link is None:
        return None
    comparison = PairedComparison.objects.select_for_update().get(pk=link.comparison_id)
    if comparison.status != PairedComparison.Status.RUNNING:
        return comparison
    open_games = comparison.games.filter(
        match__status__in=[Match.Status.QUEUED, Match.Status.RUNNING]
    ).exclude(match=match)
    if open_games.exists():
        return comparison
    try:
        result = plan_lib.analyse(
            paired_results(comparison=comparison), rotations=comparison.seats,
            level=comparison.level,
        )  # fmt: skip
    except ValueError as exc:
        comparison.status = PairedComparison.Status.FAILED
        comparison.error = f"{exc} (every seed lost a game)"
    else:
        comparison.status = PairedComparison.Status.FINISHED
        comparison.result = result.to_json()
    comparison.finished_at = timezone.now()
    comparison.save(update_fields=["status", "result", "error", "finished_at"])
    return comparison


def paired_results(*, comparison: PairedComparison) -> list[plan_lib.GameResult]:
    """The tested seat's outcome of every finished game (a game without a score is dropped,
    and with it its seed)."""
    rows = (
        MatchSeat.objects.filter(
            match__paired_game__comparison=comparison, match__status=Match.Status.FINISHED
        )
        .select_related("match__paired_game")
        .order_by("match_id", "seat")
    )
    tables: dict[int, list[MatchSeat]] = {}
    for seat in rows:
        tables.setdefault(seat.match_id, []).append(seat)
    out = []
    for table in tables.values():
        game = table[0].match.paired_game
        tested = next((s for s in table if s.seat == game.rotation), None)
        if tested is None or any(s.score is None for s in table):
            continue
        scores = [float(s.score) for s in table]
        out.append(
            plan_lib.GameResult(
                seed_index=game.seed_index,
                rotation=game.rotation,
                arm=game.arm,
                score=plan_lib.tested_score(scores, table.index(tested), bool(tested.fault)),
                won=tested.rank == 1,
                rank=tested.rank,
            )  # fmt: skip
        )
    return out
