"""Ports for the servers that tests start (runserver, gunicorn, nginx, moto, a whole stack).

A port found free by binding port 0 and closing the socket can be handed to someone else
before the server binds it: another pytest worker asking the same question, or the kernel's
next outgoing connection. Here each pytest worker takes ports from a block of its own below
the kernel's ephemeral range (which starts at 32768 on Linux), where no outgoing connection is
ever given a port, checks that each binds, and never hands one out twice in a session.
"""

from __future__ import annotations

import itertools
import os
import socket

BASE = 20_000
BLOCK = 400  # ports per pytest worker: gw0 takes 20000-20399, gw1 20400-20799, ...
_taken = itertools.count()


def _worker_index() -> int:
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")  # "gw3" under pytest-xdist
    return int(name.removeprefix("gw") or 0)


def free_port(host: str = "127.0.0.1") -> int:
    """A port of this worker's block that binds now and that no other test was given."""
    start = BASE + _worker_index() * BLOCK
    for _ in range(BLOCK):
        port = start + next(_taken) % BLOCK
        with socket.socket() as sock:
            try:
                sock.bind((host, port))
            except OSError:
                continue  # held by something outside the suite: take the next
            return port
    raise RuntimeError(f"no free port in {start}-{start + BLOCK - 1}")
