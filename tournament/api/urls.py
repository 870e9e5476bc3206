"""URLs of API v1 (mounted at /api/v1/)."""

from django.urls import path

from ..page_cache import cached_page
from . import drafts as draft_views
from . import events as event_views
from . import protocol
from . import views as v
from .analysis import MatchAnalysisApi
from .token import TokenLoginApi

# Anonymous reads of these are served from the page cache (tournament/page_cache.py).
league_detail = cached_page(v.LeagueDetailApi.as_view())
league_ladder = cached_page(v.LeagueLadderApi.as_view())

urlpatterns = [
    path("accounts/", v.AccountCreateApi.as_view(), name="account-create"),
    path("accounts/me/", v.AccountMeApi.as_view(), name="account-me"),
    path("auth/token/", TokenLoginApi.as_view(), name="auth-token"),
    path("bots/", cached_page(v.BotListApi.as_view()), name="bot-list"),
    path("bots/<int:bot_id>/", cached_page(v.BotDetailApi.as_view()), name="bot-detail"),
    path("bots/<int:bot_id>/retire/", v.BotRetireApi.as_view(), name="bot-retire"),
    path("bots/<int:bot_id>/versions/", v.BotVersionListApi.as_view(), name="bot-versions"),
    path("bots/<int:bot_id>/draft/", draft_views.BotDraftApi.as_view(), name="bot-draft"),
    path("bots/<int:bot_id>/draft/submit/", draft_views.BotDraftSubmitApi.as_view(),
         name="bot-draft-submit"),
    path("bot-versions/<int:version_id>/", v.BotVersionDetailApi.as_view(), name="bot-version"),
    path("bot-versions/<int:version_id>/resume/", v.BotVersionResumeApi.as_view(),
         name="bot-version-resume"),
    path("leagues/", cached_page(v.LeagueListApi.as_view()), name="league-list"),
    path("leagues/<int:league_id>/", league_detail, name="league-detail"),
    path("leagues/<int:league_id>/entries/", v.LeagueEntryApi.as_view(), name="league-entries"),
    path(
        "leagues/<int:league_id>/invitations/",
        v.LeagueInvitationApi.as_view(),
        name="league-invitations",
    ),
    path("leagues/<int:league_id>/start/", v.LeagueStartApi.as_view(), name="league-start"),
    path("leagues/<int:league_id>/pause/", v.LeaguePauseApi.as_view(), name="league-pause"),
    path("leagues/<int:league_id>/close/", v.LeagueCloseApi.as_view(), name="league-close"),
    path("leagues/<int:league_id>/ladder/", league_ladder, name="league-ladder"),
    path("leagues/<int:league_id>/bracket/", cached_page(v.LeagueBracketApi.as_view()),
         name="league-bracket"),
    path("leagues/<int:league_id>/standings/",
         cached_page(event_views.LeagueStandingsApi.as_view()), name="league-standings"),
    path("leagues/<int:league_id>/entries/<int:entry_id>/",
         event_views.LeagueEntryDetailApi.as_view(), name="league-entry"),
    path("leagues/<int:league_id>/history/", v.LeagueHistoryApi.as_view(), name="league-history"),
    path("protocol/schema", protocol.ProtocolSchemaApi.as_view(), name="protocol-schema"),
    path("protocol/game-data", protocol.ProtocolGameDataApi.as_view(),
         name="protocol-game-data"),
    path("challenges/", v.ChallengeListApi.as_view(), name="challenge-list"),
    path("test-games/", v.TestGameListApi.as_view(), name="test-game-list"),
    path("test-games/<int:match_id>/", v.TestGameDetailApi.as_view(), name="test-game-detail"),
    path(
        "leagues/<int:league_id>/head-to-head/",
        v.LeagueHeadToHeadApi.as_view(),
        name="league-head-to-head",
    ),
    path("bots/<int:bot_id>/head-to-head/", v.BotHeadToHeadApi.as_view(), name="bot-head-to-head"),
    path("paired/", v.PairedListApi.as_view(), name="paired-list"),
    path("paired/<int:comparison_id>/", v.PairedDetailApi.as_view(), name="paired-detail"),
    path("matches/", cached_page(v.MatchListApi.as_view()), name="match-list"),
    path("matches/<int:match_id>/", v.MatchDetailApi.as_view(), name="match-detail"),
    path("matches/<int:match_id>/analysis/", MatchAnalysisApi.as_view(), name="match-analysis"),
]
