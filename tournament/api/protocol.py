"""``GET /api/v1/protocol/schema``: the bot protocol's JSON Schema (draft 2020-12), and
``GET /api/v1/protocol/game-data?mode=...``: the game's data a bot gets in ``start``.

Bot authors in any language validate their messages, or generate types, from the schema, and
read the cards, boats and shapes of a mode from the game data without starting a match. Both
are made from the engine's own description and data (workers/protocol/schema.py,
engine/game_data.py) and change only with the code, so they are built once per process and
served with a long cache lifetime and an ETag.
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
from engine.game_data import GAME_DATA_MODES, game_data
from workers.protocol.schema import all_schemas

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


def _game_data_modes() -> list[str]:
    return [m for m in available_modes() if m in GAME_DATA_MODES]


class ProtocolGameDataApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The game's data of a mode",
        description="What a bot is sent as `game_data` in `start`: every card in play (cost, "
        "speed, baskets, colour, effect and machine-readable rules), every boat (cells, rats, "
        "treasure maps, rooms, edge), every shape with each rotation and reflection, and the "
        "Duel's island. `version` is the engine's version and a hash of the content (also the "
        "ETag). Its JSON Schema: `$defs.game_data` of `GET /api/v1/protocol/schema`.",
        parameters=[OpenApiParameter("mode", str, enum=_game_data_modes(), required=True,
                                     description="The mode.")],
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request) -> Response:
        modes = _game_data_modes()
        mode = request.query_params.get("mode")
        if mode not in modes:
            what = "mode is required" if mode is None else f"unknown mode {mode!r}"
            raise ValidationFailed(f"{what}; modes: {', '.join(modes)}",
                                   fields={"mode": [f"must be one of {', '.join(modes)}"]})
        data = game_data(mode)
        etag = f'"{data["version"]}"'
        if request.headers.get("If-None-Match") == etag:
            return Response(status=304, headers={"ETag": etag})
        return Response(data, headers={"ETag": etag, "Cache-Control": "public, max-age=3600"})
