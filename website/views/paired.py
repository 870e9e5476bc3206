"""The site asks for a paired comparison through the same service as the API
(tournament/services/paired.py: unrated games on the ordinary workers, limited per user)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from tournament import selectors
from tournament.errors import ArenaError
from tournament.services import paired as paired_services

from .. import charts
from ..forms import PairedForm, add_service_error


def paired_detail(request: HttpRequest, comparison_id: int) -> HttpResponse:
    """One comparison: its verdict, the figures, and the LLR's course as a chart. Public, like
    the API's `GET /paired/{id}/` (the result holds no bot's private output)."""
    comparison = selectors.paired_get(comparison_id=comparison_id)
    if comparison is None:
        raise Http404("No such comparison.")
    result = comparison.result or {}
    return render(request, "website/paired.html", {
        "c": comparison, "r": result, "sprt": "llr" in result,
        "elo": {k: _signed(result.get(k), k) for k in ("elo", "elo_low", "elo_high")},
        "chart": charts.llr_chart(result),
    })  # fmt: skip


def _signed(value: float | None, key: str) -> str:
    """An Elo figure with its sign; a missing end of the interval is infinite."""
    if value is None:
        return "−∞" if key == "elo_low" else "+∞"
    return f"{value:+.1f}".replace("-", "−")


@login_required
def paired_new(request: HttpRequest) -> HttpResponse:
    """`?bot_version=` preselects version B (the bot page's link); A defaults to the version
    before it when there is one."""
    versions = selectors.challenge_versions()
    initial = {"mode": "duel", "seats": 2, "seeds": 20}
    chosen = request.GET.get("bot_version", "")
    if chosen.isdigit():
        b = versions.filter(pk=int(chosen)).first()
        if b is not None:
            initial["version_b"] = b.pk
            before = versions.filter(bot=b.bot, number__lt=b.number).first()
            initial["version_a"] = before.pk if before else None
    form = PairedForm(request.POST or None, versions=versions, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            comparison = paired_services.paired_create(user=request.user, **form.service_kwargs())
        except ArenaError as exc:
            add_service_error(form, exc)
        else:
            return redirect(reverse("website:paired", args=[comparison.pk]))
    return render(request, "website/paired_new.html", {"form": form})
