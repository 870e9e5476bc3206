"""The site asks for a paired comparison through the same service as the API
(tournament/services/paired.py: unrated games on the ordinary workers, limited per user)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from tournament import selectors
from tournament.errors import ArenaError
from tournament.services import paired as paired_services

from ..forms import PairedForm, add_service_error


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
            bot_id = comparison.version_b.bot_id
            return redirect(reverse("website:bot", args=[bot_id]) + "#paired-title")
    return render(request, "website/paired_new.html", {"form": form})
