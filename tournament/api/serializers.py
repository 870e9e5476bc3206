"""Input and output serializers of the API (input ones only check shapes; services check rules)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

from django.contrib.auth import get_user_model, password_validation
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from competition import skill
from workers.queueing.queues import KIND_LANES

from .. import formats
from ..ladder_rest import ladder_rest_state
from ..match_summaries import MatchSummary, SeatSummary
from ..models import (
    Bot,
    BotVersion,
    Bracket,
    League,
    LeagueEntry,
    LeagueInvitation,
    Match,
    MatchSeat,
    PairedComparison,
    RatingChange,
)
from ..private_output import failure_kind, may_see_private
from ..selectors.brackets import league_podium
from ..selectors.queue_place import QueuePlace, match_queue_place
from ..services.game_config import fixed_seats
from ..standings import league_bye_points, league_points
from .bracket_serializers import (
    BracketInputFields,
    BracketSettingsOutput,
    PlaceOutput,
    TitleOutput,
)


class StrictInput(serializers.Serializer):
    """An input that refuses keys it does not know (a typo must not be silently dropped),
    reported together with the other field errors."""

    def to_internal_value(self, data: Any) -> Any:
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, Mapping) else []
        errors: dict[str, Any] = {
            key: [f"Unknown field; the fields are {', '.join(self.fields)}."] for key in unknown
        }
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if not errors or not isinstance(exc.detail, dict):
                raise
            raise serializers.ValidationError({**exc.detail, **errors}) from None
        if errors:
            raise serializers.ValidationError(errors)
        return value


# --- accounts -------------------------------------------------------------------------------


class AccountInput(serializers.Serializer):
    username = serializers.RegexField(r"^[\w.@+-]{3,150}$", max_length=150)
    password = serializers.CharField(write_only=True, min_length=8, max_length=128)
    email = serializers.EmailField()

    def validate_username(self, value: str) -> str:
        if get_user_model().objects.filter(username__iexact=value).exists():
            raise serializers.ValidationError("This username is taken.")
        return value

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        user = get_user_model()(username=attrs["username"], email=attrs["email"])
        try:
            password_validation.validate_password(attrs["password"], user)
        except Exception as exc:  # django ValidationError -> field error
            raise serializers.ValidationError({"password": list(exc.messages)}) from None
        return attrs


class AccountOutput(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.EmailField()
    is_organiser = serializers.SerializerMethodField()

    def get_is_organiser(self, user: Any) -> bool:
        return user.has_perm("tournament.organise_leagues")


# --- bots -----------------------------------------------------------------------------------


class BotInput(serializers.Serializer):
    name = serializers.RegexField(r"^[\w .+-]{1,64}$", max_length=64)
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class BotUpdateInput(serializers.Serializer):
    name = serializers.RegexField(r"^[\w .+-]{1,64}$", max_length=64, required=False)
    description = serializers.CharField(required=False, allow_blank=True, max_length=2000)


class BundleInput(serializers.Serializer):
    # An empty file reaches the service, which says so in the one message the site shows too.
    file = serializers.FileField(allow_empty_file=True)


def _viewer(context: Mapping[str, Any]) -> Any:
    """The signed-in user the output is written for, or None (anonymous, or no request)."""
    user = getattr(context.get("request"), "user", None)
    return user if user is not None and user.is_authenticated else None


class BotVersionOutput(serializers.ModelSerializer):
    bot_name = serializers.CharField(source="bot.name")
    language = serializers.SerializerMethodField()
    failure_reason = serializers.SerializerMethodField(
        help_text="why the version failed; others than the owner and staff read only its kind "
        "(e.g. 'crash', 'build failed'): the detail can quote the sources or the bot's output"
    )
    log = serializers.SerializerMethodField(
        help_text="the bot's kept stderr of its validation match; the owner and staff only "
        "(null for others)"
    )
    build_log = serializers.SerializerMethodField(
        help_text="compiler output of a compiled language's build; the owner and staff only "
        "(null for others)"
    )

    class Meta:
        model = BotVersion
        fields = [
            "id", "bot", "bot_name", "number", "builtin", "bundle_kind", "sha256", "size",
            "manifest", "language", "status", "failure_reason", "log", "build_log",
            "built_sha256", "seats_finished", "seats_faulted", "fault_streak", "suspended_at",
            "suspension_reason", "created_at",
        ]  # fmt: skip

    def get_language(self, version: BotVersion) -> str | None:
        return (version.manifest or {}).get("language") or None

    def get_failure_reason(self, version: BotVersion) -> str:
        """"crash: exited with status 1" for the owner, "crash" for others (the site's version
        page says as much); a compile error quotes the sources."""
        if may_see_private(_viewer(self.context), version.bot.owner_id):
            return version.failure_reason
        return failure_kind(version.failure_reason)

    def get_log(self, version: BotVersion) -> str | None:
        """What the bot wrote on stderr can hold its secrets (strategy, keys it printed)."""
        return version.log if may_see_private(_viewer(self.context), version.bot.owner_id) else None

    def get_build_log(self, version: BotVersion) -> str | None:
        """The compile log can quote the sources."""
        if not may_see_private(_viewer(self.context), version.bot.owner_id):
            return None
        return version.build_log


class BotOutput(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username")
    versions = BotVersionOutput(many=True)

    class Meta:
        model = Bot
        fields = ["id", "name", "description", "owner", "is_system", "retired", "created_at",
                  "versions"]  # fmt: skip


class _SkillFields(serializers.Serializer):
    """OpenSkill beside Elo: μ, σ, the conservative rating μ − 3σ and whether σ is still high."""

    openskill_mu = serializers.SerializerMethodField()
    openskill_sigma = serializers.SerializerMethodField()
    conservative = serializers.SerializerMethodField(help_text="mu - 3 sigma")
    provisional = serializers.SerializerMethodField(
        help_text=f"fewer than {skill.PROVISIONAL_GAMES} rated games, or sigma still at least "
        f"{skill.PROVISIONAL_SIGMA}: the rating has not settled"
    )

    def get_openskill_mu(self, entry: LeagueEntry) -> float:
        return round(entry.openskill_mu, 3)

    def get_openskill_sigma(self, entry: LeagueEntry) -> float:
        return round(entry.openskill_sigma, 3)

    def get_conservative(self, entry: LeagueEntry) -> float:
        return round(skill.conservative(entry.openskill_mu, entry.openskill_sigma), 3)

    def get_provisional(self, entry: LeagueEntry) -> bool:
        return skill.is_provisional(entry.openskill_sigma, entry.games)


class EntryRatingOutput(_SkillFields, serializers.ModelSerializer):
    league_name = serializers.CharField(source="league.name")
    version = serializers.IntegerField(source="bot_version.number")

    class Meta:
        model = LeagueEntry
        fields = ["league", "league_name", "bot_version", "version", "rating", "openskill_mu",
                  "openskill_sigma", "conservative", "provisional", "games", "wins", "draws",
                  "losses"]  # fmt: skip


# --- matches --------------------------------------------------------------------------------


class MatchSeatOutput(serializers.ModelSerializer):
    bot = serializers.CharField(source="bot_version.bot.name")
    version = serializers.IntegerField(
        source="bot_version.number",
        help_text="the version's number; 0 for a snapshot of its author's workshop draft "
        "(their test games only)",
    )  # fmt: skip
    fault_evidence = serializers.SerializerMethodField(
        help_text="a timeout's CPU time, wall clock and machine load; the owner and staff only"
    )
    log = serializers.SerializerMethodField(
        help_text="the seat's kept stderr (the stderr of its fault, when it faulted); the owner "
        "and staff only (null for others)"
    )

    class Meta:
        model = MatchSeat
        fields = ["seat", "bot_version", "bot", "version", "bot_sha256", "score", "rank",
                  "fault", "fault_detail", "time_used", "fault_evidence", "log"]  # fmt: skip

    def _private(self, seat: MatchSeat) -> bool:
        return may_see_private(_viewer(self.context), seat.bot_version.bot.owner_id)

    def get_fault_evidence(self, seat: MatchSeat) -> dict | None:
        return seat.fault_evidence if self._private(seat) else None

    def get_log(self, seat: MatchSeat) -> str | None:
        return seat.log if self._private(seat) else None


class MatchSeatSummaryOutput(MatchSeatOutput):
    """A seat in a match list: no stderr log (kilobytes a seat; the match itself has it)."""

    class Meta(MatchSeatOutput.Meta):
        fields = [f for f in MatchSeatOutput.Meta.fields if f != "log"]


class MatchOutput(serializers.ModelSerializer):
    seats = MatchSeatOutput(many=True)
    replay_url = serializers.SerializerMethodField()
    viewer_url = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id", "kind", "league", "round", "mode", "options", "seed", "engine_version",
            "status", "attempts", "error", "decision_time_limit", "time_bank", "created_at",
            "started_at", "finished_at", "seats", "result", "replay_sha256", "replay_size",
            "replay_url", "viewer_url",
        ]  # fmt: skip

    def _abs(self, path: str) -> str:
        request = self.context.get("request")
        return request.build_absolute_uri(path) if request else path

    def get_replay_url(self, match: Match) -> str | None:
        return self._abs(f"/api/v1/matches/{match.pk}/replay") if match.replay_name else None

    def get_viewer_url(self, match: Match) -> str | None:
        return self._abs(f"/replays/{match.pk}/") if match.replay_name else None


_WHEN = serializers.DateTimeField()  # the API's datetime text, as every field writes it


class MatchSummaryOutput(MatchOutput):
    """A match in a list: everything but the `result` blob (several KB a match; the detail
    endpoint has it) and the error text.

    Rows are `match_summaries.MatchSummary` values, written out here directly: the fields
    declared above describe them (schema), but running DRF's machinery field by field cost
    more than the queries of a page. tests/tournament/test_page_queries.py checks that the
    output is what that machinery would write."""

    seats = MatchSeatSummaryOutput(many=True)

    class Meta(MatchOutput.Meta):
        fields = [f for f in MatchOutput.Meta.fields if f not in ("result", "error")]

    @functools.cached_property
    def _base(self) -> str:
        """The site's absolute root, once per list (its links are absolute)."""
        return self._abs("/").rstrip("/")

    def to_representation(self, match: MatchSummary) -> dict[str, Any]:
        base = self._base
        viewer = _viewer(self.context)
        when = _WHEN.to_representation
        replay = bool(match.replay_name)
        return {
            "id": match.id, "kind": match.kind, "league": match.league_id,
            "round": match.round, "mode": match.mode, "options": match.options,
            "seed": match.seed, "engine_version": match.engine_version, "status": match.status,
            "attempts": match.attempts, "decision_time_limit": float(match.decision_time_limit),
            "time_bank": float(match.time_bank), "created_at": when(match.created_at),
            "started_at": when(match.started_at), "finished_at": when(match.finished_at),
            "seats": [_seat_summary(seat, viewer) for seat in match.seats],
            "replay_sha256": match.replay_sha256, "replay_size": match.replay_size,
            "replay_url": f"{base}/api/v1/matches/{match.id}/replay" if replay else None,
            "viewer_url": f"{base}/replays/{match.id}/" if replay else None,
        }  # fmt: skip


def _float(value: float | None) -> float | None:
    return None if value is None else float(value)


def _seat_summary(seat: SeatSummary, viewer: Any) -> dict[str, Any]:
    """A seat as MatchSeatOutput writes it (fault evidence for the owner and staff only)."""
    private = may_see_private(viewer, seat.bot_owner_id)
    return {
        "seat": seat.seat, "bot_version": seat.bot_version_id, "bot": seat.bot_name,
        "version": seat.version, "bot_sha256": seat.bot_sha256, "score": _float(seat.score),
        "rank": seat.rank, "fault": seat.fault, "fault_detail": seat.fault_detail,
        "time_used": _float(seat.time_used),
        "fault_evidence": seat.fault_evidence if private else None,
    }  # fmt: skip


class MatchInput(serializers.Serializer):
    mode = serializers.CharField(max_length=16)
    options = serializers.DictField(required=False, default=dict)
    bot_versions = serializers.ListField(
        child=serializers.IntegerField(min_value=1), min_length=1, max_length=4
    )


class ChallengeInput(MatchInput):
    seats = serializers.IntegerField(
        required=False, min_value=1, max_value=4,
        help_text="optional; when given, must equal the number of bot_versions",
    )  # fmt: skip


class TestGameInput(StrictInput):
    """A test game: the author's version, or the workshop draft of one of their bots, in
    seat 0 against built-in bots or their own versions (tournament/services/test_games.py)."""

    ONE_OF = (
        "Give exactly one of bot_version (the version to test) and draft (the bot whose draft"
        " to test)."
    )

    bot_version = serializers.IntegerField(
        min_value=1, required=False, help_text="your own version to test (or give draft)"
    )
    draft = serializers.IntegerField(
        min_value=1, required=False,
        help_text="the id of your bot whose workshop draft to test as it is now, unsubmitted "
        "(or give bot_version); it plays as a draft snapshot, version 0",
    )  # fmt: skip
    opponents = serializers.ListField(
        child=serializers.CharField(max_length=32), min_length=0, max_length=3,
        help_text='built-in bot names ("greedy", "random", "search-0.25s") or ids of your'
        " own versions, one per other seat (or one for every other seat with `seats`)",
    )  # fmt: skip
    mode = serializers.CharField(max_length=16)
    options = serializers.DictField(required=False, default=dict)
    seats = serializers.IntegerField(required=False, min_value=1, max_value=4)
    seed = serializers.IntegerField(required=False, min_value=0, max_value=2**63 - 1)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("bot_version" in attrs) == ("draft" in attrs):
            raise serializers.ValidationError(
                {"bot_version": [self.ONE_OF], "draft": [self.ONE_OF]}
            )
        return attrs


class TestGameOutput(MatchOutput):
    """A test game as its author sees it, with its page and, while it waits, its place in
    the workshop lane."""

    page_url = serializers.SerializerMethodField()
    lane = serializers.SerializerMethodField()
    place = serializers.SerializerMethodField(help_text="1: the next game of its lane; null: "
                                              "no longer queued")  # fmt: skip
    expected_wait_seconds = serializers.SerializerMethodField()

    class Meta(MatchOutput.Meta):
        fields = [*MatchOutput.Meta.fields, "page_url", "lane", "place", "expected_wait_seconds"]

    def _place(self, match: Match) -> QueuePlace | None:
        cache = self.context.setdefault("_places", {})
        if match.pk not in cache:
            cache[match.pk] = match_queue_place(match=match)
        return cache[match.pk]

    def get_page_url(self, match: Match) -> str:
        return self._abs(f"/matches/{match.pk}/")

    def get_lane(self, match: Match) -> str:
        return KIND_LANES[match.kind]

    def get_place(self, match: Match) -> int | None:
        place = self._place(match)
        return place.place if place else None

    def get_expected_wait_seconds(self, match: Match) -> float | None:
        place = self._place(match)
        return place.expected_seconds if place else None


# --- leagues --------------------------------------------------------------------------------


class LeagueInput(StrictInput, BracketInputFields):
    name = serializers.CharField(max_length=100)
    mode = serializers.CharField(max_length=16)
    seats = serializers.IntegerField(
        min_value=1, max_value=4, required=False,
        help_text="bots per match; may be left out for a mode that fixes it (duel 2, solo 1)",
    )  # fmt: skip
    format = serializers.ChoiceField(choices=League.Format.choices)  # see __init__
    options = serializers.DictField(required=False, default=dict)
    public = serializers.BooleanField(required=False, default=True)
    decision_time_limit = serializers.FloatField(required=False, default=1.0)
    time_bank = serializers.FloatField(required=False, default=30.0)
    seeds = serializers.IntegerField(required=False, default=1)
    rounds = serializers.IntegerField(required=False, default=3)
    ladder_order = serializers.ChoiceField(
        choices=League.LadderOrder.choices, required=False, default=League.LadderOrder.ELO
    )
    marks_public = serializers.BooleanField(required=False, default=False)
    points_table = serializers.ListField(
        child=serializers.FloatField(), required=False, default=list,
        help_text="swiss: points of each place, 1st first (empty: the default for the seats)",
    )  # fmt: skip
    bye_points = serializers.FloatField(required=False, allow_null=True, default=None)
    starts_at = serializers.DateTimeField(required=False, allow_null=True, default=None)
    entry_deadline = serializers.DateTimeField(required=False, allow_null=True, default=None)
    max_entrants = serializers.IntegerField(required=False, allow_null=True, default=None)
    all_seat_orders = serializers.BooleanField(required=False, default=False)
    division_size = serializers.IntegerField(
        required=False, default=0, help_text="ladder: divisions of about this many (0: none)"
    )
    division_every = serializers.IntegerField(
        required=False, default=10, help_text="ladder: promotion and relegation every N rounds"
    )
    seed_privacy = serializers.ChoiceField(
        choices=["public", "hidden", "author"], required=False, default="public",
        help_text="solo: hide matches, seeds and replays until the close (hidden), or show "
        "each author their own (author)",
    )  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["format"].choices = formats.choices()  # every registered format

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Seats left out: the mode's own, when it fixes them."""
        attrs = super().validate(attrs)
        if attrs.get("seats") is None:
            fixed = fixed_seats(attrs.get("mode"))
            if fixed is None:
                raise serializers.ValidationError(
                    {"seats": ["Give the seats (bots per match): this mode takes 2 to 4."]})
            attrs["seats"] = fixed
        return attrs


class LeagueUpdateInput(StrictInput):
    """Every field optional; the event fields (services/events.py) change a draft's plan."""

    ladder_order = serializers.ChoiceField(choices=League.LadderOrder.choices, required=False)
    points_table = serializers.ListField(child=serializers.FloatField(), required=False)
    bye_points = serializers.FloatField(required=False, allow_null=True)
    starts_at = serializers.DateTimeField(required=False, allow_null=True)
    entry_deadline = serializers.DateTimeField(required=False, allow_null=True)
    max_entrants = serializers.IntegerField(required=False, allow_null=True)


class LadderRestOutput(serializers.Serializer):
    resting = serializers.BooleanField(help_text="true: the ladder schedules nothing until a"
                                       " new entrant or version arrives")  # fmt: skip
    reason = serializers.CharField()


class LeagueOutput(serializers.ModelSerializer):
    organiser = serializers.CharField(source="organiser.username")
    rest = serializers.SerializerMethodField(
        help_text="a running ladder's rest state (tournament/ladder_rest.py); null otherwise"
    )
    points_table = serializers.SerializerMethodField(
        help_text="swiss: the points of each place, 1st first (the default when none was set)"
    )
    bye_points = serializers.SerializerMethodField(help_text="swiss: what a bye is worth")

    class Meta:
        model = League
        fields = [
            "id", "name", "organiser", "mode", "seats", "options", "format", "status", "public",
            "decision_time_limit", "time_bank", "seeds", "rounds", "current_round", "ladder_order",
            "points_table", "bye_points", "starts_at", "entry_deadline", "max_entrants",
            "all_seat_orders", "seed_privacy", "division_size", "division_every", "marks_public",
            "created_at", "rest",
        ]  # fmt: skip

    def get_points_table(self, league: League) -> list[float]:
        return list(league_points(league))

    def get_bye_points(self, league: League) -> float:
        return league_bye_points(league)

    @extend_schema_field(LadderRestOutput(allow_null=True))
    def get_rest(self, league: League) -> dict[str, Any] | None:
        if league.status != League.Status.RUNNING:
            return None
        states = self.context.get("rest_states")  # a list's page reads them at once
        state = states.get(league.pk) if states is not None else ladder_rest_state(league)
        return None if state is None else {"resting": state.resting, "reason": state.reason}


class LeagueDetailOutput(LeagueOutput):
    """One league: its bracket's settings (null for other formats) and, once closed, its
    podium (the top three places, ties shared, with their points or results)."""

    bracket = serializers.SerializerMethodField()
    podium = serializers.SerializerMethodField()

    class Meta(LeagueOutput.Meta):
        fields = [*LeagueOutput.Meta.fields, "bracket", "podium"]

    def get_bracket(self, league: League) -> dict[str, Any] | None:
        bracket = Bracket.objects.filter(league=league).first()
        return BracketSettingsOutput(bracket).data if bracket else None

    def get_podium(self, league: League) -> list[dict[str, Any]]:
        return PlaceOutput(league_podium(league=league), many=True).data


class EntryInput(serializers.Serializer):
    bot = serializers.IntegerField(required=False, min_value=1)
    bot_version = serializers.IntegerField(required=False, min_value=1)


class EntryOutput(serializers.ModelSerializer):
    bot = serializers.IntegerField(source="bot_version.bot_id")
    bot_name = serializers.CharField(source="bot_version.bot.name")
    version = serializers.IntegerField(source="bot_version.number")

    class Meta:
        model = LeagueEntry
        fields = ["id", "league", "bot", "bot_name", "bot_version", "version", "created_at"]


class InvitationInput(serializers.Serializer):
    user = serializers.CharField(max_length=150, help_text="username of the invited user")


class InvitationOutput(serializers.ModelSerializer):
    user = serializers.CharField(source="user.username")
    invited_by = serializers.CharField(source="invited_by.username")

    class Meta:
        model = LeagueInvitation
        fields = ["id", "league", "user", "invited_by", "created_at"]


class LadderRowOutput(_SkillFields):
    rank = serializers.IntegerField()
    entry = serializers.IntegerField(source="pk")
    bot = serializers.CharField(source="bot_version.bot.name")
    bot_id = serializers.IntegerField(source="bot_version.bot_id")
    bot_version = serializers.IntegerField(source="bot_version_id")
    version = serializers.IntegerField(source="bot_version.number")
    elo = serializers.SerializerMethodField()
    openskill_interval = serializers.SerializerMethodField(help_text="[mu - 2 sigma, mu + 2 sigma]")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    byes = serializers.IntegerField()
    faults = serializers.IntegerField(help_text="rated matches of this league it faulted in")
    suspended = serializers.SerializerMethodField(
        help_text="its version is suspended from scheduling after faulting (FAULT_SUSPEND_AFTER)"
    )
    placements = serializers.ListField(
        child=serializers.IntegerField(), help_text="times finished 1st, 2nd, ... (rated games)"
    )
    mean_rank = serializers.SerializerMethodField(help_text="mean finishing place, 1 is best")
    mean_score = serializers.SerializerMethodField()
    last_change = serializers.SerializerMethodField()
    boss_league = serializers.CharField(
        source="boss_tier", allow_null=True,
        help_text="the bot's boss league in the league's mode ('unranked' if it passed no "
        "gate); null in a mode without boss leagues",
    )  # fmt: skip

    def get_elo(self, entry: LeagueEntry) -> float:
        return round(entry.rating, 1)

    def get_suspended(self, entry: LeagueEntry) -> bool:
        return entry.bot_version.suspended_at is not None

    def get_openskill_interval(self, entry: LeagueEntry) -> list[float]:
        low, high = skill.interval(entry.openskill_mu, entry.openskill_sigma)
        return [round(low, 3), round(high, 3)]

    def get_mean_rank(self, entry: LeagueEntry) -> float | None:
        return None if entry.mean_rank is None else round(entry.mean_rank, 3)

    def get_mean_score(self, entry: LeagueEntry) -> float | None:
        return None if entry.mean_score is None else round(entry.mean_score, 2)

    def get_last_change(self, entry: LeagueEntry) -> float:
        return round(entry.last_change, 1)

    def to_representation(self, entry: LeagueEntry) -> dict[str, Any]:
        data = super().to_representation(entry)
        if self.context.get("solo"):
            data["win_rate"] = round(entry.wins / entry.games, 3) if entry.games else None
            data["mean_margin"] = None if entry.mean_margin is None else round(entry.mean_margin, 2)
        return data


class RatingChangeOutput(serializers.ModelSerializer):
    bot = serializers.CharField(source="bot_version.bot.name")

    class Meta:
        model = RatingChange
        fields = ["id", "match", "entry", "bot_version", "bot", "before", "after", "mu_before",
                  "mu_after", "sigma_before", "sigma_after", "created_at"]  # fmt: skip


# --- composite outputs (documented in the schema as they are sent) ----------------------------


class BossRunOutput(serializers.Serializer):
    comparison = serializers.IntegerField(help_text="the paired comparison playing the run")
    tier = serializers.CharField(help_text="the gate it is for")
    name = serializers.CharField()
    bot_version = serializers.IntegerField()


class BossLeagueOutput(serializers.Serializer):
    """The bot's boss league in one mode (competition/data/boss_leagues.json)."""

    mode = serializers.CharField()
    tier = serializers.CharField(help_text="the last gate passed, or 'unranked'")
    name = serializers.CharField()
    run = BossRunOutput(allow_null=True, help_text="the promotion run in progress, or null")
    history = serializers.ListField(
        child=serializers.DictField(), help_text="each run: tier, version, comparison, outcome"
    )


class BotDetailOutput(BotOutput):
    """A bot with its ratings (one row per visible league entry), recent matches and boss
    leagues (public, like ratings)."""

    ratings = EntryRatingOutput(many=True)
    recent_matches = MatchSummaryOutput(many=True)
    titles = TitleOutput(many=True)  # podium places in leagues the caller may see
    leagues = BossLeagueOutput(many=True)

    class Meta(BotOutput.Meta):
        fields = [*BotOutput.Meta.fields, "ratings", "recent_matches", "titles", "leagues"]


class LadderPageOutput(serializers.Serializer):
    """A page of a league's ladder, with the league itself."""

    league = LeagueOutput()
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = LadderRowOutput(many=True)


# --- head-to-head ---------------------------------------------------------------------------


class _RecordFields(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    win_rate = serializers.SerializerMethodField(help_text="(wins + draws / 2) / games")
    mean_score_diff = serializers.SerializerMethodField(help_text="mean of own minus their score")

    def get_win_rate(self, record: Any) -> float | None:
        return None if record.win_rate is None else round(record.win_rate, 3)

    def get_mean_score_diff(self, record: Any) -> float | None:
        diff = record.mean_score_diff
        return None if diff is None else round(diff, 2)


class BotOpponentRecord(_RecordFields):
    """The bot's results against one opponent bot."""

    opponent = serializers.IntegerField(source="opponent_bot.pk")
    opponent_name = serializers.CharField(source="opponent_bot.name")


class BotHeadToHeadOutput(serializers.Serializer):
    """A bot's results against every bot it met, most games first."""

    bot = serializers.IntegerField()
    league = serializers.IntegerField(allow_null=True, help_text="the ?league= filter, if any")
    opponents = BotOpponentRecord(many=True)


class LeagueHeadToHeadEntrant(serializers.Serializer):
    entry = serializers.IntegerField(source="pk")
    bot = serializers.CharField(source="bot_version.bot.name")
    bot_version = serializers.IntegerField(source="bot_version_id")
    version = serializers.IntegerField(source="bot_version.number")


class LeagueHeadToHeadRecord(_RecordFields):
    """One entrant's results against another (pairs that never met are left out)."""

    entry = serializers.IntegerField(source="subject_entry.pk")
    opponent_entry = serializers.IntegerField(source="opponent_entry.pk")


class LeagueHeadToHeadOutput(serializers.Serializer):
    """A league's head-to-head table: the entrants in ladder order and every pair that met."""

    league = serializers.IntegerField()
    entrants = LeagueHeadToHeadEntrant(many=True)
    records = LeagueHeadToHeadRecord(many=True)


# --- paired comparisons ---------------------------------------------------------------------


class PairedInput(serializers.Serializer):
    bot_version_a = serializers.IntegerField(min_value=1)
    bot_version_b = serializers.IntegerField(min_value=1)
    mode = serializers.CharField(max_length=16)
    seats = serializers.IntegerField(min_value=1, max_value=4)
    seeds = serializers.IntegerField(
        min_value=1, help_text="the cap: deals to play at most (each in every seat)")
    options = serializers.DictField(required=False, default=dict)
    opponents = serializers.ListField(
        child=serializers.IntegerField(min_value=1), required=False, max_length=3,
        help_text="bot version ids for the other seats (default: the built-in random bot)",
    )  # fmt: skip
    elo0 = serializers.FloatField(required=False, default=0.0, help_text="SPRT H0: B - A in Elo")
    elo1 = serializers.FloatField(required=False, default=40.0, help_text="SPRT H1: B - A in Elo")
    alpha = serializers.FloatField(required=False, default=0.05, help_text="false-positive rate")
    beta = serializers.FloatField(required=False, default=0.05, help_text="false-negative rate")


class PairedVersionOutput(serializers.Serializer):
    id = serializers.IntegerField()
    bot = serializers.IntegerField(source="bot_id")
    bot_name = serializers.CharField(source="bot.name")
    number = serializers.IntegerField()


class PairedResultOutput(serializers.Serializer):
    seeds = serializers.IntegerField(help_text="seeds the test read (each with every game)")
    games = serializers.IntegerField()
    llr = serializers.FloatField(help_text="the SPRT's log-likelihood ratio")
    llr_lower = serializers.FloatField(help_text="H0 is accepted at or below: ln(β/(1−α))")
    llr_upper = serializers.FloatField(help_text="H1 is accepted at or above: ln((1−β)/α)")
    elo = serializers.FloatField(help_text="B minus A, logistic Elo of the duplicate score")
    elo_low = serializers.FloatField(allow_null=True, help_text="null: no lower end")
    elo_high = serializers.FloatField(allow_null=True, help_text="null: no upper end")
    confidence = serializers.FloatField(help_text="of the Elo interval: 1 − α − β")
    counts = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="seeds by points of B over A, in halves (two seats: the pentanomial)")
    decision = serializers.CharField(allow_null=True, help_text="H1, H0, or null")
    capped = serializers.BooleanField(help_text="the cap was reached without a decision")
    verdict = serializers.CharField()
    course = serializers.ListField(
        child=serializers.ListField(child=serializers.FloatField()),
        help_text="[seeds, games, llr] after every seed, in seed order")
    mean_diff = serializers.FloatField(help_text="B's score minus A's, per game (a description)")
    win_rate_a = serializers.FloatField()
    win_rate_b = serializers.FloatField()
    b_ahead_rate = serializers.FloatField(help_text="paired games B outscored A (ties: half)")
    elo0 = serializers.FloatField()
    elo1 = serializers.FloatField()
    alpha = serializers.FloatField()
    beta = serializers.FloatField()


class PairedOutput(serializers.ModelSerializer):
    version_a = PairedVersionOutput()
    version_b = PairedVersionOutput()
    requested_by = serializers.CharField(source="requested_by.username", allow_null=True)
    games_total = serializers.IntegerField()
    games_done = serializers.IntegerField()
    result = serializers.SerializerMethodField()

    class Meta:
        model = PairedComparison
        fields = [
            "id", "status", "mode", "seats", "options", "seeds", "elo0", "elo1", "alpha",
            "beta", "version_a",
            "version_b", "opponents", "requested_by", "games_total", "games_done", "result",
            "error", "created_at", "finished_at",
        ]  # fmt: skip

    @extend_schema_field(PairedResultOutput(allow_null=True))
    def get_result(self, comparison: PairedComparison) -> dict[str, Any] | None:
        return comparison.result or None
