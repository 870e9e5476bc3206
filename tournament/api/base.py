"""Helpers shared by the API views: the list view bases (pagination and filters, declared so the
OpenAPI schema describes them), filtering + pagination of a queryset, object lookup."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ..errors import NotFound


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


def found(obj: Any, what: str, key: Any) -> Any:
    if obj is None:
        raise NotFound(f"{what} {key} does not exist.")
    return obj
