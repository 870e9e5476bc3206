"""A bot's annotations of its own boat: ``marks`` beside ``debug`` in a reply to ``decide``.

``"marks": [{"cells": [[7, 3], [8, 3]], "label": "plan: blue", "colour": "blue"}, ...]`` outlines
cells of the bot's boat (x, y as in ``place``) with a short label, for example where it plans
to place. The limits below are the protocol's (docs/bot-protocol.md, the JSON Schema); a reply
that breaks one is ``bad_output`` naming the limit. Marks are stored with the match and shown by
the viewer on the bot's boat to its owner, and to everyone in a league that allows it."""

from __future__ import annotations

from typing import Any

MAX_MARKS = 8  # marks per reply
MAX_CELLS = 12  # cells per mark
MAX_LABEL = 24  # characters of a label
MAX_COORD = 31  # 0 <= x, y <= this (every boat is smaller)
MARK_COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "black", "white")


class MarksError(ValueError):
    """A reply's marks break a limit: the message names it."""


def parse_marks(value: Any) -> list[dict[str, Any]]:
    """The marks of a reply, checked against the limits; raises MarksError."""
    if not isinstance(value, list):
        raise MarksError("marks must be a list")
    if len(value) > MAX_MARKS:
        raise MarksError(f"at most {MAX_MARKS} marks per reply (got {len(value)})")
    out = []
    for i, mark in enumerate(value):
        if not isinstance(mark, dict):
            raise MarksError(f"marks[{i}] must be an object")
        extra = set(mark) - {"cells", "label", "colour"}
        if extra:
            raise MarksError(f"marks[{i}] has unexpected key(s) {sorted(extra)}")
        cells = mark.get("cells")
        if not isinstance(cells, list) or not cells:
            raise MarksError(f"marks[{i}].cells must be a non-empty list of [x, y]")
        if len(cells) > MAX_CELLS:
            raise MarksError(f"at most {MAX_CELLS} cells per mark (marks[{i}] has {len(cells)})")
        for cell in cells:
            if (not isinstance(cell, list) or len(cell) != 2
                    or not all(isinstance(c, int) and not isinstance(c, bool) for c in cell)):
                raise MarksError(f"marks[{i}].cells: each cell is [x, y], two integers")
            if not all(0 <= c <= MAX_COORD for c in cell):
                raise MarksError(f"marks[{i}].cells: x and y are 0 to {MAX_COORD}")
        label = mark.get("label", "")
        if not isinstance(label, str):
            raise MarksError(f"marks[{i}].label must be a string")
        if len(label) > MAX_LABEL:
            raise MarksError(f"a mark's label is at most {MAX_LABEL} characters "
                             f"(marks[{i}] has {len(label)})")
        colour = mark.get("colour", "black")
        if colour not in MARK_COLOURS:
            raise MarksError(f"marks[{i}].colour must be one of {', '.join(MARK_COLOURS)}")
        out.append({"cells": [list(c) for c in cells], "label": label, "colour": colour})
    return out


def marks_schema() -> dict[str, Any]:
    """The JSON Schema of ``marks`` (workers/protocol/schema.py puts it in every reply)."""
    cell = {"type": "array", "items": {"type": "integer", "minimum": 0, "maximum": MAX_COORD},
            "minItems": 2, "maxItems": 2}
    return {
        "type": "array", "maxItems": MAX_MARKS,
        "description": "annotations of your own boat, drawn by the viewer for your eyes (and "
                       "everyone's in a league that allows it)",
        "items": {"type": "object", "additionalProperties": False, "required": ["cells"],
                  "properties": {
                      "cells": {"type": "array", "items": cell, "minItems": 1,
                                "maxItems": MAX_CELLS, "description": "cells of your boat"},
                      "label": {"type": "string", "maxLength": MAX_LABEL},
                      "colour": {"enum": list(MARK_COLOURS), "default": "black"},
                  }},
    }
