"""Helpers shared by the API views: the list view bases (pagination and filters, declared so the
OpenAPI schema describes them), filtering + pagination of a queryset (numbered pages; the match
lists page newest first without counting), object lookup."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.urls import remove_query_param, replace_query_param
from rest_framework.views import APIView

from ..errors import NotFound, ValidationFailed
from ..match_summaries import summaries
from ..paging import PageNotFound, newest_first


class ListApi(APIView):
    """A view whose GET answers a page of a list; the schema shows the page and its `page`."""

    pagination_class = PageNumberPagination


class FilteredListApi(ListApi):
    """A list with query-string filters (`filterset_class`), described in the schema too."""

    filter_backends = [DjangoFilterBackend]
    filterset_class: Any = None

    def get_queryset(self) -> QuerySet:
        """Only for the schema generator, which needs the filters' model; views read through
        selectors."""
        return self.filterset_class._meta.model.objects.none()


def paginated(
    request: Request,
    view: Any,
    queryset: QuerySet | list,
    serializer_class: type[serializers.Serializer],
    filterset_class: Any = None,
    context: dict[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
    page_context: Callable[[list[Any]], dict[str, Any]] | None = None,
) -> Response:
    """Apply the view's filterset (400 on bad filters), paginate, serialize; `extra` keys are
    added to the page body; `page_context(rows of the page)` adds to the serializer's context
    what is read once for the whole page."""
    filterset_class = filterset_class or getattr(view, "filterset_class", None)
    if filterset_class is not None:
        filterset = filterset_class(request.query_params, queryset=queryset, request=request)
        if not filterset.is_valid():
            raise serializers.ValidationError(filterset.errors)
        queryset = filterset.qs
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    ctx = {"request": request, **(context or {})}
    if page_context is not None:
        ctx.update(page_context(list(page or [])))
    response = paginator.get_paginated_response(serializer_class(page, many=True, context=ctx).data)
    if extra:
        response.data = {**extra, **response.data}
    return response


class NewestFirstPagination(PageNumberPagination):
    """What the schema shows of a newest-first list (`newest_first_paginated`): `count` is
    null, since these lists are never counted."""

    def get_paginated_response_schema(self, schema: dict[str, Any]) -> dict[str, Any]:
        body = super().get_paginated_response_schema(schema)
        body["properties"]["count"] = {
            "type": "integer", "nullable": True, "example": None,
            "description": "Always null: the list is not counted (follow `next`).",
        }  # fmt: skip
        return body


def newest_first_paginated(
    request: Request,
    view: Any,
    matches: QuerySet,
    serializer_class: type[serializers.Serializer],
) -> Response:
    """A page of matches newest first that costs the same at any depth and counts nothing
    (`tournament.paging`): `?before=<id>` gives the matches after that one, `?page=N` an
    offset over ids alone. `next` always continues by keyset (`before=` the page's last row);
    `previous` is page N-1 of a numbered page, else null; `count` is null. `matches` are the
    rows the reader may see; the view's filters narrow them."""
    filterset = view.filterset_class(request.query_params, queryset=matches, request=request)
    if not filterset.is_valid():
        raise serializers.ValidationError(filterset.errors)
    raw_before = request.query_params.get("before")
    raw_page = request.query_params.get("page")
    if raw_before is not None and not raw_before.isdigit():
        raise ValidationFailed("before must be the id of a row of this list.",
                               fields={"before": [raw_before]})  # fmt: skip
    if raw_page is not None and not raw_page.isdigit():
        raise NotFound(f"There is no page {raw_page!r}.")
    before = int(raw_before) if raw_before is not None else None
    number = int(raw_page) if raw_page is not None and before is None else None
    try:
        page = newest_first(filterset.qs, size=api_settings.PAGE_SIZE, before=before,
                            page=number, scope=matches)  # fmt: skip
    except PageNotFound:
        if before is not None:
            raise ValidationFailed(f"before={before}: there is no such row.",
                                   fields={"before": [raw_before]}) from None  # fmt: skip
        raise NotFound(f"There is no page {number}.") from None
    url = request.build_absolute_uri()
    following = None
    if page.older_anchor is not None:
        following = replace_query_param(remove_query_param(url, "page"), "before",
                                        page.older_anchor)  # fmt: skip
    previous = None
    if page.number is not None and page.number > 1:
        previous = (remove_query_param(url, "page") if page.number == 2
                    else replace_query_param(url, "page", page.number - 1))  # fmt: skip
    rows = summaries(page.ids)
    data = serializer_class(rows, many=True, context={"request": request}).data
    return Response({"count": None, "next": following, "previous": previous, "results": data})


def found(obj: Any, what: str, key: Any) -> Any:
    if obj is None:
        raise NotFound(f"{what} {key} does not exist.")
    return obj
