"""scripts/hosts.py: which services the hosts need, the fallback without namespaces, and (as
root) a namespace that reaches a forwarded service and nothing else."""

from __future__ import annotations

import socket
import subprocess
import sys
import threading

import pytest

from scripts import hosts
from scripts.hosts import HostNetwork, namespaces_possible, service_endpoints


def test_service_endpoints_are_the_loopback_services_of_the_environment():
    env = {
        "DATABASE_URL": "postgres://u:p@127.0.0.1:5433/db",
        "CELERY_BROKER_URL": "redis://localhost/3",
        "CACHE_URL": "redis://cache.example.com:6379/1",  # not on this machine: not forwarded
        "STORAGE_URL": "s3://k:s@b?endpoint_url=http://127.0.0.1:9100&region_name=x",
    }
    assert service_endpoints(env) == {
        "DATABASE_URL": ("127.0.0.1", 5433),
        "CELERY_BROKER_URL": ("127.0.0.1", 6379),
        "STORAGE_URL": ("127.0.0.1", 9100),
    }


def test_without_namespaces_hosts_are_plain_processes(tmp_path, monkeypatch):
    monkeypatch.setattr(hosts, "namespaces_possible", lambda: "not root")
    network = HostNetwork(names=["web"], services={}, state_dir=tmp_path).start()
    assert not network.available and network.reason == "not root"
    assert network.wrap("web", ["true"]) == ["true"]
    network.stop()


@pytest.mark.skipif(namespaces_possible() is not None, reason="network namespaces need root")
def test_a_host_reaches_its_forwarded_service_and_nothing_else(tmp_path):
    service, other = socket.socket(), socket.socket()
    for sock in (service, other):
        sock.bind(("127.0.0.1", 0))
        sock.listen()
    port, other_port = service.getsockname()[1], other.getsockname()[1]

    def answer() -> None:
        conn, _ = service.accept()
        with conn:
            conn.sendall(b"hello " + conn.recv(16))

    threading.Thread(target=answer, daemon=True).start()
    (tmp_path / "logs").mkdir()
    network = HostNetwork(
        names=["w1"], services={"X": ("127.0.0.1", port)}, state_dir=tmp_path, web=None
    ).start()
    try:
        assert network.available
        code = (
            "import socket\n"
            f"s = socket.create_connection(('127.0.0.1', {port}), timeout=5)\n"
            "s.sendall(b'host'); print(s.recv(32).decode())\n"
            "try:\n"
            f"    socket.create_connection(('127.0.0.1', {other_port}), timeout=2)\n"
            "    print('other: reached')\n"
            "except OSError:\n"
            "    print('other: refused')\n"
        )
        done = subprocess.run(
            network.wrap("w1", [sys.executable, "-c", code]),
            capture_output=True, text=True, timeout=30,
        )  # fmt: skip
        assert done.stdout.split("\n")[:2] == ["hello host", "other: refused"], done.stderr
    finally:
        network.stop()
        service.close()
        other.close()
    assert network.namespace("w1") not in subprocess.run(
        ["ip", "netns", "list"], capture_output=True, text=True
    ).stdout
