"""The "Write a bot" page: the starter kits to download (each an upload bundle), the CLI's
set-up and commands, the protocol, and the open ladders a new bot can enter at once."""

from __future__ import annotations

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from tournament.errors import NotFound
from tournament.ladder_rest import open_ladders
from tournament.services.starter_kits import KitUnavailable, starter_kit_zip, starter_kits


def _site(request: HttpRequest) -> str:
    return request.build_absolute_uri("/").rstrip("/")


def write_a_bot(request: HttpRequest) -> HttpResponse:
    return render(request, "website/write_a_bot.html", {
        "kits": starter_kits(),
        "site": _site(request),
        "ladders": open_ladders(user=request.user),
        "repository": settings.SOURCE_REPOSITORY_URL,
    })  # fmt: skip


def starter_kit(request: HttpRequest, slug: str) -> HttpResponse:
    """The kit's zip as a download; a kit this server cannot build is a 503 with the reason."""
    try:
        kit, data = starter_kit_zip(slug, site=_site(request))
    except NotFound as exc:
        raise Http404(exc.message) from None
    except KitUnavailable as exc:
        return HttpResponse(exc.message, status=exc.status, content_type="text/plain")
    response = HttpResponse(data, content_type="application/zip")
    response["Content-Disposition"] = f'attachment; filename="{kit.filename}"'
    response["Content-Length"] = str(len(data))
    return response
