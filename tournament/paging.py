"""Pages of a newest-first list (matches: `-created_at, -id`) that cost the same at any depth
and never count the whole list.

A page is a list of ids, read through the `(created_at, id)` index: after an anchor row
(`before=<id>`, older rows), before one (`after=<id>`, newer rows) or by number (an OFFSET over
ids alone, which the covering index answers without reading the table). The caller fetches the
rows of those ids (`match_summaries.summaries`). Nothing here counts: a page knows whether
older and newer rows exist, which is what "older" and "newer" links need.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

NEWEST_FIRST = ("-created_at", "-id")
OLDEST_FIRST = ("created_at", "id")


class PageNotFound(Exception):
    """The anchor is not a row of the list, or the page number is past its end."""


@dataclass(frozen=True)
class IdPage:
    """The ids of one page, newest first, and where the neighbouring pages start."""

    ids: list[int]
    number: int | None  # the page number when it was asked by number
    has_older: bool
    has_newer: bool

    @property
    def older_anchor(self) -> int | None:
        """`before=` this id gives the next page (older rows)."""
        return self.ids[-1] if self.has_older and self.ids else None

    @property
    def newer_anchor(self) -> int | None:
        """`after=` this id gives the previous page (newer rows)."""
        return self.ids[0] if self.has_newer and self.ids else None


def _created_at(scope: QuerySet, pk: int) -> object:
    created = scope.filter(pk=pk).values_list("created_at", flat=True).first()
    if created is None:
        raise PageNotFound(f"there is no row {pk}")
    return created


def newest_first(
    rows: QuerySet,
    *,
    size: int,
    before: int | None = None,
    after: int | None = None,
    page: int | None = None,
    scope: QuerySet | None = None,
) -> IdPage:
    """One page of `rows` (filters applied), newest first. An anchor must be a row of `scope`
    (default `rows`): the rows the reader may see, whatever the filters, since those may
    change between two pages."""
    scope = rows if scope is None else scope
    ids = rows.order_by(*NEWEST_FIRST).values_list("pk", flat=True)
    if before is not None:
        at = _created_at(scope, before)
        # created_at <= at as well: a range the index starts from, where the OR alone made
        # PostgreSQL walk the index from the newest row (every newer row, at any depth)
        older = ids.filter(Q(created_at__lt=at) | Q(created_at=at, pk__lt=before),
                           created_at__lte=at)  # fmt: skip
        found = list(older[: size + 1])
        return IdPage(found[:size], None, has_older=len(found) > size, has_newer=True)
    if after is not None:
        at = _created_at(scope, after)
        newer = rows.order_by(*OLDEST_FIRST).values_list("pk", flat=True)
        newer = newer.filter(Q(created_at__gt=at) | Q(created_at=at, pk__gt=after),
                             created_at__gte=at)  # fmt: skip
        found = list(newer[: size + 1])
        if len(found) > size:
            return IdPage(found[:size][::-1], None, has_older=True, has_newer=True)
        page = 1  # the newest rows: the first page, full
    number = page or 1
    if number < 1:
        raise PageNotFound(f"there is no page {number}")
    offset = (number - 1) * size
    found = list(ids[offset : offset + size + 1])
    if number > 1 and not found:
        raise PageNotFound(f"there is no page {number}")
    return IdPage(found[:size], number, has_older=len(found) > size, has_newer=number > 1)
