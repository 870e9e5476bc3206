"""The workshop gate: test games and boss leagues' promotion games never take more than
WORKSHOP_SLOTS of the workers' slots from the leagues.

Workshop work (tournament/selectors/workshop_gate.py: the kinds of the workshop lane, ``test``
and ``boss``) is created *held*: queued, with no message in the broker. `workshop_release`
counts the workshop matches in flight (sent and still queued, or running) and, while fewer
than WORKSHOP_SLOTS are, sends the next held one: test games first, then promotion games,
each kind oldest first. A released match goes to the workshop lane, which workers serve
ahead of the retry and background lanes, so it takes the next free slot. Hence:

* at most WORKSHOP_SLOTS slots ever play workshop work, and a league match waits behind at
  most that many workshop matches however many are held;
* a test game waits at most for the workshop matches in flight when it was made (one, by
  default) and the test games made before it;
* promotion runs keep moving while ladders keep a backlog: a plain lowest lane would starve
  them, the gate gives them a slot whenever no test game waits.

A boss league's game is a match of kind ``boss`` rather than ``paired`` so that the lane, the
gate and the queue place tell it apart by its kind alone, with no join to its comparison; its
comparison says which kind its games are (``PairedComparison.game_kind``).

The gate releases on commit after workshop work is made (`match_create_internal`), on commit
after a workshop match ends (tournament/wiring.py: recorded, failed or abandoned) or is
cancelled with its promotion run (`paired_stop`), and at every run of the reaper
(`matches_reap_stale`), so a release lost with a process never leaves work held for longer
than a reaper period. The reaper never re-sends a held match (it has no message to lose), and a
held match cancelled before its turn is never sent. Releases are serialised on the gate's own
row (`WorkshopGate`, locked for update; SQLite's transactions take the write lock when they
begin), so two releases at once never both see the same free slot.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from ..models import Match, WorkshopGate
from ..selectors.workshop_gate import workshop_held, workshop_in_flight
from .match_dispatch import match_enqueue

log = logging.getLogger(__name__)

GATE_ROW = 1  # the primary key of the one WorkshopGate row


def workshop_release() -> list[int]:
    """Send held workshop work to the broker while fewer than WORKSHOP_SLOTS workshop matches
    are in flight; the ids sent, in the order sent."""
    released: list[int] = []
    with transaction.atomic():
        _lock_gate()
        free = settings.WORKSHOP_SLOTS - workshop_in_flight().count()
        while free > 0:
            # locked, and checked again under the lock: a promotion run stopped meanwhile
            # cancels its held games, which are then never sent
            match = workshop_held().select_for_update().first()
            if match is None:
                break
            match.held, match.queued_at = False, timezone.now()
            match.save(update_fields=["held", "queued_at"])
            match_enqueue(match)
            released.append(match.pk)
            free -= 1
    if released:
        log.info("workshop gate: released %s", released)
    return released


def workshop_release_on_commit() -> None:
    """Release held workshop work once the surrounding transaction commits (at once outside
    one). A failed release is logged, not raised: the match that called it is done, and the
    reaper's next run releases instead."""
    transaction.on_commit(workshop_release, robust=True)


def workshop_match_ended(match: Match, seats: Sequence[Any]) -> None:
    """Connected to every end of a workshop match (tournament/wiring.py): its slot is free
    once the transaction that ends it commits."""
    workshop_release_on_commit()


def _lock_gate() -> None:
    """Hold the gate's row until the transaction ends; made on first use (a new database, or
    one the tests flushed)."""
    if WorkshopGate.objects.select_for_update().filter(pk=GATE_ROW).first() is None:
        WorkshopGate.objects.get_or_create(pk=GATE_ROW)
        WorkshopGate.objects.select_for_update().get(pk=GATE_ROW)
