"""Helpers shared by the API views: filtering + pagination of a queryset, object lookup."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from rest_framework import serializers
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request
from rest_framework.response import Response

from ..errors import NotFound


def paginated(
    request: Request,
    view: Any,
    queryset: QuerySet,
    serializer_class: type[serializers.Serializer],
    filterset_class: Any = None,
    context: dict[str, Any] | None = None,
) -> Response:
    """Apply the filterset (400 on bad filters), paginate, serialize."""
    if filterset_class is not None:
        filterset = filterset_class(request.query_params, queryset=queryset, request=request)
        if not filterset.is_valid():
            raise serializers.ValidationError(filterset.errors)
        queryset = filterset.qs
    paginator = PageNumberPagination()
    page = paginator.paginate_queryset(queryset, request, view=view)
    ctx = {"request": request, **(context or {})}
    return paginator.get_paginated_response(serializer_class(page, many=True, context=ctx).data)


def found(obj: Any, what: str, key: Any) -> Any:
    if obj is None:
        raise NotFound(f"{what} {key} does not exist.")
    return obj
