"""``GET /api/v1/protocol/schema``: the bot protocol's JSON Schema (draft 2020-12).

Bot authors in any language validate their messages, or generate types, from it. It is made
from the engine's own description (workers/protocol_schema.py) and changes only with the
code, so it is built once per process and served with a long cache lifetime and an ETag.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from engine import available_modes
from workers.protocol_schema import all_schemas

from ..errors import ValidationFailed


@cache
def _schemas() -> tuple[dict[str, Any], str]:
    schemas = all_schemas()
    etag = hashlib.sha256(json.dumps(schemas, sort_keys=True).encode()).hexdigest()[:32]
    return schemas, f'"{etag}"'


class ProtocolSchemaApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The bot protocol's JSON Schema",
        description="Every message (start, decide, end, ready, reply), every mode's "
        "observation, decisions and action kinds. Without `mode`: an object of all modes' "
        "schemas keyed by mode; with it: that mode's schema document.",
        parameters=[OpenApiParameter("mode", str, enum=available_modes(),
                                     description="Only this mode's schema document.")],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        schemas, etag = _schemas()
        mode = request.query_params.get("mode")
        if mode is not None and mode not in schemas:
            raise ValidationFailed(
                f"unknown mode {mode!r}; modes: {', '.join(sorted(schemas))}",
                fields={"mode": [f"must be one of {', '.join(sorted(schemas))}"]},
            )
        if request.headers.get("If-None-Match") == etag:
            return Response(status=304, headers={"ETag": etag})
        body = schemas[mode] if mode else schemas
        return Response(body, headers={"ETag": etag, "Cache-Control": "public, max-age=3600"})
