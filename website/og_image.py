"""The match page's link preview (``og:image``, ``twitter:card``): the server-drawn picture of
the step the address names (``?step=K``), else of the last step."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.urls import reverse

from replays.stored_images import match_last_frame


def og_image_context(request: HttpRequest, match: Any) -> dict[str, Any]:
    """``og_image`` (an absolute URL) and its alt text, or nothing for a match without a
    replay."""
    last = match_last_frame(match)
    if last is None:
        return {}
    try:
        step = min(max(0, int(request.GET.get("step", last))), last)
    except (TypeError, ValueError):
        step = last
    url = request.build_absolute_uri(reverse("replays:step-png", args=[match.pk, step]))
    return {"og_image": url,
            "og_image_alt": f"The boats and scores of match {match.pk} ({match.mode}) at step "
                            f"{step} of {last}"}
