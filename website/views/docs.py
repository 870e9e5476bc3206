"""The bot protocol, rendered from docs/bot-protocol.md, so authors read it on the site."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.safestring import mark_safe

PROTOCOL = Path(settings.BASE_DIR) / "docs" / "bot-protocol.md"


@lru_cache(maxsize=4)
def _render(path: Path, mtime: float) -> str:
    import markdown

    text = path.read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "fenced_code", "toc"])
    # Wide tables scroll on a phone; a scrolling region must be reachable by keyboard.
    return html.replace(
        "<table>", '<div class="scroll" tabindex="0" role="region" aria-label="table"><table>'
    ).replace("</table>", "</table></div>").replace("<pre>", '<pre tabindex="0">')


def protocol(request: HttpRequest) -> HttpResponse:
    html = _render(PROTOCOL, PROTOCOL.stat().st_mtime)
    return render(request, "website/doc.html", {"title": "Bot protocol", "html": mark_safe(html)})  # noqa: S308 - our own docs
