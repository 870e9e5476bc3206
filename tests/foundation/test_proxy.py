"""The reverse proxy of the deployment (deploy/nginx.conf.template) keeps the site answering
while slow clients hold connections open (slowloris), and gunicorn alone does not.

A real gunicorn serves the project with one sync worker (gunicorn's default) on a free loopback
port, and Debian's nginx (/usr/sbin/nginx) runs the deployment's own server block, filled in the
way the official image fills it (${ARENA_*} from the environment), as an unprivileged process
with its prefix, pid file, logs and temp directories under tmp_path. Sixteen clients then send a
request's headers a line at a time and never finish them.

* Through nginx, `/healthz` answers every probe, each given 1 s, while all sixteen slow
  connections are still open (nginx is still waiting for their headers).
* Straight to gunicorn, the same sixteen connections leave the probe without an answer: the
  sync worker is stuck reading the first slow request. Once they hang up, it answers again.
"""

from __future__ import annotations

import contextlib
import grp
import http.client
import os
import pwd
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.ports import free_port
from tournament.api.uploads import MULTIPART_OVERHEAD_BYTES

REPO = Path(__file__).resolve().parents[2]
TEMPLATE = REPO / "deploy" / "nginx.conf.template"
NGINX = os.environ.get("NGINX_PATH") or "/usr/sbin/nginx"
SLOW_CLIENTS = 16
PROBES = 10
PROBE_TIMEOUT = 1.0  # the behaviour asserted: each probe answered within 1 s
START_DEADLINE = 60.0
HASH = "0123456789ab"
ENVSH = REPO / "deploy" / "nginx-body-limit.envsh"
UPLOAD_MAX = 2 * 1024 * 1024  # BOT_UPLOAD_MAX_BYTES for the web and nginx here

pytestmark = pytest.mark.slow


def render(template: str, values: dict[str, str]) -> str:
    """What the official image's envsubst step does with ARENA_* set: every ${ARENA_X} replaced,
    nginx's own $variables left alone."""
    missing = set(re.findall(r"\$\{(ARENA_[A-Z_]+)\}", template)) - set(values)
    assert not missing, f"the template needs {sorted(missing)}"
    return re.sub(r"\$\{(ARENA_[A-Z_]+)\}", lambda m: values[m[1]], template)


def body_limit(upload_max: int) -> dict[str, str]:
    """What deploy/nginx-body-limit.envsh exports for a BOT_UPLOAD_MAX_BYTES, as the image's
    entrypoint sources it before filling the template."""
    script = f'. {ENVSH} && printf "%s\\n%s" "$ARENA_BODY_MAX_BYTES" "$ARENA_UPLOAD_LIMIT"'
    done = subprocess.run(
        ["sh", "-c", script],
        env={"PATH": os.environ["PATH"], "BOT_UPLOAD_MAX_BYTES": str(upload_max)},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    size, words = done.stdout.split("\n")
    return {"ARENA_BODY_MAX_BYTES": size, "ARENA_UPLOAD_LIMIT": words}


def main_config(prefix: Path, server_block: Path) -> str:
    """The `http` context around the deployment's server block, as the image's nginx.conf gives
    it, with every path nginx writes under ``prefix`` so that no root is needed."""
    temp = "\n".join(
        f"    {kind}_temp_path {prefix / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # Workers run as this process's user: as root, nginx would switch them to `nobody`, who cannot
    # read tmp_path (an unprivileged nginx ignores the directive).
    user = f"{pwd.getpwuid(os.getuid()).pw_name} {grp.getgrgid(os.getgid()).gr_name}"
    return f"""daemon off;
user {user};
worker_processes 1;
pid {prefix / "nginx.pid"};
error_log {prefix / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    include /etc/nginx/mime.types;
    access_log {prefix / "access.log"};
{temp}
    include {server_block};
}}
"""


def wait_listening(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_DEADLINE
    while True:
        assert process.poll() is None, f"exited {process.returncode}: {log.read_text()[-2000:]}"
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            assert time.monotonic() < deadline, f"nothing on port {port}: {log.read_text()}"
            time.sleep(0.1)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@dataclass
class Servers:
    gunicorn_port: int
    nginx_port: int
    static_css: bytes


@pytest.fixture(scope="module")
def servers(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Servers]:
    if not os.access(NGINX, os.X_OK):
        pytest.skip(f"nginx is not installed at {NGINX}")
    tmp = tmp_path_factory.mktemp("proxy")
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "CELERY_BROKER_URL"}}
    env.update(DATA_DIR=str(tmp / "data"), PYTHONUNBUFFERED="1", TRUSTED_PROXIES="127.0.0.1",
               BOT_UPLOAD_MAX_BYTES=str(UPLOAD_MAX))  # fmt: skip
    env.pop("WEB_CONCURRENCY", None)  # one sync worker: gunicorn's default, and the worst case
    gunicorn_port, nginx_port = free_port(), free_port()
    gunicorn_log = tmp / "gunicorn.log"
    with gunicorn_log.open("wb") as out:
        gunicorn = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "tournament.wsgi:application",
             "--bind", f"127.0.0.1:{gunicorn_port}", "--workers", "1", "--worker-class", "sync"],
            cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
    # The static files nginx serves itself: one of the site's, where collectstatic puts it.
    css = REPO / "website" / "static" / "website" / "site.css"
    static = tmp / "www" / "static" / "website"
    static.mkdir(parents=True)
    shutil.copy(css, static / "site.css")
    shutil.copy(css, static / f"site.{HASH}.css")  # a name only collectstatic's manifest makes
    prefix = tmp / "nginx"
    prefix.mkdir()
    block = prefix / "arena.conf"
    block.write_text(render(TEMPLATE.read_text(), {
        "ARENA_LISTEN": f"127.0.0.1:{nginx_port}",
        "ARENA_UPSTREAM": f"127.0.0.1:{gunicorn_port}",
        "ARENA_STATIC_PARENT": str(tmp / "www"),
        **body_limit(UPLOAD_MAX),
    }))  # fmt: skip
    (prefix / "nginx.conf").write_text(main_config(prefix, block))
    nginx_log = prefix / "error.log"
    nginx = subprocess.Popen(
        [NGINX, "-p", str(prefix), "-c", str(prefix / "nginx.conf"), "-e", str(nginx_log)],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        wait_listening(gunicorn_port, gunicorn, gunicorn_log)
        wait_listening(nginx_port, nginx, nginx_log)
        # Ready when Django answers (the first request imports the project).
        deadline = time.monotonic() + START_DEADLINE
        while probe(nginx_port, timeout=10) != 200:
            assert time.monotonic() < deadline, gunicorn_log.read_text()[-3000:]
            time.sleep(0.2)
        yield Servers(gunicorn_port, nginx_port, css.read_bytes())
    finally:
        stop(nginx)
        stop(gunicorn)


def probe(port: int, timeout: float = PROBE_TIMEOUT, path: str = "/healthz") -> int | None:
    """The status of GET path, or None when no answer came within ``timeout``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1"})
        return connection.getresponse().status
    except (TimeoutError, OSError, http.client.HTTPException):
        return None
    finally:
        connection.close()


@dataclass
class Slowloris:
    """Connections that send a request's headers one line every ``pause`` seconds, never the
    blank line that ends them."""

    port: int
    count: int = SLOW_CLIENTS
    pause: float = 0.5
    sockets: list[socket.socket] = field(default_factory=list)
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    def __enter__(self) -> Slowloris:
        for _ in range(self.count):
            sock = socket.create_connection(("127.0.0.1", self.port), timeout=5)
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            self.sockets.append(sock)
        self._thread = threading.Thread(target=self._drip, daemon=True)
        self._thread.start()
        return self

    def _drip(self) -> None:
        line = 0
        while not self._stop.wait(self.pause):
            line += 1
            for sock in self.sockets:
                with contextlib.suppress(OSError):  # the server hung up: open() below tells
                    sock.sendall(f"X-Slow-{line}: still typing\r\n".encode())

    def open(self) -> int:
        """How many of the connections the server still holds: not closed, nothing answered
        (a server that gave up would have sent 408/400 or closed)."""
        held = 0
        for sock in self.sockets:
            sock.setblocking(False)
            try:
                sock.recv(1)
            except BlockingIOError:
                held += 1
            except OSError:
                pass
            finally:
                sock.setblocking(True)
        return held

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        for sock in self.sockets:
            sock.close()


def test_healthz_answers_through_the_proxy_during_slowloris(servers: Servers) -> None:
    with Slowloris(servers.nginx_port) as attack:
        answers = [probe(servers.nginx_port) for _ in range(PROBES)]
        held = attack.open()
    assert answers == [200] * PROBES
    assert held == SLOW_CLIENTS, "the attack ended early: nginx dropped the slow connections"


def test_gunicorn_alone_starves_during_slowloris(servers: Servers) -> None:
    """Why the proxy is there: the same attack straight at gunicorn's sync worker."""
    assert probe(servers.gunicorn_port, timeout=10) == 200
    with Slowloris(servers.gunicorn_port):
        assert probe(servers.gunicorn_port) is None
    deadline = time.monotonic() + START_DEADLINE
    while probe(servers.gunicorn_port, timeout=10) != 200:  # back once the clients hung up
        assert time.monotonic() < deadline, "gunicorn did not recover after the attack"
        time.sleep(0.2)


def get(port: int, path: str) -> tuple[http.client.HTTPResponse, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path, headers={"Host": "127.0.0.1"})
        response = connection.getresponse()
        return response, response.read()
    finally:
        connection.close()


def test_proxy_serves_static_files_from_disk(servers: Servers) -> None:
    """/static/ comes from the collected files, never from gunicorn: a hashed name that only
    exists on nginx's disk is served, and kept by browsers for a year."""
    response, body = get(servers.nginx_port, f"/static/website/site.{HASH}.css")
    assert response.status == 200 and body == servers.static_css
    assert response.getheader("Content-Type", "").startswith("text/css")
    assert "immutable" in response.getheader("Cache-Control", "")
    assert get(servers.gunicorn_port, f"/static/website/site.{HASH}.css")[0].status == 404
    response, body = get(servers.nginx_port, "/static/website/site.css")
    assert response.status == 200 and body == servers.static_css
    assert "immutable" not in response.getheader("Cache-Control", "")


def test_the_body_limit_follows_the_upload_limit() -> None:
    assert body_limit(32 * 1024 * 1024) == {
        "ARENA_BODY_MAX_BYTES": str(32 * 1024 * 1024 + MULTIPART_OVERHEAD_BYTES),
        "ARENA_UPLOAD_LIMIT": "32 MiB",
    }
    assert body_limit(1000)["ARENA_UPLOAD_LIMIT"] == "1000 bytes"
    done = subprocess.run(["sh", "-c", f". {ENVSH}"], env={"BOT_UPLOAD_MAX_BYTES": "32m"},
                          capture_output=True, text=True, check=False)  # fmt: skip
    assert done.returncode != 0 and "is not a number of bytes" in done.stderr


def post_declared(port: int, path: str, declared: int, send: bytes = b"") -> tuple[int, str, bytes]:
    """POST with a declared Content-Length, sending ``send`` of the body (nginx refuses a
    declared length over its limit before reading any)."""
    with socket.create_connection(("127.0.0.1", port), timeout=20) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
            f"Content-Type: multipart/form-data; boundary=x\r\n"
            f"Content-Length: {declared}\r\n\r\n".encode() + send
        )
        response = http.client.HTTPResponse(sock)
        response.begin()
        return response.status, response.getheader("Content-Type", ""), response.read()


def test_a_body_over_the_limit_gets_the_apis_json_error_through_the_proxy(
    servers: Servers,
) -> None:
    """Beyond BOT_UPLOAD_MAX_BYTES + 64 KiB (the bound the web checks first) nginx answers
    itself, in the API's words and body shape; within it the body reaches the web whole. A
    page (the site's upload form) gets the sentence as plain text."""
    import json

    limit_words = "The file is too large: the limit is 2 MiB."
    status, kind, body = post_declared(servers.nginx_port, "/api/v1/bots/1/versions/",
                                       UPLOAD_MAX + 2 * 1024 * 1024)  # fmt: skip
    assert status == 413 and kind.startswith("application/json"), body
    error = json.loads(body)["error"]
    assert error["code"] == "too_large" and error["message"] == limit_words
    size = UPLOAD_MAX + 60 * 1024  # within nginx's limit: passed on whole, the web answers
    status, kind, body = post_declared(servers.nginx_port, "/api/v1/bots/1/versions/", size,
                                       b"-" * size)  # fmt: skip
    assert status == 401 and kind.startswith("application/json"), body
    status, kind, body = post_declared(servers.nginx_port, "/bots/1/upload/",
                                       UPLOAD_MAX + 2 * 1024 * 1024)  # fmt: skip
    assert status == 413 and kind.startswith("text/plain")
    assert body.decode().strip() == limit_words
