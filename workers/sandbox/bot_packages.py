"""Python packages a bot language offers beyond the standard library (``"packages"`` in
data/languages.json: ``python3-numpy`` offers numpy), shown to the bot read-only and alone.

The packages are the worker's own installation (requirements.txt pins them; the worker image
installs them), found by importing nothing: ``importlib.util.find_spec`` says where each one
lives. A bot must see those packages and nothing else of the worker's environment:

* in a jail (filesystem isolation) only the package folders (and their wheels' ``<name>.libs``
  folders of shared libraries) are bound read-only, at their own paths, and their
  site-packages folder goes on the bot's ``PYTHONPATH``: inside the jail that folder holds
  those packages alone;
* without a jail the bot could read the whole host anyway, but its ``sys.path`` still offers
  only the packages: ``PYTHONPATH`` is a folder of symbolic links to them, made once per host
  under the sandbox root.

The bot's interpreter must be the Python the packages were built for (same major.minor);
``PackageSite.for_language`` checks it once per interpreter. No Django here.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import subprocess
import sys
import uuid
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from .bundles import BundleError, language_spec, resolve_interpreter


class PackagesMissing(Exception):
    """The worker cannot offer a language's packages (not installed, another Python)."""


@dataclass(frozen=True)
class PackageSite:
    """Where a language's packages are, for one worker host."""

    sources: tuple[str, ...]  # the real folders (and files) of the packages
    parents: tuple[str, ...]  # their site-packages folders, in order
    links: str  # a folder of symbolic links to ``sources`` (bots without a jail)

    def python_path(self, jail: bool) -> str:
        """The bot's ``PYTHONPATH``."""
        return ":".join(self.parents) if jail else self.links

    def readonly_dirs(self, jail: bool) -> tuple[str, ...]:
        """The host folders a jailed bot is shown (none without a jail: it sees the host)."""
        return tuple(s for s in self.sources if os.path.isdir(s)) if jail else ()


def _locate(name: str) -> list[str]:
    """The real paths of an installed package (or module) and of its wheel's ``.libs``."""
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        raise PackagesMissing(f"the package {name!r} is not installed on this worker")
    if spec.submodule_search_locations:
        found = os.path.realpath(next(iter(spec.submodule_search_locations)))
    else:
        found = os.path.realpath(spec.origin)
    libs = os.path.join(os.path.dirname(found), f"{name}.libs")
    return [found, libs] if os.path.isdir(libs) else [found]


@cache
def _python_version(interpreter: str) -> str:
    out = subprocess.run(
        [interpreter, "-S", "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip
    return out.stdout.strip() or f"unknown ({out.stderr.strip()[:200]})"


def _link_folder(root: Path, sources: list[str]) -> str:
    """A folder of links named like the sources, made once (atomically) under ``root``."""
    key = hashlib.sha256("\n".join(sources).encode()).hexdigest()[:16]
    folder = root / key
    if folder.is_dir():
        return str(folder)
    root.mkdir(mode=0o755, parents=True, exist_ok=True)
    os.chmod(root, 0o755)
    staging = root / f".{key}-{uuid.uuid4().hex[:8]}"
    staging.mkdir(mode=0o755)
    for source in sources:
        os.symlink(source, staging / os.path.basename(source))
    try:
        os.rename(staging, folder)
    except OSError:  # another worker made it first
        for entry in staging.iterdir():
            entry.unlink()
        staging.rmdir()
    return str(folder)


def package_site(language: str, root: Path) -> PackageSite | None:
    """The packages of ``language`` (None when it offers none), with their link folder under
    ``root``. Raises ``PackagesMissing`` when this worker cannot offer them."""
    names = language_spec(language).get("packages") or ()
    if not names:
        return None
    sources = _sources(language, tuple(names))
    parents = tuple(dict.fromkeys(os.path.dirname(s) for s in sources))
    return PackageSite(sources, parents, _link_folder(root, list(sources)))


@cache
def _sources(language: str, names: tuple[str, ...]) -> tuple[str, ...]:
    """Where the packages are (looked up once per process), after checking that the bots'
    interpreter is the Python they were installed for."""
    try:
        interpreter = resolve_interpreter(language)
    except BundleError as exc:
        raise PackagesMissing(exc.reason) from None
    ours = f"{sys.version_info[0]}.{sys.version_info[1]}"
    theirs = _python_version(interpreter)
    if theirs != ours:
        raise PackagesMissing(
            f"{language} bots run {interpreter} (Python {theirs}), but this worker's "
            f"{', '.join(names)} is installed for Python {ours}"
        )
    return tuple(path for name in names for path in _locate(name))
