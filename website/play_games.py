"""The games of the workshop's Play button (website/data/workshop_games.json): each a mode, its
seats and options, offered by key, and found again from a test game's own mode, seats and
options (the match page's "Play again")."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from tournament.models import Match

DATA = Path(__file__).resolve().parent / "data" / "workshop_games.json"


@dataclass(frozen=True)
class PlayGame:
    key: str
    label: str
    mode: str
    seats: int
    options: dict[str, Any]


@cache
def games() -> tuple[PlayGame, ...]:
    rows = json.loads(DATA.read_text(encoding="utf-8"))["games"]
    return tuple(PlayGame(r["key"], r["label"], r["mode"], r["seats"], r["options"]) for r in rows)


def game(key: str) -> PlayGame:
    """The game of ``key``; KeyError for a key the table does not hold."""
    for found in games():
        if found.key == key:
            return found
    raise KeyError(key)


def game_key(mode: str, seats: int, options: dict[str, Any]) -> str | None:
    """The key of the game with this mode, number of seats and options, or None."""
    for found in games():
        if (found.mode, found.seats, found.options) == (mode, seats, dict(options or {})):
            return found.key
    return None


@dataclass(frozen=True)
class PlayAgain:
    """The match page's way back to the workshop from a test game of the author's draft, and
    its "Play again": the same opponent and game, with the draft as it is now. ``game`` is
    None when the workshop's Play does not offer that game (one asked through the API, or
    with different opponents)."""

    bot_id: int
    opponent: str
    game: str | None


def play_again(*, match: Any, seats: list[Any], user: Any) -> PlayAgain | None:
    """For the author of a test game of their draft (seat 0 a draft snapshot of their bot);
    None for any other match or reader."""
    tested = seats[0].bot_version if seats else None
    if match.kind != Match.Kind.TEST or tested is None or not tested.is_draft:
        return None
    if not user.is_authenticated or tested.bot.owner_id != user.pk:
        return None
    opponent = seats[1].bot_version if len(seats) > 1 else None
    if opponent is None:
        name = "random"  # solo: no opponent sits, any choice will do
    else:
        name = opponent.builtin if opponent.bot.is_system else str(opponent.pk)
    same = len({seat.bot_version_id for seat in seats[1:]}) <= 1
    key = game_key(match.mode, len(seats), match.options) if same else None
    return PlayAgain(tested.bot_id, name, key)
