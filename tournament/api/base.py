"""Helpers shared by the API views: the list view bases (pagination and filters, declared so the
OpenAPI schema describes them), filtering + pagination of a queryset, object lookup."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.utils.urls import replace_query_param
from rest_framework.views import APIView

from ..errors import NotFound, ValidationFailed


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
) -> Response:
    """Apply the view's filterset (400 on bad filters), paginate, serialize; `extra` keys are
    added to the page body."""
    filterset_class = filterset_class or getattr(view, "filterset_class", None)
    if filterset_class is not None:
        filterset = filterset_class(request.query_params, queryset=queryset, request=request)
        if not filterset.is_valid():
            raise serializers.ValidationError(filterset.errors)
        queryset = filterset.qs
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    ctx = {"request": request, **(context or {})}
    response = paginator.get_paginated_response(serializer_class(page, many=True, context=ctx).data)
    if extra:
        response.data = {**extra, **response.data}
    return response


def keyset_paginated(
    request: Request,
    view: Any,
    queryset: QuerySet,
    serializer_class: type[serializers.Serializer],
) -> Response:
    """A list ordered newest first (-created_at, -id). With `?before=<id>` the page is the
    rows after that row in this order, read through the (created_at, id) index whatever
    the depth (no OFFSET, no COUNT): `next` continues from the page's last row and `count`
    is null. Without it, page numbers as everywhere else."""
    raw = request.query_params.get("before")
    if raw is None:
        return paginated(request, view, queryset, serializer_class)
    if not raw.isdigit():
        raise ValidationFailed("before must be the id of a row of this list.",
                               fields={"before": [raw]})  # fmt: skip
    # the anchor is a row this user may see (filters aside: they may change between pages)
    anchor = queryset.prefetch_related(None).filter(pk=int(raw))
    anchor = anchor.values_list("created_at", flat=True).first()
    filterset = view.filterset_class(request.query_params, queryset=queryset, request=request)
    if not filterset.is_valid():
        raise serializers.ValidationError(filterset.errors)
    queryset = filterset.qs
    if anchor is None:
        raise ValidationFailed(f"before={raw}: there is no such row.", fields={"before": [raw]})
    size = api_settings.PAGE_SIZE
    rows = list(
        queryset.filter(Q(created_at__lt=anchor) | Q(created_at=anchor, pk__lt=int(raw)))
        .order_by("-created_at", "-pk")[: size + 1]
    )
    more = len(rows) > size
    rows = rows[:size]
    following = None
    if more and rows:
        following = replace_query_param(request.build_absolute_uri(), "before", rows[-1].pk)
    data = serializer_class(rows, many=True, context={"request": request}).data
    return Response({"count": None, "next": following, "previous": None, "results": data})


def found(obj: Any, what: str, key: Any) -> Any:
    if obj is None:
        raise NotFound(f"{what} {key} does not exist.")
    return obj
