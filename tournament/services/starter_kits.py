"""The starter kits of the "Write a bot" page: one zip per language, each an upload bundle as
it is (bot.json at its root, the entry point beside it), made from examples/ as described by
examples/starter_kits.json, so the kits never drift from the examples the tests play.

A kit is built on its first download and kept under DATA_DIR/starter-kits/, named by the hash
of everything it is made of (the description, the sources and the README), so a changed
example makes a new zip and an unchanged one is never rebuilt. The static-binary kit is
compiled then (gcc -static, as examples/binary/Makefile does); a server without gcc or the
static C library answers with a plain message instead of a broken zip. Zip entries carry a
fixed date, so the same sources give the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import subprocess
import tempfile
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

from ..errors import ArenaError, NotFound

EXAMPLES = Path(settings.BASE_DIR) / "examples"
KITS_FILE = EXAMPLES / "starter_kits.json"
ZIP_DATE = (2024, 1, 1, 0, 0, 0)
BUILD_TIMEOUT_SECONDS = 120


class KitUnavailable(ArenaError):
    code = "kit_unavailable"
    status = 503


@dataclass(frozen=True)
class StarterKit:
    slug: str
    title: str
    language: str
    entrypoint: str
    files: dict[str, str]  # name in the zip -> path under examples/
    summary: str
    build: tuple[str, ...] = ()

    @property
    def filename(self) -> str:
        return f"isle-arena-{self.slug}-starter.zip"


@cache
def _kits(mtime: float) -> dict[str, StarterKit]:
    raw: dict[str, Any] = json.loads(KITS_FILE.read_text(encoding="utf-8"))
    return {
        slug: StarterKit(slug=slug, title=k["title"], language=k["language"],
                         entrypoint=k["entrypoint"], files=dict(k["files"]),
                         summary=k["summary"], build=tuple(k.get("build", ())))  # fmt: skip
        for slug, k in raw.items()
    }


def starter_kits() -> list[StarterKit]:
    """Every kit, in the order of examples/starter_kits.json."""
    return list(_kits(KITS_FILE.stat().st_mtime).values())


def starter_kit_get(slug: str) -> StarterKit:
    kit = _kits(KITS_FILE.stat().st_mtime).get(slug)
    if kit is None:
        raise NotFound(f"There is no starter kit {slug!r}.")
    return kit


def kit_readme(kit: StarterKit, *, site: str = "") -> str:
    """The README.md at the top of the zip: what the kit is and the commands from here to a
    rated match."""
    lines = [
        f"# Isle Arena starter kit: {kit.title}",
        "",
        kit.summary,
        "",
        "This zip is an upload bundle as it is: `bot.json` names the language"
        f" (`{kit.language}`) and the entry point (`{kit.entrypoint}`).",
        "",
        "## From here to a rated match",
        "",
        "```sh",
        "pip install -e .    # in a clone of Isle Arena: the `isle-arena` command",
        f"isle-arena play --mode duel --bots {kit.filename},random   # a local game, sandboxed",
        f"isle-arena login --server {site or 'https://YOUR-SERVER'} --username YOU"
        " --password-stdin",
        "isle-arena create mybot",
        f"isle-arena submit {kit.filename} --bot mybot   # waits for its validation match",
        'isle-arena enter "Open duel ladder" mybot    # its first rated matches follow',
        "```",
        "",
        "Edit the entry point, zip the folder again (bot.json at the top) and submit it as a new"
        " version; enter the ladder again to rate the new version.",
        "",
        "Or upload the zip on your bot's page of the site and press Enter on the ladder's page.",
        "The protocol: docs/bot-protocol.md (on the site: /docs/protocol/).",
    ]
    return "\n".join(lines) + "\n"


def _source_bytes(kit: StarterKit) -> dict[str, bytes]:
    return {name: (EXAMPLES / path).read_bytes() for name, path in kit.files.items()}


def _manifest(kit: StarterKit) -> bytes:
    body = {"entrypoint": kit.entrypoint, "language": kit.language, "name": f"{kit.slug}-starter"}
    return (json.dumps(body, indent=2) + "\n").encode()


def _build(kit: StarterKit, sources: dict[str, bytes]) -> dict[str, bytes]:
    """The files the kit's build makes (the static binary), compiled in a scratch folder."""
    if not kit.build:
        return {}
    with tempfile.TemporaryDirectory(prefix="starter-kit-") as scratch:
        for name, data in sources.items():
            (Path(scratch) / name).write_bytes(data)
        try:
            done = subprocess.run(list(kit.build), cwd=scratch, capture_output=True, text=True,
                                  timeout=BUILD_TIMEOUT_SECONDS)  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise KitUnavailable(
                f"The {kit.title} starter kit cannot be built on this server ({exc})."
            ) from None
        if done.returncode != 0:
            first = (done.stderr.strip().splitlines() or ["no output"])[0]
            raise KitUnavailable(
                f"The {kit.title} starter kit cannot be built on this server: {first}"
            )
        return {kit.entrypoint: (Path(scratch) / kit.entrypoint).read_bytes()}


def _pack(members: dict[str, bytes], executables: set[str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = (0o755 if name in executables else 0o644) << 16
            archive.writestr(info, members[name])
    return out.getvalue()


def starter_kit_zip(slug: str, *, site: str = "") -> tuple[StarterKit, bytes]:
    """The kit and its zip's bytes, built once per content and kept under DATA_DIR."""
    kit = starter_kit_get(slug)
    sources = _source_bytes(kit)
    readme = kit_readme(kit, site=site).encode()
    digest = hashlib.sha256(_manifest(kit) + readme + json.dumps(kit.build).encode())
    for name in sorted(sources):
        digest.update(name.encode() + b"\0" + sources[name])
    folder = Path(settings.DATA_DIR) / "starter-kits"
    path = folder / f"{slug}-{digest.hexdigest()[:16]}.zip"
    if path.is_file():
        return kit, path.read_bytes()
    built = _build(kit, sources)
    members = {**sources, **built, "bot.json": _manifest(kit), "README.md": readme}
    data = _pack(members, set(built))
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(path)  # atomic: a concurrent download reads a whole zip or builds its own
    return kit, data
