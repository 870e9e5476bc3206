"""Compiled languages: turn a bundle of sources into a runnable bundle, once, in the sandbox.

A language with a ``build`` recipe in ``workers/data/languages.json`` (C++) is compiled by
``build_bundle``: its sources are unpacked into a ``BotSandbox`` of their own and the
compiler runs there like a bot (own uid, no network, the jail, resource limits), with a
wall-clock time limit and a memory limit (``BuildLimits``); only ``/out`` is writable.
The result is a new bundle of the recipe's output language (``binary``: a zip holding the
static executable and a ``bot.json``), written deterministically so that the same
executable always gives the same sha256; the tournament stores it content-addressed and
matches run it without compiling again. The compiler's output (the build log) is kept, its
head first, because the first error is the one an author needs.

``cached_build`` is the same with a cache on this machine keyed by the sources' sha256
(used when a source bundle is played directly, e.g. by ``play``), under
``<sandbox root>/builds``. Like the bundle cache it is bounded: past
``$ISLE_BUILD_CACHE_MAX_BYTES`` the least recently used builds are deleted, except those used
in the last ``BUILD_CACHE_KEEP_RECENT`` seconds (another process may be about to read one).
Several processes may share the folder: entries appear by atomic rename and are read whole
in one go, so an entry deleted under a reader costs at most a compile again. No Django here.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import selectors
import signal
import subprocess
import tempfile
import time
import zipfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from competition.limits import Limits

from .bot_process import SYSTEM_PATH, BotSandbox, SandboxError, sandbox_root
from .bundle_cache import evict_lru, lru_entries, max_bytes_from_env, touch
from .bundles import MANIFEST, BundleError, Source, language_spec, resolve_tool, validate_bundle
from .elf import ElfError, check_static_x86_64
from .isolation import (
    JAIL_OUTDIR,
    JAIL_WORKDIR,
    Isolation,
    LaunchPlan,
    detect_isolation,
    kill_uid,
    spawn,
)

OUTPUT_NAME = "bot"  # the executable inside the built bundle
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)  # fixed entry times: the same executable, the same bytes
BUILD_CACHE_ENV = "ISLE_BUILD_CACHE_MAX_BYTES"
BUILD_CACHE_MAX_BYTES = 256 * 1024 * 1024  # about a hundred static C++ bots
BUILD_CACHE_KEEP_RECENT = 120.0  # seconds: builds used this recently are never deleted
_INCOMING = ".incoming-"  # a build being written; renamed into place when complete
_INCOMING_STALE = 3600.0  # seconds: a partial file this old is of a process that died


@dataclass(frozen=True)
class BuildLimits:
    """What one compilation may use; the defaults fit a few thousand lines of C++."""

    seconds: float = 120.0  # wall clock, from launch to exit
    memory_mb: int = 1024  # address space of each compiler process (cc1plus is the largest)
    cpu_seconds: int = 120  # CPU time of each compiler process
    processes: int = 32
    output_mb: int = 64  # largest file written (the executable; temporary files)
    log_bytes: int = 64 * 1024  # the head of the compiler's output that is kept

    def sandbox_limits(self) -> Limits:
        return Limits(
            memory_mb=self.memory_mb,
            cpu_seconds=self.cpu_seconds,
            processes=self.processes,
            file_size_mb=self.output_mb,
            startup_seconds=self.seconds,
        )


@dataclass
class BuildResult:
    ok: bool
    log: str  # the compiler's output (head), plus our own line on how the build ended
    reason: str  # one line: "" when ok, else why the build failed (the first compiler error)
    source_sha256: str
    language: str
    seconds: float
    bundle: bytes | None = None  # the built bundle (a zip), when ok
    filename: str | None = None
    sha256: str | None = None

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out.pop("bundle")
        return out


class BuildFailed(SandboxError):
    """A build that did not produce a runnable bot; ``result`` holds the log."""

    def __init__(self, result: BuildResult) -> None:
        super().__init__(f"the build failed: {result.reason}")
        self.result = result


def _sources(root: Path, suffixes: list[str]) -> list[str]:
    return sorted(
        str(p.relative_to(root))
        for p in root.rglob("*")
        if p.is_file() and p.suffix.lower() in suffixes
    )


def _shown(arg: str, compiler: str, root: str, output: str) -> str:
    """One argument of the compile command as the author reads it (paths of their zip; no
    folder of this machine)."""
    if arg in (compiler, output):
        return PurePosixPath(arg).name
    if arg == root:
        return "."
    return arg[len(root) + 1 :] if arg.startswith(root + "/") else arg


def _first_error(log: str) -> str:
    """The line an author needs first: the compiler's (or linker's) first error, else the last
    line of its output."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    for marker in ("error:", "error"):
        for line in lines:
            if marker in line.lower():
                return line[:500]
    return lines[-1][:500] if lines else "no output"


def _run(plan: LaunchPlan, env: dict[str, str], limits: BuildLimits, uid: int | None) -> tuple[
    int | None, str
]:
    """Run the compiler; (exit status or None on timeout, the head of its output)."""
    proc = spawn(plan, env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                 stderr=subprocess.STDOUT)  # fmt: skip
    assert proc.stdout is not None
    head, total = bytearray(), 0
    deadline = time.monotonic() + limits.seconds
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    timed_out = False
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                timed_out = True
                break
            if not sel.select(min(remaining, 1.0)):
                continue
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                break
            total += len(chunk)
            if len(head) < limits.log_bytes:
                head += chunk[: limits.log_bytes - len(head)]
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    if uid is not None:
        kill_uid(uid)
    rc = proc.wait()
    proc.stdout.close()
    log = head.decode("utf-8", "replace")
    if total > len(head):
        log += f"\n... ({total - len(head)} more bytes of compiler output cut)"
    return (None if timed_out else rc), log


def _built_zip(executable: bytes, manifest: dict[str, Any]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        info = zipfile.ZipInfo(MANIFEST, _ZIP_TIME)
        info.external_attr = 0o644 << 16
        archive.writestr(info, json.dumps(manifest, sort_keys=True))
        info = zipfile.ZipInfo(OUTPUT_NAME, _ZIP_TIME)
        info.external_attr = 0o755 << 16
        info.compress_type = zipfile.ZIP_DEFLATED
        archive.writestr(info, executable)
    return buf.getvalue()


def build_bundle(
    source: Source,
    filename: str | None = None,
    *,
    limits: BuildLimits | None = None,
    isolation: Isolation | None = None,
    require_isolation: Sequence[str] = (),
) -> BuildResult:
    """Compile a source bundle in the sandbox. A failed compile is a result with ``ok``
    False and the compiler's log, not an exception; a bundle that is no source bundle
    raises ``BundleError``; a layer of ``require_isolation`` missing here raises
    ``IsolationMissing`` before the compiler starts (it runs the author's build)."""
    limits = limits or BuildLimits()
    isolation = isolation if isolation is not None else detect_isolation()
    isolation.require(tuple(require_isolation))
    started = time.monotonic()
    with BotSandbox(source, filename, limits=limits.sandbox_limits(), isolation=isolation,
                    label="build") as box:  # fmt: skip
        info = box.info
        recipe = language_spec(info.language).get("build")
        if recipe is None:
            raise BundleError(f"{info.language} bundles are not built")

        def result(ok: bool, log: str, reason: str = "", **extra: Any) -> BuildResult:
            seconds = round(time.monotonic() - started, 3)
            return BuildResult(ok=ok, log=log, reason=reason, source_sha256=info.sha256,
                               language=info.language, seconds=seconds, **extra)  # fmt: skip

        sources = _sources(box.workdir, recipe["sources"])
        if not sources:
            return result(False, "", f"no source files ({', '.join(recipe['sources'])})")
        jailed = box.isolation.filesystem
        out = box.output_dir()
        root = JAIL_WORKDIR if jailed else str(box.workdir)
        output = str(PurePosixPath(JAIL_OUTDIR if jailed else str(out), OUTPUT_NAME))
        try:
            compiler = resolve_tool(recipe["compiler"])
        except BundleError as exc:
            return result(False, "", exc.reason)
        command: list[str] = []
        for part in recipe["command"]:
            if part == "{sources}":
                command += [str(PurePosixPath(root, s)) for s in sources]
            else:
                command.append(part.format(compiler=compiler, root=root, output=output))
        plan = LaunchPlan(
            command=tuple(command),
            workdir=str(box.workdir),
            limits=box.limits,
            isolation=box.isolation,
            uid=box.uid,
            jail_root=str(box.dir / "jail") if jailed else None,
            output_dir=str(out),
        )
        # LANG=C: plain ASCII quotes in the compiler's messages, whatever the machine's locale
        env = {**box.environment(), "PATH": SYSTEM_PATH, "LANG": "C"}
        shown = " ".join(_shown(arg, compiler, root, output) for arg in command)
        try:
            rc, said = _run(plan, env, limits, box.uid)
        except OSError as exc:
            return result(False, "", f"the compiler could not start: {exc}")
        # paths as in the zip ("main.cpp:2:29: error: ..."), and no folder of this machine
        said = said.replace(f"{root}/", "").replace(f"{out}/", "")
        log = f"$ {shown}\n{said}"
        if rc is None:
            reason = f"the build took longer than {limits.seconds:g} s"
            return result(False, f"{log}\n{reason}", reason)
        if rc != 0:
            status = f"killed by signal {-rc}" if rc < 0 else f"exited with status {rc}"
            return result(False, f"{log}\nthe compiler {status}", _first_error(said))
        try:
            executable = (out / OUTPUT_NAME).read_bytes()
            check_static_x86_64(executable)
        except (OSError, ElfError) as exc:
            reason = f"the build made no static executable ({exc})"
            return result(False, f"{log}\n{reason}", reason)
        manifest: dict[str, Any] = {"entrypoint": OUTPUT_NAME, "language": recipe["language"]}
        for key in ("name", "version"):
            if getattr(info, key):
                manifest[key] = getattr(info, key)
        manifest["description"] = f"built from {info.language} sources {info.sha256[:12]}"
        data = _built_zip(executable, manifest)
        sha = hashlib.sha256(data).hexdigest()
        log += f"\nbuilt {len(executable)} bytes in {time.monotonic() - started:.1f} s"
        return result(True, log, bundle=data, filename=f"{sha[:16]}.zip", sha256=sha)


def _recipe_key(language: str) -> str:
    recipe = json.dumps(language_spec(language).get("build"), sort_keys=True)
    return hashlib.sha256(recipe.encode()).hexdigest()[:12]


def cached_build(
    source: Source,
    filename: str | None = None,
    *,
    limits: BuildLimits | None = None,
    isolation: Isolation | None = None,
) -> tuple[bytes, str]:
    """The built bundle of a source bundle (bytes, file name), compiled at most once per
    machine for the same sources and recipe; raises ``BuildFailed`` with the log."""
    info = validate_bundle(source, filename)
    max_bytes = build_cache_max_bytes()
    cache = sandbox_root() / "builds"
    cache.mkdir(mode=0o700, exist_ok=True)
    path = cache / f"{info.sha256}-{_recipe_key(info.language)}.zip"
    with contextlib.suppress(OSError):
        data = path.read_bytes()
        touch(path)
        return data, path.name
    result = build_bundle(source, filename, limits=limits, isolation=isolation)
    if not result.ok or result.bundle is None:
        raise BuildFailed(result)
    fd, tmp = tempfile.mkstemp(dir=cache, prefix=_INCOMING)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(result.bundle)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    prune_build_cache(cache, max_bytes=max_bytes, protect=path)
    return result.bundle, path.name


def build_cache_max_bytes() -> int:
    """The size limit of the build cache: ``$ISLE_BUILD_CACHE_MAX_BYTES``, else 256 MiB."""
    try:
        return max_bytes_from_env(BUILD_CACHE_ENV, BUILD_CACHE_MAX_BYTES)
    except ValueError as exc:
        raise SandboxError(str(exc)) from None


def prune_build_cache(cache: Path, *, max_bytes: int, protect: Path | None = None) -> list[Path]:
    """Delete the least recently used builds until the cache fits in ``max_bytes`` (never
    ``protect``, the build just made, nor any used in the last BUILD_CACHE_KEEP_RECENT
    seconds), and partial files left by processes that died; returns what went."""
    stale = time.time() - _INCOMING_STALE
    removed = []
    for written, _, partial in lru_entries(cache.glob(f"{_INCOMING}*")):
        if written < stale:
            with contextlib.suppress(FileNotFoundError):
                partial.unlink()
                removed.append(partial)
    entries = lru_entries(cache.glob("*.zip"))
    return removed + evict_lru(
        entries, max_bytes=max_bytes, keep_recent=BUILD_CACHE_KEEP_RECENT, protect=protect
    )
