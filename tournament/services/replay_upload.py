"""Store a played match's replay before its result is recorded, and never lose the result.

The object store can fail for a moment (a restart, a network blip). The worker tries the upload
again with a doubling pause (REPLAY_UPLOAD_ATTEMPTS, REPLAY_UPLOAD_BACKOFF). If it still fails,
the whole outcome (seats, result and replay bytes) goes into the broker as an
``arena.match_record`` task, which any worker retries later: the match stays ``running`` until
its replay is stored and its result recorded together. When tasks run inline
(CELERY_TASK_ALWAYS_EAGER) no broker can hold it, so the result is recorded without its replay
and the error says so.

Each play stores its replay under a name of its own (``replays.storage.replay_name``): when a
match is played twice at once, the play whose result is recorded first keeps its replay and the
other one's is deleted (``replay_discard``, called by the recording service).
"""

from __future__ import annotations

import base64
import logging
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from django.conf import settings

from replayfile.public_copy import public_replay_or_same
from replays import storage
from replays.stored_frames import frames_precompute

from ..jobs import MATCH_RECORD, job
from .outcome import PlayedMatch, SeatOutcome

log = logging.getLogger(__name__)


class ReplayUploadFailed(RuntimeError):
    """Every attempt to store the replay failed; the last error is the cause."""


def replay_upload(
    *,
    match_id: int,
    data: bytes | None,
    attempts: int | None = None,
    backoff: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
) -> dict[str, Any]:
    """Store the replay (``{}`` when there is none) with retries; ``ReplayUploadFailed`` after
    the last attempt. Returns the stored name, sha256 and size."""
    if not data:
        return {}
    # The stored replay is the public one: anybody who sees the match may download it. The
    # faults' stderr and evidence stay in the seats' owner-only fields (replayfile/public_copy.py).
    data = public_replay_or_same(data)

    attempts = max(1, settings.REPLAY_UPLOAD_ATTEMPTS if attempts is None else attempts)
    pause = settings.REPLAY_UPLOAD_BACKOFF if backoff is None else backoff
    for attempt in range(1, attempts + 1):
        try:
            stored = storage.save_replay(match_id=match_id, data=data)
        except Exception as exc:  # any backend error: boto, OSError, a full disk
            if attempt == attempts:
                raise ReplayUploadFailed(
                    f"replay of match {match_id} not stored after {attempts} attempts: "
                    f"{type(exc).__name__}: {exc}"
                ) from exc
            log.warning(
                "match %s: replay upload attempt %s/%s failed (%s), retrying",
                match_id, attempt, attempts, exc,
            )  # fmt: skip
            sleep(pause * 2 ** (attempt - 1))
            continue
        # The viewer's frames are built once, here, not by every web process on first view.
        frames_precompute(replay_name=stored.name, sha256=stored.sha256, data=data)
        return dict(stored)
    raise AssertionError("unreachable")


def replay_discard(*, match_id: int, name: str) -> None:
    """Delete a stored replay that no result points to: the one of a play that lost the race
    to record its match (re-queued and played twice at once). Best effort: an object left
    behind only takes room, so a failure is logged, never raised."""
    try:
        deleted = storage.delete_replay(name)
    except Exception:  # noqa: BLE001 - any backend error: the match stands as recorded
        log.warning("match %s: replay %s of a losing play not deleted", match_id, name,
                    exc_info=True)  # fmt: skip
        return
    log.info("match %s: deleted the replay of a losing play (%s)", match_id, ", ".join(deleted))


def played_to_json(played: PlayedMatch) -> dict[str, Any]:
    """A played match as a JSON-safe message body (the replay as base64)."""
    return {
        "seats": [asdict(s) for s in played.seats],
        "result": played.result,
        "replay": base64.b64encode(played.replay).decode() if played.replay else None,
    }


def played_from_json(data: dict[str, Any]) -> PlayedMatch:
    replay = data.get("replay")
    return PlayedMatch(
        seats=[SeatOutcome(**s) for s in data["seats"]],
        result=dict(data.get("result") or {}),
        replay=base64.b64decode(replay) if replay else None,
    )


def record_later(*, match_id: int, played: PlayedMatch) -> None:
    """Hand the outcome to the retrying ``arena.match_record`` task (through the broker)."""
    job(MATCH_RECORD).apply_async(
        (match_id, played_to_json(played)), countdown=settings.REPLAY_RECORD_RETRY_SECONDS
    )
