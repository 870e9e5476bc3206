"""URLs of the site's pages (mounted at the root, before the replays app's endpoints)."""

from django.contrib.auth import views as auth_views
from django.templatetags.static import static
from django.urls import path, reverse_lazy
from django.views.generic import RedirectView

from replays.views import match_embed
from tournament.get_only import get_only
from tournament.page_cache import cached_page

from .spoilers import spoilers_toggle
from .views import (
    accounts,
    analysis,
    authors,
    brackets,
    docs,
    events,
    organisers,
    paired,
    public,
    starter,
    workshop,
)

app_name = "website"

_reset_done = reverse_lazy("website:password_reset_done")



class FaviconRedirect(RedirectView):
    """/favicon.ico, which a browser asks for on any page that names no icon (the API's
    pages, a JSON answer opened as a page): the site's own icon, from its static files."""

    permanent = True

    def get_redirect_url(self, *args: object, **kwargs: object) -> str:
        return static("website/favicon.svg")


urlpatterns = [
    path("favicon.ico", FaviconRedirect.as_view(), name="favicon"),
    path("", get_only(public.home), name="home"),
    path("spoilers/", get_only(spoilers_toggle), name="spoilers"),
    path("docs/protocol/", get_only(docs.protocol), name="protocol"),
    path("write-a-bot/", get_only(starter.write_a_bot), name="write-a-bot"),
    path("write-a-bot/<slug:slug>.zip", get_only(starter.starter_kit), name="starter-kit"),
    path("docs/<slug:name>/", get_only(docs.document), name="doc"),
    # accounts: Django's views with the site's templates
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True),
         name="login"),
    path("accounts/logout/", accounts.LogoutView.as_view(), name="logout"),
    path("accounts/password/change/", auth_views.PasswordChangeView.as_view(
        success_url=reverse_lazy("website:password_change_done")), name="password_change"),
    path("accounts/password/change/done/", auth_views.PasswordChangeDoneView.as_view(),
         name="password_change_done"),
    path("accounts/password/reset/", auth_views.PasswordResetView.as_view(
        success_url=_reset_done), name="password_reset"),
    path("accounts/password/reset/sent/", auth_views.PasswordResetDoneView.as_view(),
         name="password_reset_done"),
    path("accounts/password/reset/<uidb64>/<token>/", accounts.PasswordResetConfirmView.as_view(
        success_url=reverse_lazy("website:password_reset_complete")),
         name="password_reset_confirm"),
    path("accounts/password/reset/complete/", auth_views.PasswordResetCompleteView.as_view(),
         name="password_reset_complete"),
    path("accounts/", get_only(accounts.account), name="account"),
    path("accounts/token/", accounts.token_regenerate, name="token-regenerate"),
    # authors
    path("dashboard/", get_only(authors.dashboard), name="dashboard"),
    path("bots/", get_only(cached_page(public.bot_list)), name="bots"),
    path("bots/new/", authors.bot_create, name="bot-new"),
    path("bots/<int:bot_id>/", get_only(cached_page(public.bot_detail)), name="bot"),
    path("bots/<int:bot_id>/upload/", authors.bot_upload, name="bot-upload"),
    path("bots/<int:bot_id>/retire/", authors.bot_retire, name="bot-retire"),
    path("workshop/", workshop.workshop, name="workshop"),
    path("workshop/<int:bot_id>/", workshop.workshop_bot, name="workshop-bot"),
    path("workshop/<int:bot_id>/kit/", workshop.workshop_kit, name="workshop-kit"),
    path("workshop/<int:bot_id>/submit/", workshop.workshop_submit, name="workshop-submit"),
    path("workshop/<int:bot_id>/play/", workshop.workshop_play, name="workshop-play"),
    path("versions/<int:version_id>/", get_only(public.version_detail), name="version"),
    path("versions/<int:version_id>/status/", get_only(public.version_status),
         name="version-status"),
    path("versions/<int:version_id>/resume/", authors.version_resume, name="version-resume"),
    path("entries/", authors.league_enter, name="enter"),
    path("challenge/", authors.challenge, name="challenge"),
    path("paired/new/", paired.paired_new, name="paired-new"),
    path("paired/<int:comparison_id>/", get_only(paired.paired_detail), name="paired"),
    # leagues
    path("leagues/", get_only(cached_page(public.league_list)), name="leagues"),
    path("leagues/new/", organisers.league_create, name="league-new"),
    path("leagues/<int:league_id>/", get_only(cached_page(public.league_detail)), name="league"),
    path("leagues/<int:league_id>/bracket/", get_only(cached_page(brackets.league_bracket)),
         name="league-bracket"),
    path("leagues/<int:league_id>/invite/", organisers.league_invite, name="league-invite"),
    path("leagues/<int:league_id>/entries/add/", events.league_entry_add, name="league-entry-add"),
    path("leagues/<int:league_id>/entries/<int:entry_id>/remove/", events.league_entry_remove,
         name="league-entry-remove"),
    path("leagues/<int:league_id>/order/", organisers.league_order, name="league-order"),
    *[
        path(f"leagues/<int:league_id>/{action}/", organisers.league_action, {"action": action},
             name=f"league-{action}")
        for action in organisers.ACTIONS
    ],
    path("leagues/<int:league_id>/close/", organisers.league_close, name="league-close"),
    # matches
    path("matches/", get_only(cached_page(public.match_list)), name="matches"),
    path("matches/<int:match_id>/", get_only(public.match_detail), name="match"),
    path("matches/<int:match_id>/analysis/", analysis.match_analysis, name="match-analysis"),
    path("matches/<int:match_id>/analysis/seat/<int:seat>/", analysis.seat_review,
         name="seat-review"),
    # the viewer alone, for other sites' iframes (the only route that may be framed)
    path("embed/matches/<int:match_id>/", get_only(match_embed), name="match-embed"),
]
