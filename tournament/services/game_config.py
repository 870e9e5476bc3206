"""Checks a (mode, seats, options) triple against the engine's declared game type."""

from __future__ import annotations

from typing import Any

import engine
from competition.elo import SISTER_RATINGS

from ..errors import BadGameConfig


def plain_list(words: list[str]) -> str:
    """``a, b or c``: a list as a sentence says it."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def difficulty_names() -> str:
    """The sister's difficulties as people say them: easy, medium, hard, very hard or expert."""
    return plain_list([d.replace("_", " ") for d in SISTER_RATINGS])


def solo_difficulty_message(what: str = "games", got: Any = None) -> str:
    """What a solo game without a valid difficulty is told, e.g. "Solo leagues need a
    difficulty: easy, medium, hard, very hard or expert." (and what was sent, if anything)."""
    message = BadGameConfig.DIFFICULTY.format(what=what, choices=difficulty_names())
    if got not in (None, ""):
        message = f"{message[:-1]}; {got!r} is not one."
    return message


def seat_spans() -> dict[str, tuple[int, int]]:
    """Each mode's fewest and most seats (the engine's game types)."""
    out = {}
    for mode in engine.MODES:
        game_type = engine.mode_class(mode).game_type
        out[mode] = (game_type.min_seats, game_type.max_seats)
    return out


def fixed_seats(mode: str | None) -> int | None:
    """The seats a mode fixes (the Duel 2, solo 1), or None where the organiser chooses: the
    site's forms and the API take that number when none (or, on a form, a stale one) is
    given."""
    lo, hi = seat_spans().get(mode or "", (0, -1))
    return lo if lo == hi else None


def game_config_check(
    *, mode: str, seats: int, options: dict[str, Any] | None, what: str = "games"
) -> dict[str, Any]:
    """Return the cleaned options, or raise BadGameConfig naming the field at fault.

    Done before anything is queued, so a bad league or challenge fails at request time rather
    than on a worker. `what` names what is being made in the messages ("leagues").
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
        seat_word = "seat" if hi == 1 else "seats"
        message = BadGameConfig.SEATS.format(mode=mode, span=f"{span} {seat_word}", seats=seats)
        fault("seats", message, f"{span} seats")
    if options is not None and not isinstance(options, dict):
        fault("options", "options must be a JSON object.", "an object")
        options = {}
    cleaned = dict(options or {})
    if mode == "solo" and cleaned.get("difficulty") not in SISTER_RATINGS:
        fault(
            "options",
            solo_difficulty_message(what, cleaned.get("difficulty")),
            f"difficulty: one of {', '.join(SISTER_RATINGS)}",  # the values, as sent
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
