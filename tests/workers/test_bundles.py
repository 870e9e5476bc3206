"""Bundles: a single source file or a zip with a manifest; every bad upload is refused with a
reason a bot author can act on; unpacking writes exactly the bundle's files."""

from __future__ import annotations

import hashlib
import io
import json
import random
import stat
import zipfile
from pathlib import Path

import pytest

from workers.sandbox import bundles
from workers.sandbox.bundles import (
    BundleError,
    bot_command,
    languages,
    resolve_interpreter,
    unpack_bundle,
    validate_bundle,
)

MANIFEST = json.dumps({"entrypoint": "main.py", "language": "python3"})
SOURCE = b'print("hello")\n'


def zip_bytes(entries: dict[str, bytes | str], *, infos: list[zipfile.ZipInfo] | None = None,
              data: bytes = b"") -> bytes:  # fmt: skip
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
        for info in infos or []:
            archive.writestr(info, data)
    return buffer.getvalue()


def test_single_python_file(tmp_path: Path) -> None:
    path = tmp_path / "my_bot.py"
    path.write_bytes(SOURCE)
    info = validate_bundle(path)
    assert (info.kind, info.language, info.entrypoint) == ("file", "python3", "my_bot.py")
    assert info.sha256 == hashlib.sha256(SOURCE).hexdigest()
    assert info.size == len(SOURCE) and info.files == 1
    assert validate_bundle(SOURCE, "my_bot.py") == info  # bytes give the same answer


def test_an_odd_file_name_becomes_bot_py() -> None:
    assert validate_bundle(SOURCE, "my bot (2).py").entrypoint == "bot.py"


def test_zip_with_manifest() -> None:
    data = zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, "lib/helper.py": "x = 1\n"})
    info = validate_bundle(data, "cats.zip")
    assert (info.kind, info.entrypoint, info.files) == ("zip", "main.py", 3)
    assert info.sha256 == hashlib.sha256(data).hexdigest()


def test_zip_of_a_single_folder_is_unwrapped(tmp_path: Path) -> None:
    data = zip_bytes({"cats/bot.json": MANIFEST, "cats/main.py": SOURCE, "cats/": b""})
    info = unpack_bundle(data, "cats.zip", tmp_path / "out")
    assert info.entrypoint == "main.py"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["bot.json", "main.py"]
    assert (tmp_path / "out" / "main.py").read_bytes() == SOURCE


def test_manifest_name_and_version() -> None:
    manifest = json.dumps({"entrypoint": "main.py", "language": "python3", "name": "Tabby",
                           "version": "2.1"})  # fmt: skip
    info = validate_bundle(zip_bytes({"bot.json": manifest, "main.py": SOURCE}), "b.zip")
    assert (info.name, info.version) == ("Tabby", "2.1")


def _symlink_entry() -> zipfile.ZipInfo:
    info = zipfile.ZipInfo("link.py")
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    return info


def _with_encrypted_entry() -> bytes:
    """A zip whose central directory marks ``secret.py`` encrypted (zipfile cannot write one)."""
    data = bytearray(zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, "secret.py": "x"}))
    at = data.find(b"PK\x01\x02")
    while data[at + 46 : at + 55] != b"secret.py":
        at = data.find(b"PK\x01\x02", at + 4)
    data[at + 8] |= 0x1  # general purpose flag bit 0: encrypted
    return bytes(data)


@pytest.mark.parametrize(
    ("data", "filename", "reason"),
    [
        (b"", "bot.py", "the bundle is empty"),
        (SOURCE, "bot.rb", "a bundle is a .zip"),
        (b"\xff\xfe\x00", "bot.py", "not a text file"),
        (b"caf\xe9 = 1", "bot.py", "not UTF-8"),
        (b"PK not really", "bot.zip", "not a valid zip"),
        (zip_bytes({"main.py": SOURCE}), "b.zip", "no bot.json manifest"),
        (zip_bytes({"a/bot.json": MANIFEST, "b/main.py": SOURCE}), "b.zip", "no bot.json"),
        (zip_bytes({"bot.json": "{not json", "main.py": SOURCE}), "b.zip", "not valid JSON"),
        (zip_bytes({"bot.json": "[1]", "main.py": SOURCE}), "b.zip", "must be a JSON object"),
        (zip_bytes({"bot.json": '{"entrypoint": "main.py", "language": "python3", "x": 1}',
                    "main.py": SOURCE}), "b.zip", "unknown key(s) ['x']"),
        (zip_bytes({"bot.json": '{"entrypoint": "main.py", "language": "cobol"}',
                    "main.py": SOURCE}), "b.zip", "must be one of: binary, cpp, node, python3"),
        (zip_bytes({"bot.json": '{"language": "python3"}', "main.py": SOURCE}), "b.zip",
         "'entrypoint' must be"),
        (zip_bytes({"bot.json": MANIFEST, "other.py": SOURCE}), "b.zip",
         "entrypoint 'main.py' is not in the bundle"),
        (zip_bytes({"bot.json": '{"entrypoint": "run.sh", "language": "python3"}',
                    "run.sh": SOURCE}), "b.zip", "entrypoint ends with .py"),
        (zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, "/etc/cron.d/x": "x"}), "b.zip",
         "absolute path"),
        (zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, "../../evil.py": "x"}), "b.zip",
         "leaves the bundle folder"),
        (zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, "lib\\x.py": "x"}), "b.zip",
         "invalid name"),
        (zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE}, infos=[_symlink_entry()],
                   data=b"/etc/passwd"), "b.zip", "symbolic link"),
        (_with_encrypted_entry(), "b.zip", "encrypted"),
    ],
)  # fmt: skip
def test_bad_bundles_are_refused_with_a_reason(data: bytes, filename: str, reason: str) -> None:
    with pytest.raises(BundleError) as caught:
        validate_bundle(data, filename)
    assert reason in caught.value.reason


LONG_PART = "w" * 256 + ".py"


@pytest.mark.parametrize(
    ("entries", "reason"),
    [
        ({"lib": "x", "lib/util.py": "y"}, "zip entry 'lib' is a file, and other entries put"),
        ({"lib/util.py": "y", "lib": "x"}, "zip entry 'lib' is a file, and other entries put"),
        ({"data": "x", "data/deep/more/w.bin": "y"}, "zip entry 'data' is a file"),
        ({LONG_PART: "x"}, "has a name longer than 255 bytes"),
        ({"d/" + "é" * 128 + "/w": "x"}, "has a name longer than 255 bytes"),  # 256 bytes
        ({"/".join(["f" * 200] * 6): "x"}, "has a path longer than 1024 bytes"),
        ({"./": "x"}, "invalid name"),
    ],
)  # fmt: skip
def test_names_that_cannot_unpack_are_refused(entries: dict[str, str], reason: str) -> None:
    """A name a file system would refuse (a part over 255 bytes, a path over 1024) or that is
    both a file and a folder fails at upload, naming the entry, never later at unpacking."""
    data = zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, **entries})
    with pytest.raises(BundleError) as caught:
        validate_bundle(data, "b.zip")
    assert reason in caught.value.reason
    assert len(caught.value.reason) < 400  # a long name is cut short in the message


def test_names_up_to_the_limits_unpack(tmp_path: Path) -> None:
    part = "n" * 252 + ".py"  # 255 bytes
    data = zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, f"lib/{part}": "x",
                      "lib/": ""})  # fmt: skip
    validate_bundle(data, "b.zip")
    unpack_bundle(data, "b.zip", tmp_path / "out")
    assert (tmp_path / "out" / "lib" / part).read_text() == "x"


def test_duplicate_entries_are_refused() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("bot.json", MANIFEST)
        archive.writestr("main.py", SOURCE)
        with pytest.warns(UserWarning):
            archive.writestr("main.py", b"other")
    with pytest.raises(BundleError, match="appears twice"):
        validate_bundle(buffer.getvalue(), "b.zip")


def test_size_limits(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="limit is 10 bytes"):
        validate_bundle(SOURCE, "bot.py", max_bytes=10)
    path = tmp_path / "big.py"
    path.write_bytes(SOURCE)
    with pytest.raises(BundleError, match="limit is 10 bytes"):
        validate_bundle(path, max_bytes=10)
    monkeypatch.setattr(bundles, "MAX_ENTRIES", 2)
    with pytest.raises(BundleError, match="3 entries; the limit is 2"):
        validate_bundle(zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, "x": "1"}), "b.zip")
    monkeypatch.setattr(bundles, "MAX_ENTRIES", 500)
    monkeypatch.setattr(bundles, "MAX_UNCOMPRESSED_BYTES", 1000)
    bomb = zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, "pad": b"\0" * 5000})
    assert len(bomb) < 1000  # compresses well...
    with pytest.raises(BundleError, match="unpacks to more than 1000 bytes"):
        validate_bundle(bomb, "b.zip")  # ...but unpacks past the limit


def test_bytes_need_a_file_name_and_paths_must_exist(tmp_path: Path) -> None:
    with pytest.raises(BundleError, match="needs its file name"):
        validate_bundle(SOURCE)
    with pytest.raises(BundleError, match="cannot read the bundle"):
        validate_bundle(tmp_path / "missing.py")


def test_unpack_refuses_a_folder_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "old.txt").write_text("x")
    with pytest.raises(BundleError, match="not empty"):
        unpack_bundle(SOURCE, "bot.py", tmp_path)


def test_unpack_single_file(tmp_path: Path) -> None:
    info = unpack_bundle(SOURCE, "bot.py", tmp_path / "w")
    assert [p.name for p in (tmp_path / "w").iterdir()] == [info.entrypoint]


def test_language_table_and_command(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "python3" in languages()
    info = validate_bundle(SOURCE, "bot.py")
    monkeypatch.setenv("ISLE_BOT_PYTHON3", "/opt/py/bin/python3")
    assert resolve_interpreter("python3") == "/opt/py/bin/python3"
    assert bot_command(info, "/bot") == ["/opt/py/bin/python3", "-s", "-B", "/bot/bot.py"]
    monkeypatch.delenv("ISLE_BOT_PYTHON3")
    assert Path(resolve_interpreter("python3")).name.startswith("python3")
    with pytest.raises(BundleError, match="unknown language"):
        resolve_interpreter("cobol")


def _stored_zip(entries: dict[str, bytes | str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name, content in entries.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def test_a_member_with_a_bad_crc_is_refused_at_validation() -> None:
    """A damaged zip is refused at upload, not at unpack as a runner error."""
    data = bytearray(_stored_zip({"bot.json": MANIFEST, "main.py": SOURCE}))
    at = bytes(data).index(SOURCE)
    data[at] ^= 0x01  # one bit of main.py's stored bytes: its CRC no longer matches
    with pytest.raises(BundleError, match="'main.py' is damaged"):
        validate_bundle(bytes(data), "cats.zip")


def test_a_deflated_member_that_is_corrupt_is_refused() -> None:
    payload = random.Random(11).randbytes(20000)  # compresses badly: the data is long
    data = bytearray(zip_bytes({"bot.json": MANIFEST, "main.py": SOURCE, "big.txt": payload}))
    header = bytes(data).index(b"big.txt") + len(b"big.txt")
    for offset in range(header + 5000, header + 5020):
        data[offset] ^= 0xFF
    with pytest.raises(BundleError, match="'big.txt' is damaged"):
        validate_bundle(bytes(data), "cats.zip")


def test_unpacking_a_damaged_zip_fails_with_a_bundle_error(tmp_path: Path) -> None:
    """Unpacking skips validation's separate CRC pass (so a zip bundle is decompressed once
    per match); the extraction's own CRC check must still refuse a damaged member."""
    data = bytearray(_stored_zip({"bot.json": MANIFEST, "main.py": SOURCE}))
    at = bytes(data).index(SOURCE)
    data[at] ^= 0x01
    with pytest.raises(BundleError, match="'main.py' is damaged"):
        unpack_bundle(bytes(data), "cats.zip", tmp_path / "out")
