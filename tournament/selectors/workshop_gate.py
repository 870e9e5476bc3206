"""Workshop work and the order in which the workshop gate lets it through
(tournament/services/workshop_gate.py): read by the gate when it releases a match, and by a
queued match's place in its lane (queue_place.py), so both follow one order.

Workshop work is every kind of match whose lane is the workshop lane (workers/queueing/queues.py,
KIND_LANES): authors' test games and the games of boss leagues' promotion runs. It is created
*held* (queued, no message in the broker) and sent when the gate releases it. *In flight*: sent
and still queued, or running; at most WORKSHOP_SLOTS are.
"""

from __future__ import annotations

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When

from workers.queueing.queues import KIND_LANES, WORKSHOP

from ..models import Match

WORKSHOP_KINDS = tuple(kind for kind, lane in KIND_LANES.items() if lane == WORKSHOP)

# The gate's order: test games first (their author waits at the match page), then the boss
# leagues' promotion games (played in the background); within a kind, the oldest first.
RELEASE_ORDER = (Match.Kind.TEST, Match.Kind.BOSS)


def is_workshop_work(kind: str) -> bool:
    return kind in WORKSHOP_KINDS


def workshop_in_flight() -> QuerySet[Match]:
    """Workshop matches sent to the broker and still queued, or running (a running match is
    counted whatever its flag: it holds a worker's slot)."""
    return Match.objects.filter(kind__in=WORKSHOP_KINDS).filter(
        Q(status=Match.Status.RUNNING) | Q(status=Match.Status.QUEUED, held=False)
    )


def workshop_held() -> QuerySet[Match]:
    """Held workshop matches, the next one to release first (RELEASE_ORDER, then the oldest)."""
    rank = Case(
        *(When(kind=kind, then=Value(i)) for i, kind in enumerate(RELEASE_ORDER)),
        output_field=IntegerField(),
    )
    return (
        Match.objects.filter(kind__in=WORKSHOP_KINDS, status=Match.Status.QUEUED, held=True)
        .annotate(release_rank=rank)
        .order_by("release_rank", "created_at", "pk")
    )


def released_before(match: Match) -> Q:
    """Of the held matches, those the gate releases before ``match`` (itself held): every one
    of an earlier kind in RELEASE_ORDER, and the older ones of its own kind (workshop_held's
    order, as a filter)."""
    earlier_kinds = RELEASE_ORDER[: RELEASE_ORDER.index(match.kind)]
    older = Q(created_at__lt=match.created_at) | Q(created_at=match.created_at, pk__lt=match.pk)
    return Q(kind__in=earlier_kinds) | (Q(kind=match.kind) & older)


def gate_queue_ahead(match: Match) -> QuerySet[Match]:
    """The queued workshop matches that go before ``match``, held: those already sent (their
    messages wait in the workshop lane) and the held ones released before it."""
    return Match.objects.filter(kind__in=WORKSHOP_KINDS, status=Match.Status.QUEUED).filter(
        Q(held=False) | (Q(held=True) & released_before(match))
    )
