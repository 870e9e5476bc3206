"""What a match's end sets off beyond the match itself, reached through one small interface.

`services/matches.py` decides how a match ends and calls `match_ended` in the transaction that
ends it; the services that care (the league's ratings and progress, a validation run, a paired
comparison, the versions' fault counts) are connected to it once, by kind of match, in
`tournament/wiring.py`. So the matches import none of the services that import them.

Handlers run in the order they were connected, inside the caller's transaction and under its
row lock of the match.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from ..models import Match


class Ending(enum.StrEnum):
    RECORDED = "recorded"  # played to a result (faults included), recorded once
    FAILED = "failed"  # failed for good after its attempts (`match_fail`)
    ABANDONED = "abandoned"  # its worker was lost on every attempt (the reaper gave up)


# (match, its seats as recorded) -> None
Handler = Callable[[Match, Sequence[Any]], None]

_HANDLERS: dict[tuple[Ending, str], list[Handler]] = {}


def connect(ending: Ending, kind: str, handler: Handler) -> None:
    """Call `handler` when a match of `kind` ends so; connecting the same one twice is a no-op."""
    handlers = _HANDLERS.setdefault((ending, kind), [])
    if handler not in handlers:
        handlers.append(handler)


def match_ended(*, match: Match, ending: Ending, seats: Sequence[Any] = ()) -> None:
    """Tell the connected services that `match` ended. Nothing connected at all means the app
    was not set up (`TournamentConfig.ready` wires the handlers): an error, not a silent skip
    that would leave leagues waiting for ever."""
    if not _HANDLERS:
        raise ImproperlyConfigured("no match handlers are connected (tournament.wiring)")
    for handler in _HANDLERS.get((ending, match.kind), ()):
        handler(match, seats)
