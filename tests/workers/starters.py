"""The starter kits of examples/ as the bundles an author would upload: Python and JavaScript
files as they are, C++ sources zipped with their manifest (compiled by the sandbox), C built
here with ``gcc -static`` and zipped as a ``binary`` bundle (sources are in the repository,
executables never are)."""

from __future__ import annotations

import json
import subprocess
import zipfile
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STARTERS = ("random", "heuristic")
KITS = ("python", "js", "cpp", "binary")


def zip_bundle(path: Path, manifest: dict[str, str], files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("bot.json", json.dumps(manifest))
        for name, data in files.items():
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16
            archive.writestr(info, data)
    return path


def cpp_bundle(starter: str, out: Path) -> Path:
    kit = EXAMPLES / "cpp"
    source = f"{starter}_bot.cpp"
    files = {source: (kit / source).read_bytes(), "arena.hpp": (kit / "arena.hpp").read_bytes()}
    manifest = {"entrypoint": source, "language": "cpp", "name": f"{starter} c++"}
    return zip_bundle(out / f"{starter}_cpp.zip", manifest, files)


def binary_bundle(starter: str, out: Path) -> Path:
    """Compile the C starter as the kit's Makefile does (gcc -static) and zip it."""
    kit = EXAMPLES / "binary"
    exe = out / f"{starter}_bot"
    subprocess.run(
        ["gcc", "-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-o", str(exe),
         str(kit / f"{starter}_bot.c")],
        check=True, capture_output=True,
    )  # fmt: skip
    manifest = {"entrypoint": exe.name, "language": "binary", "name": f"{starter} c"}
    return zip_bundle(out / f"{starter}_binary.zip", manifest, {exe.name: exe.read_bytes()})


def starter_bundle(kit: str, starter: str, out: Path) -> Path:
    if kit == "python":
        return EXAMPLES / "bots" / f"{starter}_bot.py"
    if kit == "js":
        return EXAMPLES / "js" / f"{starter}_bot.js"
    if kit == "cpp":
        return cpp_bundle(starter, out)
    return binary_bundle(starter, out)
