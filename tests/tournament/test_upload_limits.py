"""The bundle upload limit holds while the body streams in: a 50 MiB upload is
refused before it is read in full, and a damaged zip is refused at upload."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.test import Client

from tests.tournament.conftest import client_for
from tournament.models import Bot

pytestmark = pytest.mark.django_db

BOUNDARY = "arena-test-boundary"
FIFTY_MIB = 50 * 1024 * 1024


class CountingBody(io.RawIOBase):
    """A multipart body of `size` bytes made on the fly, counting what the server reads."""

    def __init__(self, size: int, filename: str = "big.py") -> None:
        self.head = (
            f"--{BOUNDARY}\r\nContent-Disposition: form-data; name=\"file\"; "
            f"filename=\"{filename}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        ).encode()
        self.tail = f"\r\n--{BOUNDARY}--\r\n".encode()
        self.size = size
        self.read_bytes = 0

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        left = self.size - self.read_bytes
        n = left if n is None or n < 0 else min(n, left)
        out = bytearray()
        while len(out) < n:
            pos = self.read_bytes + len(out)
            if pos < len(self.head):
                out += self.head[pos : pos + n - len(out)]
            elif pos >= self.size - len(self.tail):
                start = pos - (self.size - len(self.tail))
                out += self.tail[start : start + n - len(out)]
            else:
                end = min(self.size - len(self.tail), pos + n - len(out))
                out += b"#" * (end - pos)
        self.read_bytes += len(out)
        return bytes(out)

    def readline(self, size: int = -1) -> bytes:
        return self.read(size if size and size > 0 else 65536)


def _upload(client: Client, bot_id: int, body: CountingBody, declared: int | None):
    extra = {"wsgi.input": body}
    if declared is not None:
        extra["CONTENT_LENGTH"] = str(declared)
    return client.generic(
        "POST", f"/api/v1/bots/{bot_id}/versions/", b"",
        content_type=f"multipart/form-data; boundary={BOUNDARY}", **extra,
    )  # fmt: skip


@pytest.fixture
def bot(author) -> Bot:
    return Bot.objects.create(name="big", owner=author)


def test_a_50_mib_upload_is_refused_before_it_is_read(author, bot):
    body = CountingBody(FIFTY_MIB)
    response = client_for(author).generic(
        "POST", f"/api/v1/bots/{bot.pk}/versions/", b"",
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
        **{"wsgi.input": body, "CONTENT_LENGTH": str(FIFTY_MIB)},
    )  # fmt: skip
    assert response.status_code == 413, response.content[:300]
    error = json.loads(response.content)["error"]
    assert error["code"] == "too_large"
    assert error["message"] == "The file is too large: the limit is 32 MiB."
    assert body.read_bytes == 0


def test_a_session_upload_is_refused_before_the_csrf_check_reads_it(author, bot):
    client = Client(enforce_csrf_checks=True)
    client.force_login(author)
    body = CountingBody(FIFTY_MIB)
    response = _upload(client, bot.pk, body, FIFTY_MIB)
    assert response.status_code == 413 and body.read_bytes == 0


def test_a_zip_with_a_bad_crc_is_refused_at_upload(author, bot):
    buffer = io.BytesIO()
    source = b'print("hello")\n'
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("bot.json", json.dumps({"entrypoint": "main.py", "language": "python3"}))
        archive.writestr("main.py", source)
    data = bytearray(buffer.getvalue())
    data[bytes(data).index(source)] ^= 0x01
    upload = io.BytesIO(bytes(data))
    upload.name = "damaged.zip"
    response = client_for(author).post(
        f"/api/v1/bots/{bot.pk}/versions/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bundle_rejected" and "damaged" in error["message"]
    assert not bot.versions.exists()


def test_the_site_upload_form_refuses_a_50_mib_body_before_reading_it(author, bot):
    client = Client(enforce_csrf_checks=True)
    client.force_login(author)
    body = CountingBody(FIFTY_MIB)
    response = client.generic(
        "POST", f"/bots/{bot.pk}/upload/", b"",
        content_type=f"multipart/form-data; boundary={BOUNDARY}",
        **{"wsgi.input": body, "CONTENT_LENGTH": str(FIFTY_MIB)},
    )  # fmt: skip
    assert response.status_code == 413
    assert body.read_bytes == 0


@pytest.mark.parametrize(
    ("names", "named"),
    [
        (["lib", "lib/util.py"], "'lib' is a file, and other entries put files inside 'lib/'"),
        (["x" * 300 + ".py"], "has a name longer than 255 bytes"),
    ],
)  # fmt: skip
def test_a_zip_whose_names_cannot_unpack_is_refused_at_upload(author, bot, names, named):
    """A file/folder clash or a 300-character name fails the upload with a 400 naming the
    entry, not the validation match later."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.json", json.dumps({"entrypoint": "main.py", "language": "python3"}))
        archive.writestr("main.py", b'print("hello")\n')
        for name in names:
            archive.writestr(name, b"x")
    upload = io.BytesIO(buffer.getvalue())
    upload.name = "clash.zip"
    response = client_for(author).post(
        f"/api/v1/bots/{bot.pk}/versions/", {"file": upload}, format="multipart"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "bundle_rejected" and named in error["message"]
    assert not bot.versions.exists()
