"""/healthz: the liveness/readiness probe used by docker compose, scripts/stack.py and load
balancers (cheap: one SELECT 1). /status: the health report for people and monitors."""

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse

from .selectors.health import health_status


def healthz(request: HttpRequest) -> JsonResponse:
    """Answer 200 only when the database answers too: a web process without one is not ready."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception as exc:  # any driver error means "not ready", reported not raised
        return JsonResponse({"status": "error", "database": str(exc)}, status=503)
    return JsonResponse({"status": "ok"})


def status(request: HttpRequest) -> JsonResponse:
    """What an operator (or a monitor) wants to know at a glance, as JSON: the workers that
    beat recently, the queue's depth, the oldest queued match's age and matches by status
    (tournament/selectors/health.py). 200 while the database answers, even with no worker:
    ``status`` says "no_worker" (or "worker_gave_up") then. Host names and process ids are
    for staff: other visitors see the workers' roles, states and counts. Unlike /healthz it
    is not meant for liveness probes."""
    user = getattr(request, "user", None)
    try:
        body = health_status(hosts=bool(user is not None and user.is_staff))
    except DatabaseError as exc:
        return JsonResponse({"status": "error", "database": str(exc)}, status=503)
    response = JsonResponse(body)
    response["Cache-Control"] = "no-store"
    return response
