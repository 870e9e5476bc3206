"""Stored replays made public: the ones recorded before replays were stripped when stored.

Since the match service strips a replay before storing it (``replay_upload``), a stored
replay holds nothing private. Replays stored before that still carry their faults' stderr
and evidence; the download strips them as it sends them, but then sends other bytes than the
sha256 the match records (``arena replay`` checks it). This rewrites each such replay once: the
public bytes are stored under their own name, the match points at them, and the old file and
its viewer frames are deleted. Only matches with a faulted seat can hold one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from replayfile.format import ReplayError, decode
from replayfile.public_copy import is_public, public_replay
from replays.storage import ReplayCorrupt, ReplayNotFound, delete_replay, open_replay, save_replay

from ..models import Match

log = logging.getLogger(__name__)


def replay_make_public(*, match_id: int) -> bool:
    """Rewrite one match's stored replay without its private fields; True when it changed.
    Storage errors propagate; a replay that is missing, corrupt or not a replay is left."""
    match = Match.objects.filter(pk=match_id).only("replay_name", "replay_sha256").first()
    if match is None or not match.replay_name:
        return False
    try:
        data = open_replay(match.replay_name, sha256=match.replay_sha256 or None)
        if is_public(decode(data)):
            return False
    except (ReplayNotFound, ReplayCorrupt, ReplayError) as exc:
        log.warning("match %s: replay left as it is (%s)", match_id, exc)
        return False
    stored = save_replay(match_id=match_id, data=public_replay(data))
    with transaction.atomic():
        locked = Match.objects.select_for_update().only("replay_name").get(pk=match_id)
        if locked.replay_name != match.replay_name:  # recorded again meanwhile: keep that one
            delete_replay(stored.name)
            return False
        Match.objects.filter(pk=match_id).update(
            replay_name=stored.name, replay_sha256=stored.sha256, replay_size=stored.size
        )
    delete_replay(match.replay_name)
    return True


def replays_make_public(*, match_ids: Iterable[int] | None = None) -> list[int]:
    """``replay_make_public`` for every stored replay of a match with a faulted seat (or of
    the matches given); the ids of the matches whose replay was rewritten."""
    matches = Match.objects.exclude(replay_name="").filter(seats__fault__gt="").distinct()
    if match_ids is not None:
        matches = matches.filter(pk__in=list(match_ids))
    ids = list(matches.order_by("pk").values_list("pk", flat=True))
    return [pk for pk in ids if replay_make_public(match_id=pk)]
