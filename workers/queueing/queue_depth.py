"""How many messages wait in the broker's queues: the one question /status and /metrics ask
the broker, for Redis as for the embedded broker, through kombu: a passive queue declare
answers with the queue's message count on every transport (Redis: the lengths of the queue's
priority lists; the embedded broker: its own count)."""

from __future__ import annotations

import logging
from collections.abc import Iterable

from kombu.exceptions import ChannelError

from .celery_app import app

log = logging.getLogger(__name__)

TIMEOUT_SECONDS = 2.0  # a broker that does not answer in this time is reported as unknown


def broker_queue_depth(queues: Iterable[str]) -> dict[str, int] | None:
    """Messages waiting (not yet taken by a worker) in each of ``queues``, or None when the
    broker cannot be asked (down, unreachable): the caller then falls back on the database."""
    names = list(dict.fromkeys(queues))
    options = dict(app.conf.broker_transport_options or {})
    if str(app.conf.broker_url or "").startswith(("redis://", "rediss://")):
        options.update(socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS)
    depth: dict[str, int] = {}
    try:
        with app.connection_for_read(
            transport_options=options, connect_timeout=TIMEOUT_SECONDS
        ) as connection:
            connection.ensure_connection(max_retries=1, interval_start=0, timeout=TIMEOUT_SECONDS)
            for name in names:
                channel = connection.channel()
                try:
                    depth[name] = channel.queue_declare(queue=name, passive=True).message_count
                except ChannelError:  # never declared, or empty (Redis drops empty lists)
                    depth[name] = 0
                finally:
                    channel.close()
    except Exception as exc:  # the brokers' error types differ: any of them means "unknown"
        log.warning("queue depth: the broker could not be asked: %s", exc)
        return None
    return depth
