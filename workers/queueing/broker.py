"""The embedded broker: kombu's SQLAlchemy transport on an SQLite file of its own.

Without CELERY_BROKER_URL (tournament/settings.py) tasks go to DATA_DIR/broker.sqlite3
through this transport. Why a worker can never be handed a half-written message, nor one
message twice, whoever writes at the same time (web requests, beat, the workers themselves):

* a message is one row, written by one INSERT in one transaction: SQLite's journal makes a
  committed transaction visible whole and an uncommitted one not at all, even when the
  writer is killed halfway (kombu's filesystem transport, used before, wrote a file that a
  reader could open while it was still empty);
* every transaction begins with ``BEGIN IMMEDIATE``: it takes the database's single write
  lock first, so two writers never interleave, and a reader that takes the oldest row also
  deletes it before it lets the lock go: no other consumer can take the same row;
* WAL journal mode lets readers run beside the writer, and a busy timeout makes a writer wait
  for the lock (a few milliseconds) instead of failing;
* a process never uses a connection opened by the process it was forked from (Celery's pool
  processes publish too): the engine is made per process.

kombu's own channel marks a taken message invisible and keeps it for ever; this one deletes
it. Both are at-most-once for a consumer that is killed (its unacknowledged messages are in
its memory only): a match lost that way is sent again by the reaper
(`tournament.services.matches.matches_reap_stale`), which asks `waiting_task_args` which
matches still have a message here.
"""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from queue import Empty
from typing import Any

from kombu.transport import sqlalchemy as kombu_sqla
from sqlalchemy import case, create_engine, delete, event, func, insert, select
from sqlalchemy.orm import sessionmaker

BUSY_TIMEOUT_SECONDS = 60.0  # how long a writer waits for the lock before giving up

_ENGINES: dict[tuple[int, str], Any] = {}  # (pid, url) -> (engine, Session)
_LOCK = threading.Lock()


def _reset_lock_in_child() -> None:
    global _LOCK  # noqa: PLW0603 - a fork may copy the lock held by another thread
    _LOCK = threading.Lock()


os.register_at_fork(after_in_child=_reset_lock_in_child)


def _on_connect(dbapi_connection: Any, _record: Any) -> None:
    # SQLAlchemy, not the sqlite3 module, decides where transactions begin (see _on_begin).
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    # NORMAL in WAL mode: a committed message survives any crash of a process; only a power
    # cut may lose the last ones, and the reaper sends lost matches again.
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def _on_begin(connection: Any) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def engine_for(url: str) -> tuple[Any, Any]:
    """This process's engine and session factory for the broker at ``url`` (tables made)."""
    key = (os.getpid(), url)
    with _LOCK:
        if key not in _ENGINES:
            engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_SECONDS})
            event.listen(engine, "connect", _on_connect)
            event.listen(engine, "begin", _on_begin)
            kombu_sqla.metadata.create_all(engine)
            _ENGINES[key] = engine, sessionmaker(bind=engine)
        return _ENGINES[key]


class Channel(kombu_sqla.Channel):
    """kombu's SQLAlchemy channel, with the SQLite engine above and delete-on-take."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self._queue_ids: dict[str, int] = {}
        super().__init__(*args, **kwargs)

    def _open(self) -> tuple[Any, Any]:
        return engine_for(self.connection.client.hostname)

    @property
    def session(self) -> Any:
        if self._session is None or self._session_pid != os.getpid():
            _, session = self._open()
            self._session, self._session_pid = session(), os.getpid()
        return self._session

    _session_pid = 0

    def _queue_id(self, queue: str) -> int:
        """The queue's row id (made on first use), inside the session's transaction."""
        if queue not in self._queue_ids:
            table = self.queue_cls.__table__
            found = self.session.execute(select(table.c.id).where(table.c.name == queue))
            queue_id = found.scalar()
            if queue_id is None:
                made = self.session.execute(insert(table).values(name=queue))
                queue_id = made.inserted_primary_key[0]
            self._queue_ids[queue] = queue_id
        return self._queue_ids[queue]

    def _new_queue(self, queue: str, **kwargs: Any) -> None:
        try:
            self._queue_id(queue)
            self.session.commit()
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        self.session.rollback()
        self._queue_ids.clear()  # a queue row made in the rolled-back transaction is gone

    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:
        table = self.message_cls.__table__
        try:
            self.session.execute(
                insert(table).values(
                    queue_id=self._queue_id(queue), payload=json.dumps(payload), visible=True
                )
            )
            self.session.commit()
        except BaseException:
            self._rollback()
            raise

    def _get(self, queue: str) -> Any:
        """Take the oldest message: read and delete it in one write transaction."""
        return self._take_first([queue])[1]

    def _poll(self, cycle: Any, callback: Any, timeout: float | None = None) -> Any:
        """Deliver the oldest message of the first of the consumer's queues, in the order it
        named them, that holds one. kombu's own poll takes the queues in turn (a fair cycle);
        the match lanes need the highest lane first (workers/queueing/queues.py), so a worker
        names its queues highest first and this takes them in that order."""
        queue, payload = self._take_first(list(self._active_queues))
        return callback(payload, queue)

    def _take_first(self, queues: list[str]) -> tuple[str, Any]:
        """Take (read and delete, in one write transaction) the oldest message of the first of
        ``queues`` that has one; Empty when none has."""
        if not queues:
            raise Empty()
        table = self.message_cls.__table__
        try:
            ids = {self._queue_id(queue): queue for queue in queues}
            rank = case({queue_id: i for i, queue_id in enumerate(ids)}, value=table.c.queue_id)
            row = self.session.execute(
                select(table.c.id, table.c.payload, table.c.queue_id)
                .where(table.c.queue_id.in_(list(ids)))
                .order_by(rank, table.c.id)
                .limit(1)
            ).first()
            if row is not None:
                self.session.execute(delete(table).where(table.c.id == row.id))
            self.session.commit()
        except BaseException:
            self._rollback()
            raise
        if row is None:
            raise Empty()
        return ids[row.queue_id], json.loads(row.payload)

    def _size(self, queue: str) -> int:
        table = self.message_cls.__table__
        try:
            return self.session.execute(
                select(func.count()).where(table.c.queue_id == self._queue_id(queue))
            ).scalar_one()
        finally:
            self.session.commit()

    def _purge(self, queue: str) -> int:
        table = self.message_cls.__table__
        try:
            done = self.session.execute(
                delete(table).where(table.c.queue_id == self._queue_id(queue))
            )
            self.session.commit()
        except BaseException:
            self._rollback()
            raise
        return done.rowcount

    def waiting_payloads(self, queues: list[str]) -> list[dict[str, Any]]:
        """The messages waiting in ``queues``, oldest first (for `waiting_task_args`)."""
        table, queue_table = self.message_cls.__table__, self.queue_cls.__table__
        try:
            rows = self.session.execute(
                select(table.c.payload)
                .join(queue_table, queue_table.c.id == table.c.queue_id)
                .where(queue_table.c.name.in_(queues))
                .order_by(table.c.id)
            ).scalars()
            return [json.loads(payload) for payload in rows]
        finally:
            self.session.commit()


class Transport(kombu_sqla.Transport):
    """The embedded broker's transport (CELERY_BROKER_TRANSPORT), for ``sqlite:///<path>``."""

    Channel = Channel

    def drain_events(self, connection: Any, timeout: float | None = None) -> Any:
        """Wait for a message at most one polling interval at a time. Celery's blocking loop
        (celery/worker/loops.py, ``synloop``) asks for up to 2 s and looks at the worker's
        state only between two waits, so an idle worker asked to stop would first sit out
        the rest of its 2 s; a wait of one interval (the same polls, the same messages)
        lets it stop within one. A caller that gives no timeout still waits until a message."""
        if timeout is not None and self.polling_interval:
            timeout = min(timeout, self.polling_interval)
        return super().drain_events(connection, timeout=timeout)


def waiting_task_args(app: Any, task: str, queues: list[str]) -> list[tuple[Any, ...]] | None:
    """The arguments of every ``task`` message still waiting in the broker's ``queues``, or
    None when the broker cannot be read this way (a transport other than Redis and this one).

    With Redis, a message a worker has taken but not yet acknowledged waits in its ``unacked``
    hash: it counts here too while its worker may still be starting it (taken less than
    UNACKED_FRESH_SECONDS ago); after that its task has begun, or its worker is dead."""
    with app.connection_for_read() as conn:
        channel = conn.default_channel
        if isinstance(channel, Channel):
            messages = channel.waiting_payloads(queues)
        elif conn.transport.driver_type == "redis":
            messages = _redis_waiting(channel, queues)
        else:
            return None
    found = []
    for message in messages:
        headers = message.get("headers") or {}
        if headers.get("task") != task:
            continue
        try:
            body = json.loads(_body_bytes(message))
        except (ValueError, TypeError):
            continue
        if isinstance(body, list) and body:
            found.append(tuple(body[0]))
    return found


UNACKED_FRESH_SECONDS = 30.0


def _body_bytes(message: dict[str, Any]) -> bytes:
    body = message.get("body", "")
    if message.get("properties", {}).get("body_encoding") == "base64":
        return base64.b64decode(body)
    return body.encode() if isinstance(body, str) else body


def _redis_waiting(channel: Any, queues: list[str]) -> list[dict[str, Any]]:
    client = channel.client
    keys = [
        channel._q_for_pri(queue, priority)
        for queue in queues
        for priority in channel.priority_steps
    ]
    raw = [item for key in keys for item in client.lrange(key, 0, -1)]
    fresh = client.zrangebyscore(
        channel.unacked_index_key, time.time() - UNACKED_FRESH_SECONDS, "+inf"
    )
    if fresh:
        for entry in client.hmget(channel.unacked_key, fresh):
            if entry is not None:
                raw.append(json.dumps(json.loads(entry)[0]))
    messages = []
    for item in raw:
        try:
            messages.append(json.loads(item))
        except ValueError:
            continue
    return messages
