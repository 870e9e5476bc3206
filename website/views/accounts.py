"""Sign-up and the account page (API token). Log in/out and password change/reset are
Django's own views, rendered with the site's templates (website/templates/registration); the
reset's confirmation also makes its address one the account knows (login throttle)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from tournament.client_address import client_address
from tournament.errors import ArenaError, RateLimited
from tournament.services import accounts
from tournament.services.leagues import is_organiser
from tournament.services.login_throttle import login_success_record

from ..forms import SignupForm, add_service_error


def _next_url(request: HttpRequest) -> str:
    """Where to go after signing up: the page the user came from, else the dashboard."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return "website:dashboard"


def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("website:dashboard")
    form = SignupForm(request.POST or None)
    status, retry_after = 200, None
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        try:
            user = accounts.account_create(
                username=d["username"], email=d["email"], password=d["password1"],
                address=client_address(request),
            )  # fmt: skip
        except RateLimited as exc:  # too many sign-ups from this address: 429, as the API
            add_service_error(form, exc)
            status, retry_after = exc.status, exc.retry_after
        except ArenaError as exc:
            add_service_error(form, exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return redirect(_next_url(request))
    response = render(request, "registration/signup.html", {
        "form": form, "next": request.GET.get("next", ""),
    }, status=status)  # fmt: skip
    if retry_after is not None:
        response["Retry-After"] = str(retry_after)
    return response


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return render(request, "website/account.html", {
        "token": accounts.api_token_get(user=request.user),
        "is_organiser": is_organiser(request.user),
    })  # fmt: skip


@login_required
@require_POST
def token_regenerate(request: HttpRequest) -> HttpResponse:
    accounts.api_token_regenerate(user=request.user)

    messages.success(request, "A new API token was made; the old one no longer works.")
    return redirect("website:account")


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's, and the address that has just proved the mailbox becomes one the account
    knows: while its account is under a guessing attack, the owner logs in from there without
    waiting their turn (tournament/services/login_throttle.py)."""

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        login_success_record(username=form.user.get_username(),
                             address=client_address(self.request))  # fmt: skip
        return response


class LogoutView(auth_views.LogoutView):
    """Django's logout, which acts only on a POST (a link must not log anyone out), plus a
    page for a GET (a typed or bookmarked /accounts/logout/) with the button that does it."""

    http_method_names = ["get", "post", "options"]

    def get(self, request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        return render(request, "registration/logout.html")
