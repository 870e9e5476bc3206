"""Live matches: each step of a running match is published for spectators as it is played.

The match service passes a ``LivePublisher`` to the runner as its step hook. The publisher
keeps a shadow game (the same mode, seats, seed and options, fed the same actions) and turns
every step into a frame entry of the **public** view (``replayfile.frames.public_view``: what
anybody may see while the match runs, never a seat's hidden cards; scores without private
lessons). Entries go to a ``LiveLog`` that the web process reads:

* ``RedisLog`` (a Redis list per play of a match) when ``LIVE_REDIS_URL`` is set, or else
  when the cache (``CACHE_URL``) or the broker (``CELERY_BROKER_URL``) is Redis: every host
  shares it;
* ``FileLog`` (one JSON-lines file per play under ``DATA_DIR/live``) otherwise: the embedded
  set-up, where the web and the background worker are two processes on one machine.

Entry 0 is the set-up (header, layouts, cards, the first view); entry ``i`` is step ``i - 1``.
The log is removed when the match is recorded: the viewer then loads the ordinary replay.
A publisher never fails a match: its first error is logged and it stops publishing.
"""

from __future__ import annotations

import json
import logging
import os
import re
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import redis
from django.conf import settings

from engine import new_game
from engine.game import Game
from replayfile.frames import FrameBuilder

log = logging.getLogger(__name__)

# a log left behind by a killed worker expires (Redis), or goes when the match's next play
# starts (files)
TTL_SECONDS = 24 * 3600


class LiveLog:
    """Where live entries go: appended by the worker, read by the web.

    Each play of a match has a log of its own (``play``: a token the publisher draws), and the
    match points at the play that started last. A match is played twice at once when the
    reaper re-queues it while its first worker, thought dead, still plays: the two plays'
    steps never mix, spectators follow the newer one, and each play removes only its own log
    (and the pointer only while it points at that play)."""

    def start(self, match_id: int, play: str) -> None:
        """Make ``play`` the match's current play (before its first entry)."""
        raise NotImplementedError

    def current(self, match_id: int) -> str | None:
        """The play spectators follow, or None when no play is being published."""
        raise NotImplementedError

    def append(self, match_id: int, play: str, entry: Mapping[str, Any]) -> None:
        raise NotImplementedError

    def entries(self, match_id: int, play: str, start: int = 0) -> list[dict[str, Any]]:
        """A play's entries ``start`` onwards (complete ones only)."""
        raise NotImplementedError

    def read(self, match_id: int, start: int = 0) -> list[dict[str, Any]]:
        """The current play's entries ``start`` onwards."""
        play = self.current(match_id)
        return [] if play is None else self.entries(match_id, play, start)

    def clear(self, match_id: int, play: str) -> None:
        """Remove a play's entries, and the match's pointer if it points at that play."""
        raise NotImplementedError


class FileLog(LiveLog):
    """One JSON-lines file per play (a line is written whole with one ``write``) and one small
    file per match naming the current play (replaced atomically)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def file_of(self, match_id: int, play: str) -> Path:
        return self.root / f"match-{int(match_id)}-{_token(play)}.jsonl"

    def _pointer(self, match_id: int) -> Path:
        return self.root / f"match-{int(match_id)}.play"

    def start(self, match_id: int, play: str) -> None:
        """Also removes the logs of the match's earlier plays: a play whose worker was killed
        never removes its own (one still running recreates its file with its next step, and
        removes it when it ends)."""
        self.root.mkdir(parents=True, exist_ok=True)
        for path in self.root.glob(f"match-{int(match_id)}-*.jsonl"):
            if path != self.file_of(match_id, play):
                path.unlink(missing_ok=True)
        pointer = self._pointer(match_id)
        staged = pointer.with_name(f"{pointer.name}.{_token(play)}")
        staged.write_text(_token(play))
        os.replace(staged, pointer)

    def current(self, match_id: int) -> str | None:
        try:
            return self._pointer(match_id).read_text().strip() or None
        except FileNotFoundError:
            return None

    def append(self, match_id: int, play: str, entry: Mapping[str, Any]) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        line = json.dumps(entry, separators=(",", ":")) + "\n"
        path = self.file_of(match_id, play)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            os.write(fd, line.encode())
        finally:
            os.close(fd)

    def entries(self, match_id: int, play: str, start: int = 0) -> list[dict[str, Any]]:
        try:
            data = self.file_of(match_id, play).read_bytes()
        except FileNotFoundError:
            return []
        lines = data.split(b"\n")
        complete = lines[:-1]  # the part after the last newline may be mid-write
        return [json.loads(line) for line in complete[start:]]

    def clear(self, match_id: int, play: str) -> None:
        self.file_of(match_id, play).unlink(missing_ok=True)
        if self.current(match_id) == play:  # a newer play that started meanwhile keeps its own
            self._pointer(match_id).unlink(missing_ok=True)


# Deletes the pointer only while it still names the play (one atomic step in Redis).
_CLEAR_POINTER = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class RedisLog(LiveLog):
    """One Redis list per play and one key per match naming the current play, shared by
    every host; both expire after TTL_SECONDS."""

    def __init__(self, url: str) -> None:
        self.client = redis.Redis.from_url(url)

    @staticmethod
    def key(match_id: int, play: str) -> str:
        return f"isle-arena:live:{int(match_id)}:{_token(play)}"

    @staticmethod
    def pointer(match_id: int) -> str:
        return f"isle-arena:live:{int(match_id)}:play"

    def start(self, match_id: int, play: str) -> None:
        self.client.set(self.pointer(match_id), _token(play), ex=TTL_SECONDS)

    def current(self, match_id: int) -> str | None:
        value = self.client.get(self.pointer(match_id))
        return value.decode() if value else None

    def append(self, match_id: int, play: str, entry: Mapping[str, Any]) -> None:
        key = self.key(match_id, play)
        pipe = self.client.pipeline()
        pipe.rpush(key, json.dumps(entry, separators=(",", ":")))
        pipe.expire(key, TTL_SECONDS)
        pipe.execute()

    def entries(self, match_id: int, play: str, start: int = 0) -> list[dict[str, Any]]:
        return [json.loads(raw) for raw in self.client.lrange(self.key(match_id, play), start, -1)]

    def clear(self, match_id: int, play: str) -> None:
        self.client.delete(self.key(match_id, play))
        self.client.eval(_CLEAR_POINTER, 1, self.pointer(match_id), _token(play))


_PLAY = re.compile(r"^[0-9a-f]{1,32}$")


def _token(play: str) -> str:
    """A play token as it may appear in a file name or a key (refused otherwise)."""
    if not _PLAY.match(play):
        raise ValueError(f"a play token is 1-32 lowercase hex digits, not {play!r}")
    return play


def valid_play(play: str) -> bool:
    """Whether ``play`` can be a play token (the API checks what a client sends)."""
    return bool(_PLAY.match(play))


def redis_url() -> str | None:
    """The Redis that live logs use, if any (see the module docstring)."""
    for url in (getattr(settings, "LIVE_REDIS_URL", ""), getattr(settings, "CACHE_URL", ""),
                getattr(settings, "CELERY_BROKER_URL", "")):
        if url and str(url).startswith(("redis://", "rediss://", "unix://")):
            return str(url)
    return None


def live_log() -> LiveLog:
    url = redis_url()
    if url:
        return RedisLog(url)
    return FileLog(Path(settings.DATA_DIR) / "live")


class LivePublisher:
    """The runner's step hook (``on_step(game, seat, action, seconds)``) for one match."""

    def __init__(self, *, match_id: int, spec: Mapping[str, Any],
                 target: LiveLog | None = None) -> None:
        self.match_id = match_id
        self.log = target or live_log()
        self.failed = False
        seats = sorted(spec["seats"], key=lambda s: s.get("seat", 0)) if spec.get("seats") else []
        self.game: Game = new_game(spec["mode"], len(seats), spec["seed"], spec.get("options"))
        header = {
            "mode": spec["mode"], "seats": len(seats), "seed": spec["seed"],
            "options": dict(spec.get("options") or {}), "match_id": match_id,
            "players": [{"seat": i, "bot": s.get("name") or s.get("builtin") or "?",
                         "version": s.get("version")} for i, s in enumerate(seats)],
        }
        self.builder = FrameBuilder(self.game, header, None, public=True)
        self.play = uuid.uuid4().hex[:12]  # this play's own log (see LiveLog)
        self.log.start(match_id, self.play)
        self._publish(self.builder.setup())

    def _publish(self, entry: Mapping[str, Any]) -> None:
        try:
            self.log.append(self.match_id, self.play, entry)
        except Exception:  # noqa: BLE001 - spectators lose the live view, the match goes on
            self._fail()

    def _fail(self) -> None:
        if not self.failed:
            log.exception("match %s: live publishing stopped", self.match_id)
        self.failed = True

    def __call__(self, game: Game, seat: int, action: Any, seconds: float) -> None:
        if self.failed:
            return
        try:
            self.game.apply_unchecked(seat, action)
            entry = self.builder.after_step(seat, self.game.encode_action(action), action,
                                            round(seconds * 1_000_000), None)
        except Exception:  # noqa: BLE001 - never fail the match for its spectators
            self._fail()
            return
        self._publish(entry)

    def close(self) -> None:
        """The match is recorded: spectators now get the replay."""
        try:
            self.log.clear(self.match_id, self.play)
        except Exception:  # noqa: BLE001
            log.warning("match %s: live log not removed", self.match_id, exc_info=True)


def live_publisher(*, match_id: int, spec: Mapping[str, Any]) -> LivePublisher | None:
    """A publisher for a match about to run, or None when live matches are off (setting
    ``LIVE_MATCHES``) or the publisher cannot start (never a reason to fail the match)."""
    if not getattr(settings, "LIVE_MATCHES", True):
        return None
    try:
        return LivePublisher(match_id=match_id, spec=spec)
    except Exception:  # noqa: BLE001
        log.exception("match %s: no live view", match_id)
        return None


def live_payload(match_id: int, since: int, play: str | None = None) -> dict[str, Any] | None:
    """What the viewer gets of a running match: with ``since`` 0 the whole payload (shaped
    like the frames of a replay), else only the steps after ``since``. ``play``: the play the
    viewer followed so far (``play`` of an earlier payload); when another play of the match
    has started since, the whole payload of the new one comes instead. None before the
    worker has published anything."""
    source = live_log()
    current = source.current(match_id)
    if current is None:
        return None
    if play is not None and play != current:
        since = 0
    entries = source.entries(match_id, current, 0 if since <= 0 else since + 1)
    if since <= 0:
        if not entries:
            return None
        setup, steps = entries[0], entries[1:]
        out = {k: setup[k] for k in ("header", "seat", "seats", "names", "layouts", "cards",
                                     "island", "shapes")}
        out.update({
            "result": None, "faults": [], "state_hash": None, "live": True,
            "views": {"base": setup["base"], "patches": [e["patch"] for e in steps]},
            "events": [setup["events0"], *[e["events"] for e in steps]],
            "scores": [setup["scores0"], *[e["scores"] for e in steps]],
            "scores_count": setup.get("scores_count"),  # absent from a play begun before it
        })
    else:
        steps = entries
        out = {"live": True, "from": since, "patches": [e["patch"] for e in steps],
               "events": [e["events"] for e in steps], "scores": [e["scores"] for e in steps]}
    out["steps"] = [e["step"] for e in steps]
    out["cursor"] = (0 if since <= 0 else since) + len(steps)
    out["play"] = current
    return out
