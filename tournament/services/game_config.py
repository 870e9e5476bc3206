"""Checks a (mode, seats, options) triple against the engine's declared game type."""

from __future__ import annotations

from typing import Any

import engine

from ..errors import BadGameConfig
from ..ratings import SISTER_RATINGS


def game_config_check(*, mode: str, seats: int, options: dict[str, Any] | None) -> dict[str, Any]:
    """Return the cleaned options, or raise BadGameConfig naming the field at fault.

    Done before anything is queued, so a bad league or challenge fails at request time rather
    than on a worker.
    """
    try:
        game_type = engine.mode_class(mode).game_type
    except engine.ConfigError:
        raise BadGameConfig(
            BadGameConfig.UNKNOWN_MODE.format(mode=mode, available=", ".join(engine.MODES)),
            fields={"mode": ["unknown or unavailable mode"]},
        ) from None
    messages: list[str] = []
    fields: dict[str, list[str]] = {}

    def fault(field: str, message: str, detail: str) -> None:
        messages.append(message)
        fields.setdefault(field, []).append(detail)

    if (
        isinstance(seats, bool)
        or not isinstance(seats, int)
        or not (game_type.min_seats <= seats <= game_type.max_seats)
    ):
        lo, hi = game_type.min_seats, game_type.max_seats
        span = f"{lo}" if lo == hi else f"{lo}-{hi}"
        message = BadGameConfig.SEATS.format(mode=mode, span=span, seats=seats)
        fault("seats", message, f"{span} seats")
    if options is not None and not isinstance(options, dict):
        fault("options", "options must be a JSON object.", "an object")
        options = {}
    cleaned = dict(options or {})
    if mode == "solo" and cleaned.get("difficulty") not in SISTER_RATINGS:
        choices = ", ".join(SISTER_RATINGS)
        got = cleaned.get("difficulty")
        fault(
            "options",
            BadGameConfig.DIFFICULTY.format(choices=choices)
            + ("" if got is None else f" Got {got!r}."),
            f"difficulty must be one of {choices}",
        )
    for key, value in cleaned.items():
        if mode == "solo" and key == "difficulty":
            continue
        allowed = game_type.options.get(key)
        if allowed is None:
            fault("options", f"Mode {mode!r} has no option {key!r}.", f"unknown {key!r}")
        elif isinstance(allowed, (list, tuple)) and value not in allowed:
            fault(
                "options",
                f"Option {key!r} must be one of {list(allowed)}, not {value!r}.",
                f"bad {key!r}",
            )
    if messages:
        raise BadGameConfig(" ".join(messages), fields=fields)
    return cleaned
