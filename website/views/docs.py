"""The project's documents (docs/*.md) rendered on the site, so that authors read the bot
protocol and what it links to without leaving it: /docs/protocol/ is docs/bot-protocol.md,
/docs/<name>/ any other docs/<name>.md.

Links between the documents are written for the repository (`cli.md`, `protocol-schema/`);
on the site they are rewritten to the pages that serve them: a document's page, and the JSON
Schema at the API's live endpoint (the same documents as docs/protocol-schema/).
tests/website/test_docs_links.py follows every link of every page and gets 200.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import markdown
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe

from engine import available_modes

DOCS = Path(settings.BASE_DIR) / "docs"
PROTOCOL = "bot-protocol"  # served at /docs/protocol/, the address the site always had
TITLES = {PROTOCOL: "Bot protocol"}
_NAME = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_HREF = re.compile(r'href="([^"]*)"')


def doc_url(name: str) -> str:
    if name == PROTOCOL:
        return reverse("website:protocol")
    return reverse("website:doc", args=[name])


def _rewrite(href: str) -> str:
    """A repository-relative link as the site serves it; others are left as they are."""
    if re.match(r"^([a-z][a-z0-9+.-]*:|/|#)", href):  # absolute, rooted or in-page
        return href
    path, _, fragment = href.partition("#")
    anchor = f"#{fragment}" if fragment else ""
    schema = re.fullmatch(r"protocol-schema/(?:([a-z-]+)\.schema\.json)?", path)
    if schema:  # a mode's document, or one shared by every mode's (game-data): the whole schema
        url = reverse("protocol-schema")
        return f"{url}?mode={schema[1]}" if schema[1] in available_modes() else url
    if path.endswith(".md") and (DOCS / path).is_file() and _NAME.match(path[:-3]):
        return doc_url(path[:-3]) + anchor
    return href


@lru_cache(maxsize=32)
def _render(path: Path, mtime: float) -> str:
    text = path.read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "fenced_code", "toc"])
    html = _HREF.sub(lambda m: f'href="{_rewrite(m[1])}"', html)
    # Wide tables scroll on a phone; a scrolling region must be reachable by keyboard.
    return html.replace(
        "<table>", '<div class="scroll" tabindex="0" role="region" aria-label="table"><table>'
    ).replace("</table>", "</table></div>").replace("<pre>", '<pre tabindex="0">')


def _page(request: HttpRequest, name: str) -> HttpResponse:
    path = DOCS / f"{name}.md"
    if not _NAME.match(name) or not path.is_file():
        raise Http404(f"No document {name}.")
    html = _render(path, path.stat().st_mtime)
    title = TITLES.get(name) or _first_heading(path) or name
    return render(request, "website/doc.html", {"title": title, "html": mark_safe(html)})  # noqa: S308 - our own docs


def _first_heading(path: Path) -> str | None:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    return None


def protocol(request: HttpRequest) -> HttpResponse:
    return _page(request, PROTOCOL)


def document(request: HttpRequest, name: str) -> HttpResponse:
    if name == PROTOCOL:
        return redirect("website:protocol", permanent=True)
    return _page(request, name)
