"""Completes the OpenAPI schema that drf-spectacular builds from the DRF views: the one error
body on every operation, and the replay endpoints (plain Django views of the replays app, which
the generator cannot see). Wired as a postprocessing hook in SPECTACULAR_SETTINGS."""

from __future__ import annotations

from typing import Any

ERROR_SCHEMA = {
    "type": "object",
    "description": "The one error body of the API (tournament/api/exceptions.py).",
    "properties": {
        "error": {
            "type": "object",
            "properties": {
                "code": {"type": "string", "example": "not_found"},
                "message": {"type": "string"},
                "fields": {
                    "type": "object",
                    "additionalProperties": {"type": "array", "items": {"type": "string"}},
                },
            },
            "required": ["code", "message", "fields"],
        }
    },
    "required": ["error"],
}
ERROR_RESPONSE = {
    "description": "An error, in the one error body (see docs/api.md, Errors).",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
}
_MATCH_ID = {"in": "path", "name": "match_id", "required": True, "schema": {"type": "integer"}}
_SEAT = {
    "in": "query",
    "name": "seat",
    "required": False,
    "schema": {"type": "string"},
    "description": "A seat number (that seat's view) or `spectator` (the default).",
}
_FRAMES = {
    "description": "The re-simulated views, step by step (docs/replay-format.md).",
    "content": {"application/json": {"schema": {"type": "object"}}},
}
REPLAY_PATHS: dict[str, dict[str, Any]] = {
    "/api/v1/matches/{match_id}/replay": {
        "get": {
            "operationId": "v1_matches_replay_retrieve",
            "summary": "The match's replay file",
            "description": "A zstd-compressed msgpack document (docs/replay-format.md).",
            "tags": ["v1"],
            "parameters": [_MATCH_ID],
            "responses": {
                "200": {
                    "description": "The replay file.",
                    "content": {
                        "application/zstd": {"schema": {"type": "string", "format": "binary"}}
                    },
                }
            },
        }
    },
    "/api/v1/matches/{match_id}/frames": {
        "get": {
            "operationId": "v1_matches_frames_retrieve",
            "summary": "The viewer's frames of the match's replay",
            "tags": ["v1"],
            "parameters": [_MATCH_ID, _SEAT],
            "responses": {"200": _FRAMES},
        }
    },
    "/api/v1/replays/frames": {
        "post": {
            "operationId": "v1_replays_frames_create",
            "summary": "The viewer's frames of a replay file sent as the request body",
            "tags": ["v1"],
            "parameters": [_SEAT],
            "requestBody": {
                "required": True,
                "content": {
                    "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}
                },
            },
            "responses": {"200": _FRAMES},
        }
    },
}


def complete_schema(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict:
    """Add the replay endpoints and give every operation the error response."""
    paths = result.setdefault("paths", {})
    for path, operations in REPLAY_PATHS.items():
        paths.setdefault(path, operations)
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR_SCHEMA
    for operations in paths.values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            responses.setdefault("4XX", ERROR_RESPONSE)
            for code, response in responses.items():
                if code.startswith("4") and "content" not in response:
                    response["content"] = ERROR_RESPONSE["content"]  # e.g. a 429's Retry-After
    result["paths"] = dict(sorted(paths.items()))
    return result
