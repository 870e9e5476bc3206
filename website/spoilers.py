"""The visitor's spoiler setting: lists (the home page's, a league's and the site's match
lists, a bot's page) hide winners and scores until asked for. On by default.

The setting is a cookie, ``spoilers=shown`` to show results, read when the page is drawn (the
``<html>`` class ``spoilers-hidden`` or ``spoilers-shown``; site.css hides ``.spoiler`` in the
first), so it works without JavaScript; the page cache keys its entries by it
(tournament/page_cache.py). The toggle is a plain link to ``/spoilers/`` (it sets the cookie and
comes back); site.js flips it in place instead. Ladders, ratings and the match page's own
folded result are not lists of results, and stay as they are."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme

from tournament.page_cache import SPOILERS_COOKIE

SHOWN = "shown"
ONE_YEAR = 365 * 24 * 3600


def spoilers_shown(request: HttpRequest | None) -> bool:
    return request is not None and request.COOKIES.get(SPOILERS_COOKIE) == SHOWN


def spoilers_toggle(request: HttpRequest) -> HttpResponse:
    """``/spoilers/?show=1&next=/path``: remember the choice, go back to the page."""
    target = request.GET.get("next") or "/"
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = "/"
    response = HttpResponseRedirect(target)
    if request.GET.get("show") == "1":
        response.set_cookie(SPOILERS_COOKIE, SHOWN, max_age=ONE_YEAR, samesite="Lax")
    else:
        response.delete_cookie(SPOILERS_COOKIE, samesite="Lax")
    return response
