"""An S3-compatible server for tests, benchmarks and `stack.sh start --hosts`: moto in server
mode (a dev dependency, requirements-dev.txt), run as its own process.

    with S3Server() as s3:                      # 127.0.0.1, a free port
        s3.create_bucket("arena")
        env = {"STORAGE_URL": s3.storage_url("arena")}

    python scripts/s3server.py --host 127.0.0.1 --port 9000 --bucket arena   # in the foreground

moto keeps objects in memory: it is a stand-in for MinIO or S3, not a place for real data.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as `python scripts/s3server.py`
    sys.path.insert(0, str(REPO))

from scripts.lifecycle import Lifecycle  # noqa: E402 - needs REPO on sys.path

ACCESS_KEY = "arena-test"
SECRET_KEY = "arena-test-secret"
REGION = "us-east-1"


class S3ServerError(RuntimeError):
    """moto did not start (not installed, or the port was taken)."""


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


class S3Server(Lifecycle):
    """One moto server process; ``endpoint`` is its URL."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int | None = None,
        log_path: str | os.PathLike[str] | None = None,
        python: str | None = None,
    ) -> None:
        self.host = host
        self.port = port or free_port(host)
        self.log_path = Path(log_path) if log_path else None
        self.python = python or sys.executable
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def endpoint(self) -> str:
        return f"http://{self.host}:{self.port}"

    def storage_url(self, bucket: str, endpoint: str | None = None) -> str:
        """STORAGE_URL for this server (``endpoint``: another address that reaches it)."""
        return (
            f"s3://{ACCESS_KEY}:{SECRET_KEY}@{bucket}"
            f"?endpoint_url={endpoint or self.endpoint}&region_name={REGION}"
        )

    def start(self, timeout: float = 60.0) -> S3Server:
        out = self.log_path.open("ab") if self.log_path else subprocess.DEVNULL
        try:
            self.process = subprocess.Popen(
                [self.python, "-m", "moto.server", "-H", self.host, "-p", str(self.port)],
                stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                start_new_session=True,
            )  # fmt: skip
        finally:
            if self.log_path:
                out.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise S3ServerError(
                    f"moto exited with {self.process.returncode} (is moto[server] installed, "
                    f"port {self.port} free?)"
                )
            if _answers(self.endpoint):
                return self
            if time.monotonic() > deadline:
                self.stop()
                raise S3ServerError(f"moto did not answer on {self.endpoint} in {timeout:.0f}s")
            time.sleep(0.1)

    def client(self):  # noqa: ANN201 - a boto3 client
        import boto3

        return boto3.client(
            "s3", endpoint_url=self.endpoint, region_name=REGION,
            aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
        )  # fmt: skip

    def create_bucket(self, name: str) -> None:
        self.client().create_bucket(Bucket=name)

    def keys(self, bucket: str, prefix: str = "") -> list[str]:
        paginator = self.client().get_paginator("list_objects_v2")
        return [
            item["Key"]
            for page in paginator.paginate(Bucket=bucket, Prefix=prefix)
            for item in page.get("Contents", [])
        ]

    def stop(self) -> None:
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        self.process = None


def _answers(endpoint: str) -> bool:
    try:
        with urllib.request.urlopen(endpoint + "/", timeout=2) as response:
            return response.status < 500
    except urllib.error.HTTPError as exc:
        return exc.code < 500
    except OSError:
        return False


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0: a free port")
    parser.add_argument("--bucket", default="arena", help="bucket to create")
    args = parser.parse_args(argv)
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    server = S3Server(args.host, args.port or None)
    try:
        server.start()
    except S3ServerError as exc:
        print(f"s3server: {exc}", file=sys.stderr)
        return 1
    server.create_bucket(args.bucket)
    print(f"STORAGE_URL={server.storage_url(args.bucket)}", flush=True)
    try:
        signal.sigwait({signal.SIGINT, signal.SIGTERM})
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
