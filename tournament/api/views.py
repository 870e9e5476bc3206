"""API v1 views. Each one validates input, calls one service (or selector) and serializes."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import permissions, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from .. import field_labels, formats, selectors
from ..client_address import client_address
from ..errors import NotFound, ValidationFailed
from ..ladder_rest import ladder_rest_states
from ..models import League, Match
from ..selectors import boss_leagues as boss_selectors
from ..selectors import brackets as bracket_selectors
from ..services import accounts as account_services
from ..services import bots as bot_services
from ..services import challenges as challenge_services
from ..services import events as event_services
from ..services import leagues as league_services
from ..services import paired as paired_services
from ..services import test_games as test_game_services
from . import serializers as s
from .base import (
    FilteredListApi,
    ListApi,
    NewestFirstPagination,
    found,
    newest_first_paginated,
    paginated,
)
from .bracket_serializers import BRACKET_FIELDS, bracket_data
from .filters import (
    BotFilter,
    BotVersionFilter,
    LeagueFilter,
    MatchFilter,
    PairedFilter,
    RatingChangeFilter,
)
from .throttles import MatchRequestThrottle, UploadThrottle
from .uploads import bundle_upload_guard

# --- accounts -------------------------------------------------------------------------------


class AccountCreateApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(request=s.AccountInput, responses={201: s.AccountOutput})
    def post(self, request: Request) -> Response:
        data = s.AccountInput(data=request.data)
        data.is_valid(raise_exception=True)
        user = account_services.account_create(
            **data.validated_data, address=client_address(request._request)
        )
        return Response(s.AccountOutput(user).data, status=status.HTTP_201_CREATED)


class AccountMeApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=s.AccountOutput)
    def get(self, request: Request) -> Response:
        return Response(s.AccountOutput(request.user).data)


# --- bots -----------------------------------------------------------------------------------


def _bot_output(request: Request, bot_id: int) -> dict[str, Any]:
    """A bot as its reader may see it (its versions' logs for the owner and staff only)."""
    return s.BotOutput(selectors.bot_get(bot_id=bot_id), context={"request": request}).data


class BotListApi(FilteredListApi):
    filterset_class = BotFilter

    @extend_schema(responses=s.BotOutput(many=True))
    def get(self, request: Request) -> Response:
        return paginated(request, self, selectors.bot_list(), s.BotOutput)

    @extend_schema(request=s.BotInput, responses={201: s.BotOutput})
    def post(self, request: Request) -> Response:
        data = s.BotInput(data=request.data)
        data.is_valid(raise_exception=True)
        bot = bot_services.bot_create(owner=request.user, **data.validated_data)
        return Response(_bot_output(request, bot.pk), status=201)


class BotDetailApi(APIView):
    @extend_schema(responses=s.BotDetailOutput)
    def get(self, request: Request, bot_id: int) -> Response:
        bot = found(selectors.bot_get(bot_id=bot_id), "Bot", bot_id)
        bot.ratings = selectors.bot_ratings(bot=bot, user=request.user)
        bot.recent_matches = selectors.bot_recent_matches(bot=bot, user=request.user)
        bot.titles = bracket_selectors.bot_titles(bot=bot, user=request.user)
        bot.leagues = [g.to_json() for g in boss_selectors.bot_leagues(bot_id=bot.pk)]
        return Response(s.BotDetailOutput(bot, context={"request": request}).data)

    @extend_schema(request=s.BotUpdateInput, responses=s.BotOutput)
    def patch(self, request: Request, bot_id: int) -> Response:
        bot = found(selectors.bot_get(bot_id=bot_id), "Bot", bot_id)
        bot_services.bot_owner_check(bot=bot, user=request.user)  # before the fields
        data = s.BotUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        bot_services.bot_update(bot=bot, user=request.user, **data.validated_data)
        return Response(_bot_output(request, bot_id))


class BotRetireApi(APIView):
    @extend_schema(request=None, responses=s.BotOutput)
    def post(self, request: Request, bot_id: int) -> Response:
        bot = found(selectors.bot_get(bot_id=bot_id), "Bot", bot_id)
        bot_services.bot_retire(bot=bot, user=request.user)
        return Response(_bot_output(request, bot_id))


class BotVersionListApi(FilteredListApi):
    parser_classes = [MultiPartParser, FormParser]
    throttle_classes = [UploadThrottle]
    filterset_class = BotVersionFilter

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # Before authentication: a session's CSRF check already reads the body.
        if request.method == "POST":
            bundle_upload_guard(request)
        super().initial(request, *args, **kwargs)

    @extend_schema(responses=s.BotVersionOutput(many=True))
    def get(self, request: Request, bot_id: int) -> Response:
        bot = found(selectors.bot_get(bot_id=bot_id), "Bot", bot_id)
        versions = bot.versions.select_related("bot").order_by("number")
        return paginated(
            request, self, versions, s.BotVersionOutput, context={"request": request}
        )

    @extend_schema(
        request={"multipart/form-data": s.BundleInput}, responses={201: s.BotVersionOutput}
    )
    def post(self, request: Request, bot_id: int) -> Response:
        bot = found(selectors.bot_get(bot_id=bot_id), "Bot", bot_id)
        bot_services.bot_owner_check(bot=bot, user=request.user)  # before the fields
        data = s.BundleInput(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        # Read at most one byte over the limit: enough for the service to refuse it.
        content = upload.read(settings.BOT_UPLOAD_MAX_BYTES + 1)
        version = bot_services.bot_version_upload(
            bot=bot, user=request.user, filename=upload.name, data=content
        )
        version = selectors.bot_version_get(version_id=version.pk, user=request.user)
        return Response(s.BotVersionOutput(version, context={"request": request}).data, status=201)


class BotVersionResumeApi(APIView):
    """The author lifts the version's suspension for faulting (services/bots.py)."""

    @extend_schema(request=None, responses=s.BotVersionOutput)
    def post(self, request: Request, version_id: int) -> Response:
        version = selectors.bot_version_get(version_id=version_id, user=request.user)
        version = found(version, "Bot version", version_id)
        bot_services.bot_version_resume(version=version, user=request.user)
        version = selectors.bot_version_get(version_id=version_id, user=request.user)
        return Response(s.BotVersionOutput(version, context={"request": request}).data)


class BotVersionDetailApi(APIView):
    @extend_schema(responses=s.BotVersionOutput)
    def get(self, request: Request, version_id: int) -> Response:
        version = selectors.bot_version_get(version_id=version_id, user=request.user)
        version = found(version, "Bot version", version_id)
        return Response(s.BotVersionOutput(version, context={"request": request}).data)


# --- leagues --------------------------------------------------------------------------------


def _league(request: Request, league_id: int):  # noqa: ANN202
    league = selectors.league_get(league_id=league_id, user=request.user)
    return found(league, "League", league_id)


class LeagueListApi(FilteredListApi):
    filterset_class = LeagueFilter

    @extend_schema(responses=s.LeagueOutput(many=True))
    def get(self, request: Request) -> Response:
        leagues = selectors.league_list(user=request.user)
        return paginated(request, self, leagues, s.LeagueOutput,
                         page_context=lambda page: {"rest_states": ladder_rest_states(page)})

    @extend_schema(request=s.LeagueInput, responses={201: s.LeagueOutput})
    def post(self, request: Request) -> Response:
        league_services.league_create_check(user=request.user)  # before the fields
        data = s.LeagueInput(data=request.data)
        data.is_valid(raise_exception=True)
        fields = dict(data.validated_data)
        bracket = {k: fields.pop(k) for k in BRACKET_FIELDS if k in fields}
        taken = formats.get(fields["format"]).settings_fields
        if any(k not in taken and k != "seeding" for k in bracket):  # seeding: its default
            raise ValidationFailed(
                f"{field_labels.labels(sorted(bracket))}: only for the elimination and knockout "
                "formats.",
                fields={k: ["bracket formats only"] for k in bracket},
            )
        own = {k: v for k, v in bracket.items() if k in taken}
        league = league_services.league_create(organiser=request.user, format_settings=own,
                                               **fields)  # fmt: skip
        return Response(s.LeagueDetailOutput(league).data, status=201)


class LeagueDetailApi(APIView):
    @extend_schema(responses=s.LeagueDetailOutput)
    def get(self, request: Request, league_id: int) -> Response:
        return Response(s.LeagueDetailOutput(_league(request, league_id)).data)

    @extend_schema(request=s.LeagueUpdateInput, responses=s.LeagueOutput)
    def patch(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        league_services.league_organiser_check(league=league, user=request.user)
        data = s.LeagueUpdateInput(data=request.data)
        data.is_valid(raise_exception=True)
        changes = dict(data.validated_data)
        if "ladder_order" in changes:
            league = league_services.league_set_ladder_order(
                league=league, user=request.user, ladder_order=changes.pop("ladder_order")
            )
        if changes:
            league = event_services.league_event_update(league=league, user=request.user,
                                                        **changes)  # fmt: skip
        return Response(s.LeagueOutput(league).data)


class LeagueEntryApi(ListApi):
    @extend_schema(responses=s.EntryOutput(many=True))
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        entries = league.entries.select_related("bot_version__bot").order_by("pk")
        return paginated(request, self, entries, s.EntryOutput)

    @extend_schema(request=s.EntryInput, responses={201: s.EntryOutput})
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        data = s.EntryInput(data=request.data)
        data.is_valid(raise_exception=True)
        entry = league_services.league_entry_add(
            league=league, user=request.user, bot_id=data.validated_data.get("bot"),
            bot_version_id=data.validated_data.get("bot_version"),
        )  # fmt: skip
        return Response(s.EntryOutput(entry).data, status=201)


class LeagueInvitationApi(ListApi):
    @extend_schema(responses=s.InvitationOutput(many=True))
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        invitations = selectors.league_invitations(league=league, user=request.user)
        return paginated(request, self, invitations, s.InvitationOutput)

    @extend_schema(request=s.InvitationInput, responses={201: s.InvitationOutput})
    def post(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        league_services.league_organiser_check(league=league, user=request.user)
        data = s.InvitationInput(data=request.data)
        data.is_valid(raise_exception=True)
        invitation = league_services.league_invite(
            league=league, user=request.user, username=data.validated_data["user"]
        )
        return Response(s.InvitationOutput(invitation).data, status=201)


class _LeagueActionApi(APIView):
    service = staticmethod(league_services.league_start)

    @extend_schema(request=None, responses=s.LeagueOutput)
    def post(self, request: Request, league_id: int) -> Response:
        league = self.service(league=_league(request, league_id), user=request.user)
        league.refresh_from_db()
        return Response(s.LeagueOutput(league).data)


class LeagueStartApi(_LeagueActionApi):
    service = staticmethod(league_services.league_start)


class LeaguePauseApi(_LeagueActionApi):
    service = staticmethod(league_services.league_pause)


class LeagueCloseApi(_LeagueActionApi):
    service = staticmethod(league_services.league_close)


class LeagueLadderApi(APIView):
    @extend_schema(
        responses=s.LadderPageOutput,
        parameters=[
            OpenApiParameter("page", int, description="A page number within the ladder."),
            OpenApiParameter(
                "order", str, enum=League.LadderOrder.values,
                description="What ranks the ladder (default: the league's ladder_order).",
            ),
            OpenApiParameter(
                "tier", str, description="Only the entrants of this boss league (wood, bronze, "
                "..., or unranked); their ranks are those of the whole ladder.",
            ),
        ],
    )  # fmt: skip
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        tier = boss_selectors.tier_param(request.query_params.get("tier"), mode=league.mode)
        order = request.query_params.get("order")
        if order is not None and order not in League.LadderOrder.values:
            raise ValidationFailed(
                f"order must be one of {', '.join(League.LadderOrder.values)}.",
                fields={"order": [order]},
            )
        rows = selectors.league_ladder(league=league, order=order)  # ranked whole, then paged
        rows = boss_selectors.with_tiers(rows, mode=league.mode, tier=tier)
        context = {"solo": league.mode == "solo"}
        extra = {"league": s.LeagueOutput(league).data}
        return paginated(request, self, rows, s.LadderRowOutput, context=context, extra=extra)


class LeagueBracketApi(APIView):
    @extend_schema(responses=OpenApiResponse(description="The bracket: sections of columns of "
                   "series, each with its slots, points, winner and match ids."))  # fmt: skip
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        view = bracket_selectors.bracket_view(league=league)
        if view is None:
            raise NotFound(f"League {league_id} is a {league.format}, not a bracket.")
        return Response(bracket_data(view))


class LeagueHistoryApi(FilteredListApi):
    filterset_class = RatingChangeFilter

    @extend_schema(responses=s.RatingChangeOutput(many=True))
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        history = selectors.league_rating_history(league=league)
        return paginated(request, self, history, s.RatingChangeOutput)


# --- matches --------------------------------------------------------------------------------

BEFORE = OpenApiParameter(
    "before", int,
    description="Keyset paging: the matches after this match id, newest first, at any depth "
    "(`next` continues from the page's last match). The list is never counted: `count` is "
    "null, and `page` numbers still work.",
)  # fmt: skip


class MatchListApi(FilteredListApi):
    throttle_classes = [MatchRequestThrottle]
    filterset_class = MatchFilter
    pagination_class = NewestFirstPagination

    @extend_schema(responses=s.MatchSummaryOutput(many=True), parameters=[BEFORE])
    def get(self, request: Request) -> Response:
        matches = selectors.visible_matches(user=request.user)
        return newest_first_paginated(request, self, matches, s.MatchSummaryOutput)

    @extend_schema(request=s.MatchInput, responses={201: s.MatchOutput})
    def post(self, request: Request) -> Response:
        return _challenge_create(request, s.MatchInput)


def _challenge_create(request: Request, serializer: type) -> Response:
    data = serializer(data=request.data)
    data.is_valid(raise_exception=True)
    match = challenge_services.challenge_create(
        user=request.user, mode=data.validated_data["mode"],
        options=data.validated_data["options"],
        bot_version_ids=data.validated_data["bot_versions"],
        seats=data.validated_data.get("seats"),
    )  # fmt: skip
    match = selectors.match_get(match_id=match.pk, user=request.user)
    return Response(s.MatchOutput(match, context={"request": request}).data, status=201)


class ChallengeListApi(FilteredListApi):
    """Challenge matches: unrated games between any ready versions, limited per user."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [MatchRequestThrottle]
    filterset_class = MatchFilter
    pagination_class = NewestFirstPagination

    @extend_schema(responses=s.MatchSummaryOutput(many=True), parameters=[BEFORE])
    def get(self, request: Request) -> Response:
        matches = selectors.challenge_list(user=request.user)
        return newest_first_paginated(request, self, matches, s.MatchSummaryOutput)

    @extend_schema(
        request=s.ChallengeInput,
        responses={
            201: s.MatchOutput,
            429: OpenApiResponse(description="Over the user's challenge limits."),
        },
        parameters=[OpenApiParameter(
            "Retry-After", int, OpenApiParameter.HEADER, response=[429],
            description="429: seconds until the user may request a challenge again",
        )],
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        return _challenge_create(request, s.ChallengeInput)


class TestGameListApi(FilteredListApi):
    """Test games: the author's own version, or a bot's workshop draft as it is, played now,
    privately and unrated, in the workshop lane (tournament/services/test_games.py)."""

    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [MatchRequestThrottle]
    filterset_class = MatchFilter
    pagination_class = NewestFirstPagination

    @extend_schema(responses=s.MatchSummaryOutput(many=True), parameters=[BEFORE])
    def get(self, request: Request) -> Response:
        matches = selectors.test_game_list(user=request.user)
        return newest_first_paginated(request, self, matches, s.MatchSummaryOutput)

    @extend_schema(
        request=s.TestGameInput,
        responses={
            201: s.TestGameOutput,
            429: OpenApiResponse(description="Over the author's test-game caps (in words)."),
        },
        parameters=[OpenApiParameter(
            "Retry-After", int, OpenApiParameter.HEADER, response=[429],
            description="429: seconds until the author may request a test game again",
        )],
    )  # fmt: skip
    def post(self, request: Request) -> Response:
        data = s.TestGameInput(data=request.data)
        data.is_valid(raise_exception=True)
        given = data.validated_data
        game = {"opponents": given["opponents"], "mode": given["mode"], "options": given["options"],
                "seats": given.get("seats"), "seed": given.get("seed")}  # fmt: skip
        if "draft" in given:
            bot = found(selectors.bot_get(bot_id=given["draft"]), "Bot", given["draft"])
            match = test_game_services.test_game_of_draft(user=request.user, bot=bot, **game)
        else:
            match = test_game_services.test_game_create(
                user=request.user, bot_version_id=given["bot_version"], **game
            )
        return Response(_test_game_output(request, match.pk), status=201)


class TestGameDetailApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=s.TestGameOutput)
    def get(self, request: Request, match_id: int) -> Response:
        return Response(_test_game_output(request, match_id))


def _test_game_output(request: Request, match_id: int) -> dict[str, Any]:
    match = selectors.match_get(match_id=match_id, user=request.user)
    if match is None or match.kind != Match.Kind.TEST:
        raise NotFound(f"No test game {match_id}.")
    return s.TestGameOutput(match, context={"request": request}).data


class MatchDetailApi(APIView):
    @extend_schema(responses=s.MatchOutput)
    def get(self, request: Request, match_id: int) -> Response:
        match = found(selectors.match_get(match_id=match_id, user=request.user), "Match", match_id)
        return Response(s.MatchOutput(match, context={"request": request}).data)


# --- head-to-head ---------------------------------------------------------------------------


class LeagueHeadToHeadApi(APIView):
    @extend_schema(responses=s.LeagueHeadToHeadOutput)
    def get(self, request: Request, league_id: int) -> Response:
        league = _league(request, league_id)
        table = selectors.league_head_to_head(league=league)
        records = []
        for entry, cells in table:
            for record in cells:
                if record is not None and record.games:
                    record.subject_entry = entry
                    records.append(record)
        body = {"league": league.pk, "entrants": [e for e, _ in table], "records": records}
        return Response(s.LeagueHeadToHeadOutput(body).data)


class BotHeadToHeadApi(APIView):
    @extend_schema(
        responses=s.BotHeadToHeadOutput,
        parameters=[OpenApiParameter("league", int, description="Only matches of this league.")],
    )
    def get(self, request: Request, bot_id: int) -> Response:
        bot = found(selectors.bot_get(bot_id=bot_id), "Bot", bot_id)
        league = None
        if "league" in request.query_params:
            league_id = _int_param(request, "league")
            league = _league(request, league_id)
        records = selectors.bot_head_to_head(bot=bot, user=request.user, league=league)
        body = {"bot": bot.pk, "league": league.pk if league else None, "opponents": records}
        return Response(s.BotHeadToHeadOutput(body).data)


def _int_param(request: Request, name: str) -> int:
    raw = request.query_params.get(name, "")
    if not raw.isdigit():
        raise ValidationFailed(f"{name} must be a positive integer.", fields={name: [raw]})
    return int(raw)


# --- paired comparisons ---------------------------------------------------------------------


class PairedListApi(FilteredListApi):
    throttle_classes = [MatchRequestThrottle]
    filterset_class = PairedFilter

    @extend_schema(responses=s.PairedOutput(many=True))
    def get(self, request: Request) -> Response:
        return paginated(request, self, selectors.paired_list(), s.PairedOutput)

    @extend_schema(request=s.PairedInput, responses={201: s.PairedOutput})
    def post(self, request: Request) -> Response:
        data = s.PairedInput(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        comparison = paired_services.paired_create(
            user=request.user, version_a_id=v["bot_version_a"], version_b_id=v["bot_version_b"],
            mode=v["mode"], seats=v["seats"], seeds=v["seeds"], options=v["options"],
            opponent_ids=v.get("opponents"), elo0=v["elo0"], elo1=v["elo1"], alpha=v["alpha"],
            beta=v["beta"],
        )  # fmt: skip
        comparison = selectors.paired_get(comparison_id=comparison.pk)
        return Response(s.PairedOutput(comparison).data, status=201)


class PairedDetailApi(APIView):
    @extend_schema(responses=s.PairedOutput)
    def get(self, request: Request, comparison_id: int) -> Response:
        comparison = selectors.paired_get(comparison_id=comparison_id)
        return Response(s.PairedOutput(found(comparison, "Paired comparison", comparison_id)).data)
