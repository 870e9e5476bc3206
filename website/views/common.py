"""Small helpers every view module shares: pagination (numbered pages, and the match lists'
newest-first pages that never count) and the page size."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpRequest

from tournament.match_summaries import summaries
from tournament.paging import PageNotFound, newest_first

from ..match_rows import MatchRow, match_rows

PER_PAGE = 25


def paginate(
    request: HttpRequest, items: Any, per_page: int | None = None, param: str = "page"
) -> Page:
    """One page of a list; ?page= out of range gives the last page, not an error."""
    return Paginator(items, per_page or PER_PAGE).get_page(request.GET.get(param))


def int_param(request: HttpRequest, name: str) -> int | None:
    """An optional integer query parameter; a malformed one is a 404 (a bad link)."""
    value = request.GET.get(name, "").strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError:
        raise Http404(f"{name} must be a number.") from None


def found(obj: Any, what: str, key: Any) -> Any:
    if obj is None:
        raise Http404(f"No {what} {key}.")
    return obj


@dataclass(frozen=True)
class MatchPage:
    """A page of a match table (`_matches.html`, `_newest_pager.html`): its rows and the
    links to the newest, newer and older pages (query strings that keep the filters)."""

    rows: list[MatchRow]
    number: int | None  # when asked by ?page=N
    newest_query: str | None
    newer_query: str | None
    older_query: str | None


def match_page(
    request: HttpRequest, matches: QuerySet, *, scope: QuerySet | None = None,
    per_page: int | None = None,
) -> MatchPage:
    """One page of `matches` (filters applied) newest first, from ?before=, ?after= or ?page=
    (tournament.paging: the same cost at any depth, no COUNT). An anchor must be one of the
    `scope` rows (what the reader may see); a bad one or a page past the end is a 404."""
    before, after = int_param(request, "before"), int_param(request, "after")
    number = int_param(request, "page")
    try:
        page = newest_first(matches, size=per_page or PER_PAGE, before=before, after=after,
                            page=number, scope=scope)  # fmt: skip
    except PageNotFound:
        raise Http404("No such page of matches.") from None
    query = request.GET.copy()
    for key in ("page", "before", "after"):
        query.pop(key, None)
    kept = query.urlencode()

    def link(key: str, value: int) -> str:
        return f"?{kept}&{key}={value}" if kept else f"?{key}={value}"

    return MatchPage(
        rows=match_rows(summaries(page.ids)), number=page.number,
        newest_query=(f"?{kept}" if kept else "?") if page.has_newer else None,
        newer_query=link("after", page.newer_anchor) if page.newer_anchor else None,
        older_query=link("before", page.older_anchor) if page.older_anchor else None,
    )  # fmt: skip
