"""Separate "hosts" on one machine: a network namespace per process, joined to the services by
a small TCP gateway. Used by `Stack(hosts=True)` (scripts/stack.py, `stack.sh start --hosts`)
and the multi-host integration test.

Each host (web, w1, w2, beat) gets its own network namespace (`ip netns add`, as root) holding
only a loopback interface, and its own DATA_DIR; its processes run under `nsenter --net=...`.
Nothing in the namespace can reach the machine: no veth, no route. The gateway, one process in
the machine's namespace, opens listening sockets *inside* each host's namespace (a thread
enters the namespace with setns(2), creates the socket and leaves; a socket stays in the
namespace it was made in) on the same 127.0.0.1 ports as PostgreSQL, Redis and the S3 server
have outside, and forwards each connection to the real service. So a host uses the very same
DATABASE_URL, CELERY_BROKER_URL and STORAGE_URL as a process outside, and reaches exactly those
three services and nothing else. The other way round, the gateway listens on a free 127.0.0.1
port outside and forwards to the web's gunicorn inside its namespace: the stack's base URL.

Why not veth pairs into the machine's namespace: an address there would expose every service
of the machine that listens on 0.0.0.0, and this machine has no iptables to fence them off.

Where namespaces cannot be made (not root, no `ip`), every host is still its own process with
its own DATA_DIR, talking to the services directly: `HostNetwork.available` says which.

    python scripts/hosts.py gateway CONFIG.json     # the gateway (started by HostNetwork)
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

CLONE_NEWNET = 0x40000000
NETNS_DIR = Path("/var/run/netns")
LOOPBACK = {"127.0.0.1", "localhost"}


class HostsError(RuntimeError):
    """The namespaces or the gateway could not be set up."""


# --- which services the hosts need ------------------------------------------------------------


def service_endpoints(env: dict[str, str]) -> dict[str, tuple[str, int]]:
    """The loopback services named in the environment: PostgreSQL, Redis, the S3 server."""
    found: dict[str, tuple[str, int]] = {}
    for key, default_port in (
        ("DATABASE_URL", 5432), ("CELERY_BROKER_URL", 6379), ("CELERY_RESULT_BACKEND", 6379),
        ("CACHE_URL", 6379),
    ):  # fmt: skip
        parts = urlsplit(env.get(key, ""))
        if parts.hostname in LOOPBACK:
            found[key] = ("127.0.0.1", parts.port or default_port)
    storage = urlsplit(env.get("STORAGE_URL", ""))
    if storage.scheme == "s3":
        endpoint = urlsplit((parse_qs(storage.query).get("endpoint_url") or [""])[0])
        if endpoint.hostname in LOOPBACK:
            found["STORAGE_URL"] = ("127.0.0.1", endpoint.port or 80)
    return found


# --- namespaces -------------------------------------------------------------------------------


def _ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True)
    if done.returncode:
        raise HostsError(f"ip {' '.join(args)}: {done.stderr.strip()}")


def namespaces_possible() -> str | None:
    """None when network namespaces can be made here, else why not. ISLE_HOSTS_NO_NETNS=1
    asks for the fallback (separate processes only), to try it as root."""
    if os.environ.get("ISLE_HOSTS_NO_NETNS") == "1":
        return "ISLE_HOSTS_NO_NETNS=1"
    if os.geteuid() != 0:
        return "not root"
    if shutil.which("ip") is None:
        return "no ip(8) command"
    return None


@dataclass
class HostNetwork:
    """One namespace per host name, and the gateway that joins them to the services."""

    names: list[str]
    services: dict[str, tuple[str, int]]
    state_dir: Path
    web: str | None = "web"
    web_port: int = 8000
    tag: str = field(default_factory=lambda: secrets.token_hex(3))
    available: bool = False
    reason: str = ""
    base_port: int | None = None  # the web, reachable from outside at 127.0.0.1:base_port
    gateway: subprocess.Popen[bytes] | None = None

    def namespace(self, name: str) -> str:
        return f"isle-{self.tag}-{name}"

    def wrap(self, name: str, argv: list[str]) -> list[str]:
        """The command that runs `argv` on host `name`: in its network namespace only.
        nsenter changes nothing else; `ip netns exec` would also remount /sys, hiding the
        cgroup file systems that the bot sandbox reads."""
        if not self.available:
            return argv
        path = str(NETNS_DIR / self.namespace(name))
        if shutil.which("nsenter"):
            return ["nsenter", f"--net={path}", "--", *argv]
        return ["ip", "netns", "exec", self.namespace(name), *argv]

    def start(self, python: str = sys.executable, timeout: float = 20.0) -> HostNetwork:
        self.reason = namespaces_possible() or ""
        if self.reason:
            return self
        made: list[str] = []
        try:
            for name in self.names:
                _ip("netns", "add", self.namespace(name))
                made.append(name)
                _ip("-n", self.namespace(name), "link", "set", "lo", "up")
        except HostsError as exc:
            self._delete(made)
            self.reason = str(exc)
            return self
        self.available = True
        self._save()
        try:
            self._start_gateway(python, timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _start_gateway(self, python: str, timeout: float) -> None:
        routes = []
        for name in self.names:
            for host, port in sorted(set(self.services.values())):
                routes.append({
                    "listen_ns": str(NETNS_DIR / self.namespace(name)),
                    "listen": ["127.0.0.1", port], "target_ns": None, "target": [host, port],
                })  # fmt: skip
        if self.web in self.names:
            self.base_port = _free_port()
            routes.append({
                "listen_ns": None, "listen": ["127.0.0.1", self.base_port],
                "target_ns": str(NETNS_DIR / self.namespace(self.web)),
                "target": ["127.0.0.1", self.web_port],
            })  # fmt: skip
        config = self.state_dir / "gateway.json"
        ready = self.state_dir / "gateway.ready"
        ready.unlink(missing_ok=True)
        config.write_text(json.dumps({"routes": routes, "ready_file": str(ready)}))
        log = (self.state_dir / "logs" / "gateway.log").open("ab")
        with log:
            self.gateway = subprocess.Popen(
                [python, str(Path(__file__).resolve()), "gateway", str(config)],
                stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
        (self.state_dir / "gateway.pid").write_text(f"{self.gateway.pid}\n")
        deadline = time.monotonic() + timeout
        while not ready.exists():
            if self.gateway.poll() is not None:
                raise HostsError(f"the gateway exited with {self.gateway.returncode}")
            if time.monotonic() > deadline:
                raise HostsError(f"the gateway was not ready after {timeout:.0f}s")
            time.sleep(0.05)

    def _save(self) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        (self.state_dir / "network.json").write_text(
            json.dumps({"namespaces": [self.namespace(n) for n in self.names]})
        )

    def _delete(self, names: list[str]) -> None:
        for name in names:
            with contextlib.suppress(HostsError):
                _ip("netns", "delete", self.namespace(name))

    def stop(self) -> None:
        """Stop the gateway and delete the namespaces (their processes must be gone)."""
        if self.gateway is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.gateway.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.gateway.wait(10)
            self.gateway = None
        remove_saved_network(self.state_dir)
        if self.available:
            self._delete(self.names)
            self.available = False


def remove_saved_network(state_dir: Path) -> None:
    """Delete the namespaces recorded under `state_dir` (a `stop` from another shell)."""
    saved = state_dir / "network.json"
    if not saved.exists():
        return
    for namespace in json.loads(saved.read_text()).get("namespaces", []):
        if (NETNS_DIR / namespace).exists():
            subprocess.run(["ip", "netns", "delete", namespace], capture_output=True)
    saved.unlink(missing_ok=True)
    for name in ("gateway.pid", "gateway.ready"):
        (state_dir / name).unlink(missing_ok=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- the gateway ------------------------------------------------------------------------------

_libc = ctypes.CDLL(None, use_errno=True)


def socket_in(namespace: str | None, make: Any) -> socket.socket:
    """Run `make()` (which creates a socket) inside a network namespace, in a thread of its
    own: setns(2) changes only the calling thread, and the socket keeps its namespace."""
    if namespace is None:
        return make()
    box: dict[str, Any] = {}

    def enter() -> None:
        try:
            fd = os.open(namespace, os.O_RDONLY)
            try:
                if _libc.setns(fd, CLONE_NEWNET) != 0:
                    err = ctypes.get_errno()
                    raise OSError(err, f"setns {namespace}: {os.strerror(err)}")
            finally:
                os.close(fd)
            box["socket"] = make()
        except BaseException as exc:  # handed to the caller
            box["error"] = exc

    thread = threading.Thread(target=enter)
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["socket"]


def _listener(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(128)
    sock.setblocking(False)
    return sock


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


async def _serve(route: dict[str, Any]) -> asyncio.AbstractServer:
    listen = socket_in(route["listen_ns"], lambda: _listener(*route["listen"]))
    target_ns, target = route["target_ns"], tuple(route["target"])

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        out = socket_in(target_ns, lambda: socket.socket(socket.AF_INET, socket.SOCK_STREAM))
        out.setblocking(False)
        try:
            await loop.sock_connect(out, target)
        except OSError:
            out.close()
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection(sock=out)
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))

    return await asyncio.start_server(handle, sock=listen)


async def _gateway(config: dict[str, Any]) -> None:
    servers = [await _serve(route) for route in config["routes"]]
    Path(config["ready_file"]).write_text("ready\n")
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    for server in servers:
        server.close()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "gateway":
        print("usage: hosts.py gateway CONFIG.json", file=sys.stderr)
        return 2
    asyncio.run(_gateway(json.loads(Path(args[1]).read_text())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
