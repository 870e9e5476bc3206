"""Paired comparisons: "is bot version B stronger than A?", answered by a sequential test.

The plan and the statistics live in `competition/paired_stats.py` and `competition/sprt.py` (pure,
shared
with the local CLI); this service turns the plan into unrated matches played by the ordinary
workers, a few seeds at a time (`PAIRED_WINDOW_SEEDS` seeds in flight: each seed is the A and
B games of every seat rotation, queued together), and after every decided game runs the SPRT
on the seeds decided so far, in seed order. As soon as the LLR crosses a bound the comparison
is finished and its games still queued are cancelled; otherwise the next seeds are queued, up
to the cap (`seeds`). The running result (LLR course included) is stored as it grows, so the
comparison's page can draw it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from competition import paired_stats as plan_lib
from competition import sprt
from competition.seeds import seed_from

from ..errors import Conflict, NotFound, PermissionDenied, RateLimited, ValidationFailed
from ..models import BotVersion, Match, MatchSeat, PairedComparison, PairedGame
from .bots import builtin_version
from .game_config import game_config_check
from .leagues import is_organiser
from .matches import match_create_internal
from .workshop_gate import workshop_release_on_commit

MAX_SEEDS = 1000  # the cap a request may set
MAX_GAMES = 4000  # seeds x seats x 2 arms, at the cap
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
    elo0: float = sprt.DEFAULT_ELO0,
    elo1: float = sprt.DEFAULT_ELO1,
    alpha: float = sprt.DEFAULT_ALPHA,
    beta: float = sprt.DEFAULT_BETA,
) -> PairedComparison:
    """Start a comparison and queue its first seeds (unrated matches, played by the workers);
    `seeds` is the cap, the SPRT (`elo0`, `elo1`, `alpha`, `beta`) usually stops before it.

    Opponents fill the seats other than the tested one, in order and cyclically; by default
    the built-in random bot. A may equal B: that measures how noisy a bot is against itself.
    """
    cleaned = game_config_check(mode=mode, seats=seats, options=options)
    if isinstance(seeds, bool) or not isinstance(seeds, int) or not 1 <= seeds <= MAX_SEEDS:
        raise ValidationFailed(
            f"Seeds must be from 1 to {MAX_SEEDS}.", fields={"seeds": [str(seeds)]}
        )
    if seeds * seats * 2 > MAX_GAMES:
        raise ValidationFailed(
            f"{seeds} seeds x {seats} seats x 2 versions is more than {MAX_GAMES} games.",
            fields={"seeds": ["too many games"]},
        )
    try:
        sprt.SprtSettings(elo0, elo1, alpha, beta)
    except sprt.BadSprt as exc:
        raise ValidationFailed(f"{exc}.", fields={"sprt": [str(exc)]}) from None
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
    return paired_start(
        requested_by=user, a=a, b=b, opponents=opponents, mode=mode, seats=seats,
        options=cleaned, seeds=seeds, test=sprt.SprtSettings(elo0, elo1, alpha, beta),
    )  # fmt: skip


def paired_start(
    *, requested_by: Any, a: BotVersion, b: BotVersion, opponents: Sequence[BotVersion],
    mode: str, seats: int, options: dict[str, Any], seeds: int, test: sprt.SprtSettings,
    game_kind: str = Match.Kind.PAIRED,
) -> PairedComparison:  # fmt: skip
    """Create a comparison of checked versions and queue its first seeds; the site's requests
    come through `paired_create`, the boss leagues' promotion runs (no requester, games of
    `game_kind` ``boss``: workshop work, services/workshop_gate.py) directly."""
    with transaction.atomic():
        comparison = PairedComparison.objects.create(
            requested_by=requested_by, version_a=a, version_b=b,
            opponents=[o.pk for o in opponents], mode=mode, seats=seats, options=options,
            seeds=seeds, elo0=test.elo0, elo1=test.elo1, alpha=test.alpha, beta=test.beta,
            game_kind=game_kind,
        )  # fmt: skip
        comparison.base_seed = seed_from("paired", comparison.pk)
        comparison.save(update_fields=["base_seed"])
        _schedule(comparison, upto=min(seeds, settings.PAIRED_WINDOW_SEEDS))
    return comparison


def settings_of(comparison: PairedComparison) -> sprt.SprtSettings:
    return sprt.SprtSettings(comparison.elo0, comparison.elo1, comparison.alpha, comparison.beta)


def _schedule(comparison: PairedComparison, *, upto: int) -> None:
    """Queue the games of the seeds from `comparison.scheduled` to `upto` (exclusive)."""
    if upto <= comparison.scheduled:
        return
    versions = {v.pk: v for v in BotVersion.objects.filter(
        pk__in=[comparison.version_a_id, comparison.version_b_id, *comparison.opponents])}
    a, b = versions[comparison.version_a_id], versions[comparison.version_b_id]
    opponents = [versions[pk] for pk in comparison.opponents]
    games = plan_lib.plan(seeds=upto, seats=comparison.seats, opponents=len(opponents),
                          base_seed=comparison.base_seed)  # fmt: skip
    links = []
    for game in games:
        if game.seed_index < comparison.scheduled:
            continue
        lineup = [
            (a if who == "A" else b) if who in plan_lib.ARMS else opponents[int(who)]
            for who in game.lineup
        ]
        match = match_create_internal(
            kind=comparison.game_kind, mode=comparison.mode, options=comparison.options,
            bot_versions=lineup, league=None, requested_by=comparison.requested_by,
            seed=game.seed,
        )  # fmt: skip
        MatchSeat.objects.filter(match=match, seat=game.tested_seat).update(
            bot_seed=game.bot_seed
        )
        links.append(PairedGame(comparison=comparison, match=match, seed_index=game.seed_index,
                                rotation=game.rotation, arm=game.arm))  # fmt: skip
    PairedGame.objects.bulk_create(links)
    comparison.scheduled = upto
    comparison.save(update_fields=["scheduled"])


def paired_game_decided(*, match: Match) -> PairedComparison | None:
    """Called in the transaction that finished (or finally failed) one of a comparison's games:
    run the SPRT on the seeds decided so far (in seed order, up to the first seed with a game
    still open), store the running result, and either stop (a bound crossed, or the cap
    reached: the games still queued are cancelled) or queue the next seeds."""
    link = PairedGame.objects.filter(match=match).first()
    if link is None:
        return None
    comparison = PairedComparison.objects.select_for_update().get(pk=link.comparison_id)
    if comparison.status != PairedComparison.Status.RUNNING:
        return comparison
    open_seeds = set(
        comparison.games.filter(match__status__in=[Match.Status.QUEUED, Match.Status.RUNNING])
        .exclude(match=match).values_list("seed_index", flat=True)
    )
    upto = min(open_seeds, default=comparison.scheduled)
    result = None
    try:
        result = plan_lib.analyse(
            paired_results(comparison=comparison), rotations=comparison.seats,
            settings=settings_of(comparison), upto=upto, cap=comparison.seeds,
        )  # fmt: skip
    except ValueError as exc:  # no seed decided whole yet
        if upto >= comparison.seeds:
            comparison.status = PairedComparison.Status.FAILED
            comparison.error = f"{exc} (every seed lost a game)"
    if result is not None:
        comparison.result = result.to_json()
        if result.done:
            comparison.status = PairedComparison.Status.FINISHED
    if comparison.status != PairedComparison.Status.RUNNING:
        comparison.finished_at = timezone.now()
        Match.objects.filter(
            paired_game__comparison=comparison, status=Match.Status.QUEUED
        ).update(status=Match.Status.CANCELLED, finished_at=comparison.finished_at)
    comparison.save(update_fields=["status", "result", "error", "finished_at"])
    if comparison.status == PairedComparison.Status.RUNNING:
        _schedule(comparison, upto=min(comparison.seeds, upto + settings.PAIRED_WINDOW_SEEDS))
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


def paired_stop(*, comparison: PairedComparison, reason: str) -> None:
    """End a running comparison before its test decides (its result so far is kept, marked
    failed with ``reason``) and cancel its games still queued; a boss league's promotion run
    is stopped so when a newer version of the bot takes its place."""
    if comparison.status != PairedComparison.Status.RUNNING:
        return
    comparison.status = PairedComparison.Status.FAILED
    comparison.error = reason
    comparison.finished_at = timezone.now()
    comparison.save(update_fields=["status", "error", "finished_at"])
    Match.objects.filter(paired_game__comparison=comparison, status=Match.Status.QUEUED).update(
        status=Match.Status.CANCELLED, finished_at=comparison.finished_at
    )
    if comparison.game_kind == Match.Kind.BOSS:  # a game sent but not begun held a workshop slot
        workshop_release_on_commit()
