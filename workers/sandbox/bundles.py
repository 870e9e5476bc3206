"""Bot bundles: what a bot author uploads, validated and unpacked for the sandbox.

A bundle is either one source file (``.py``, ``.js``), or a ``.zip`` with a
``bot.json`` manifest at its top (or inside its single top-level folder)::

    {"entrypoint": "main.py", "language": "python3"}

Languages and how to run them are data (``workers/data/languages.json``: a
command template per language, or a build recipe for compiled languages, see
``workers.sandbox.build``), so adding one needs no code here. A ``binary`` entry point
must be a static Linux x86-64 ELF executable (``workers.sandbox.elf``). Every
check raises ``BundleError`` with one readable reason. Pure: no Django, no
network; the tournament service calls ``validate_bundle`` on upload and the
sandbox calls ``unpack_bundle`` before a match.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import stat
import sys
import zipfile
import zlib
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from pathlib import Path, PurePosixPath
from typing import Any

from .elf import ElfError, check_static_x86_64
from .forklock import FILES_AND_FORKS

MAX_BUNDLE_BYTES = 32 * 1024 * 1024  # the uploaded file (settings.BOT_UPLOAD_MAX_BYTES)
MAX_ENTRIES = 500  # files and folders in a zip
MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024  # all files of a zip, unpacked
MAX_MANIFEST_BYTES = 16 * 1024
# A zip entry's name as a file system takes it: each part of the path at most 255 bytes (the
# NAME_MAX of Linux file systems), the whole path at most 1024, so that with the folder it is
# unpacked into it stays far below PATH_MAX (4096).
MAX_NAME_PART_BYTES = 255
MAX_PATH_BYTES = 1024
MANIFEST = "bot.json"
MANIFEST_KEYS = {"entrypoint", "language", "name", "version", "description"}
SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"  # where interpreters are looked up
_SAFE_NAME = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$")

Source = str | os.PathLike[str] | bytes


class BundleError(ValueError):
    """A bundle that cannot be run; ``reason`` is one sentence for the bot author."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class BundleInfo:
    filename: str
    kind: str  # "file" (a single source file) or "zip"
    sha256: str
    size: int  # bytes of the bundle as uploaded
    language: str
    entrypoint: str  # path of the entry point inside the unpacked bundle
    files: int  # files once unpacked
    unpacked_size: int
    name: str | None = None  # from the manifest, if given
    version: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@cache
def languages() -> dict[str, dict[str, Any]]:
    """The language table: name -> interpreter, command template, entry point suffixes."""
    text = resources.files("workers.data").joinpath("languages.json").read_text(encoding="utf-8")
    return json.loads(text)


def _read_source(source: Source, filename: str | None, max_bytes: int) -> tuple[bytes, str]:
    if isinstance(source, (bytes, bytearray, memoryview)):
        if not filename:
            raise BundleError("a bundle given as bytes needs its file name")
        data = bytes(source)
    else:
        path = Path(source)
        filename = filename or path.name
        try:
            size = path.stat().st_size
        except OSError as exc:
            raise BundleError(f"cannot read the bundle {path}: {exc.strerror}") from None
        if size > max_bytes:
            raise BundleError(f"the bundle is {size} bytes; the limit is {max_bytes} bytes")
        data = path.read_bytes()
    if len(data) > max_bytes:
        raise BundleError(f"the bundle is {len(data)} bytes; the limit is {max_bytes} bytes")
    if not data:
        raise BundleError("the bundle is empty")
    return data, filename


def read_bundle(
    source: Source, filename: str | None = None, *, max_bytes: int = MAX_BUNDLE_BYTES
) -> tuple[bytes, str]:
    """A bundle's bytes and file name, read once (a path, or bytes with their name)."""
    return _read_source(source, filename, max_bytes)


def set_bot_permissions(folder: Path, info: BundleInfo) -> int:
    """Give an unpacked bundle the permissions a bot reads it with (folders 0755, files 0644,
    an entry point that runs itself 0755); returns the bytes of its files."""
    executable = folder / info.entrypoint
    runs_itself = "executable" in language_spec(info.language)
    size = 0
    for path in folder.rglob("*"):
        runnable = path.is_dir() or (runs_itself and path == executable)
        os.chmod(path, 0o755 if runnable else 0o644)
        if path.is_file():
            size += path.stat().st_size
    os.chmod(folder, 0o755)
    return size


def language_spec(language: str) -> dict[str, Any]:
    """One language's row of the table; ``BundleError`` for a language we do not know."""
    spec = languages().get(language)
    if spec is None:
        raise BundleError(f"unknown language {language!r}")
    return spec


def needs_build(info: BundleInfo) -> bool:
    """Whether a bundle is sources to compile (``workers.sandbox.build``) before it can run."""
    return "build" in language_spec(info.language)


def _single_file_suffixes() -> dict[str, str]:
    return {
        suffix: name
        for name, spec in languages().items()
        if spec.get("single_file")
        for suffix in spec["entrypoint_suffixes"]
    }


def upload_formats() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What an upload may be, from the language table: the suffixes a single-file bundle may
    have (".py", ".js", ...) and the labels of the languages a zip may hold, in table order.
    Every page, message and document that lists the formats draws on this."""
    return tuple(_single_file_suffixes()), tuple(spec["label"] for spec in languages().values())


def _language_for_suffix(filename: str) -> str | None:
    return _single_file_suffixes().get(PurePosixPath(filename).suffix.lower())


def single_file_language(filename: str) -> str | None:
    """The language a one-file bundle of this name runs in ("python3" for bot.py), or None
    when the name is not that of a language that runs from one file."""
    return _language_for_suffix(filename)


def safe_file_name(name: str) -> bool:
    """Whether ``name`` is a plain file name a bundle may use (no folder, no leading dot)."""
    return bool(_SAFE_NAME.match(name))


def _safe_member(name: str) -> PurePosixPath:
    """The relative path of a zip entry, or a BundleError when it could escape the folder."""
    if not name or "\x00" in name or "\\" in name:
        raise BundleError(f"zip entry {name!r} has an invalid name")
    path = PurePosixPath(name)
    if path.is_absolute() or name.startswith("/"):
        raise BundleError(f"zip entry {name!r} is an absolute path")
    if not path.parts:
        raise BundleError(f"zip entry {name!r} has an invalid name")
    if any(part == ".." for part in path.parts):
        raise BundleError(f"zip entry {name!r} leaves the bundle folder ('..')")
    if ":" in path.parts[0]:
        raise BundleError(f"zip entry {name!r} names a drive")
    if len(str(path).encode()) > MAX_PATH_BYTES:
        raise BundleError(f"zip entry {_shown(name)} has a path longer than {MAX_PATH_BYTES}"
                          " bytes: it cannot be unpacked")  # fmt: skip
    for part in path.parts:
        if len(part.encode()) > MAX_NAME_PART_BYTES:
            raise BundleError(
                f"zip entry {_shown(name)} has a name longer than {MAX_NAME_PART_BYTES} bytes"
                f" ({_shown(part)}): it cannot be unpacked"
            )
    return path


def _shown(name: str, keep: int = 60) -> str:
    """A name for a message, cut short when long (the start says which entry it is)."""
    return repr(name) if len(name) <= keep else repr(name[:keep]) + f"... ({len(name)} characters)"


def _check_tree(files: set[PurePosixPath], folders: set[PurePosixPath]) -> None:
    """A BundleError when one name is both a file and a folder (``a`` and ``a/b``): the zip
    could not be unpacked onto a file system."""
    for path in files:
        if path in folders:
            raise BundleError(
                f"zip entry {str(path)!r} is a file, and other entries put files inside"
                f" {str(path) + '/'!r} as a folder: it cannot be unpacked"
            )


@dataclass(frozen=True)
class _ZipPlan:
    root: PurePosixPath  # the folder holding bot.json ("." or the single top-level folder)
    members: list[tuple[zipfile.ZipInfo, PurePosixPath]]  # files to extract, paths from root
    manifest: dict[str, Any]
    unpacked_size: int


def _open_zip(data: bytes) -> zipfile.ZipFile:
    try:
        return zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        raise BundleError("the bundle is not a valid zip archive") from None


def _is_plain_file(info: zipfile.ZipInfo) -> bool:
    """Whether an entry is a file to unpack (False for a folder); a BundleError for entries a
    bundle may not hold, which could reach outside its folder or hide what it holds."""
    mode = info.external_attr >> 16
    if stat.S_ISLNK(mode):
        raise BundleError(f"zip entry {info.filename!r} is a symbolic link")
    if info.flag_bits & 0x1:
        raise BundleError(f"zip entry {info.filename!r} is encrypted")
    if info.is_dir():
        return False
    if stat.S_IFMT(mode) not in (0, stat.S_IFREG):
        raise BundleError(f"zip entry {info.filename!r} is not a regular file")
    return True


def _checked_entries(
    infos: list[zipfile.ZipInfo],
) -> tuple[set[PurePosixPath], list[tuple[zipfile.ZipInfo, PurePosixPath]], int]:
    """Every entry's path (folders too), the files with their paths, and the bytes the files
    unpack to; a BundleError at the first entry that breaks a rule or the size limit."""
    if len(infos) > MAX_ENTRIES:
        raise BundleError(f"the zip has {len(infos)} entries; the limit is {MAX_ENTRIES}")
    seen: set[PurePosixPath] = set()
    folders: set[PurePosixPath] = set()
    files: list[tuple[zipfile.ZipInfo, PurePosixPath]] = []
    total = 0
    for info in infos:
        path = _safe_member(info.filename)
        if path in seen:
            raise BundleError(f"zip entry {_shown(info.filename)} appears twice")
        seen.add(path)
        folders.update(path.parents)
        if not _is_plain_file(info):
            folders.add(path)
            continue
        total += info.file_size
        if total > MAX_UNCOMPRESSED_BYTES:
            raise BundleError(f"the zip unpacks to more than {MAX_UNCOMPRESSED_BYTES} bytes")
        files.append((info, path))
    _check_tree({p for _, p in files}, folders)
    return seen, files, total


def _manifest_root(seen: set[PurePosixPath], names: set[PurePosixPath]) -> PurePosixPath:
    """The folder holding the manifest: the zip's top, or its single top-level folder (as
    zipping a folder makes it)."""
    if PurePosixPath(MANIFEST) in names:
        return PurePosixPath(".")
    tops = {p.parts[0] for p in seen}
    nested = PurePosixPath(next(iter(tops)), MANIFEST) if len(tops) == 1 else None
    if nested is None or nested not in names:
        raise BundleError(
            f"the zip has no {MANIFEST} manifest at its top (or in its single folder)"
        )
    return nested.parent


def _read_manifest(archive: zipfile.ZipFile, manifest_info: zipfile.ZipInfo) -> Any:
    if manifest_info.file_size > MAX_MANIFEST_BYTES:
        raise BundleError(f"{MANIFEST} is larger than {MAX_MANIFEST_BYTES} bytes")
    try:
        return json.loads(archive.read(manifest_info).decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise BundleError(f"{MANIFEST} is not valid JSON: {exc}") from None
    except (zipfile.BadZipFile, OSError) as exc:
        raise BundleError(f"{MANIFEST} cannot be read from the zip: {exc}") from None


def _plan_zip(data: bytes, *, check_intact: bool = True) -> _ZipPlan:
    """What a zip bundle holds, checked. ``check_intact`` decompresses every member to check
    its CRC (uploads); unpacking leaves it out, since extracting checks the same CRCs."""
    with _open_zip(data) as archive:
        seen, files, total = _checked_entries(archive.infolist())
        root = _manifest_root(seen, {p for _, p in files})
        members = [
            (i, p.relative_to(root))
            for i, p in files
            if root == PurePosixPath(".") or p.is_relative_to(root)
        ]
        for info, _ in files if check_intact else ():
            _check_member_intact(archive, info)
        manifest_info = next(i for i, p in members if p == PurePosixPath(MANIFEST))
        manifest = _read_manifest(archive, manifest_info)
    return _ZipPlan(root, members, manifest, total)


def _check_member_intact(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> None:
    """Decompress one member and check its CRC, so a damaged zip is refused at upload rather
    than failing later at unpack time on a worker. Bounded: zipfile stops at the declared size,
    whose sum was checked against MAX_UNCOMPRESSED_BYTES."""
    try:
        with archive.open(info) as member:
            while member.read(1 << 16):
                pass
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError) as exc:
        raise BundleError(f"zip entry {info.filename!r} is damaged: {exc}") from None
    except NotImplementedError:
        raise BundleError(
            f"zip entry {info.filename!r} uses a compression method this server cannot read"
        ) from None


def _check_manifest(manifest: Any, paths: set[PurePosixPath]) -> tuple[str, str]:
    if not isinstance(manifest, dict):
        raise BundleError(f"{MANIFEST} must be a JSON object")
    unknown = sorted(set(manifest) - MANIFEST_KEYS)
    if unknown:
        raise BundleError(
            f"{MANIFEST} has unknown key(s) {unknown}; keys: {', '.join(sorted(MANIFEST_KEYS))}"
        )
    for key in ("name", "version", "description"):
        if key in manifest and not isinstance(manifest[key], str):
            raise BundleError(f"{MANIFEST}: {key!r} must be a string")
    language = manifest.get("language")
    if language not in languages():
        known = ", ".join(sorted(languages()))
        raise BundleError(f"{MANIFEST}: 'language' must be one of: {known} (got {language!r})")
    entrypoint = manifest.get("entrypoint")
    if not isinstance(entrypoint, str) or not entrypoint:
        raise BundleError(f"{MANIFEST}: 'entrypoint' must be a file path inside the bundle")
    entry = _safe_member(entrypoint)
    if entry not in paths:
        raise BundleError(f"{MANIFEST}: the entrypoint {entrypoint!r} is not in the bundle")
    suffixes = languages()[language]["entrypoint_suffixes"]
    if suffixes and entry.suffix.lower() not in suffixes:
        raise BundleError(f"{MANIFEST}: a {language} entrypoint ends with {' or '.join(suffixes)}")
    return language, str(entry)


def _inspect(
    data: bytes, filename: str, *, check_intact: bool = True
) -> tuple[BundleInfo, _ZipPlan | None]:
    digest = hashlib.sha256(data).hexdigest()
    base = PurePosixPath(filename.replace("\\", "/")).name
    if base.lower().endswith(".zip"):
        plan = _plan_zip(data, check_intact=check_intact)
        paths = {p for _, p in plan.members}
        language, entrypoint = _check_manifest(plan.manifest, paths)
        if languages()[language].get("executable") == "elf-static-x86-64":
            _check_executable(data, plan, entrypoint)
        info = BundleInfo(
            filename=base,
            kind="zip",
            sha256=digest,
            size=len(data),
            language=language,
            entrypoint=entrypoint,
            files=len(plan.members),
            unpacked_size=plan.unpacked_size,
            name=plan.manifest.get("name"),
            version=plan.manifest.get("version"),
        )
        return info, plan
    language = _language_for_suffix(base)
    if language is None:
        suffixes = sorted(_single_file_suffixes())
        raise BundleError(
            f"a bundle is a .zip with a {MANIFEST} manifest or one source file "
            f"({', '.join(suffixes)}); got {base!r}"
        )
    if b"\x00" in data:
        raise BundleError(f"{base} is not a text file")
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise BundleError(f"{base} is not UTF-8 text (byte {exc.start})") from None
    entry = base if _SAFE_NAME.match(base) else "bot" + PurePosixPath(base).suffix.lower()
    info = BundleInfo(
        filename=base,
        kind="file",
        sha256=digest,
        size=len(data),
        language=language,
        entrypoint=entry,
        files=1,
        unpacked_size=len(data),
    )
    return info, None


def _check_executable(data: bytes, plan: _ZipPlan, entrypoint: str) -> None:
    """A binary bundle's entry point must be a static Linux x86-64 ELF executable."""
    zinfo = next(i for i, p in plan.members if str(p) == entrypoint)
    with zipfile.ZipFile(io.BytesIO(data)) as archive, archive.open(zinfo) as src:
        head = src.read(1 << 16)
    try:
        check_static_x86_64(head)
    except ElfError as exc:
        raise BundleError(f"{MANIFEST}: the binary entrypoint {entrypoint!r}: {exc}") from None


def validate_bundle(
    source: Source, filename: str | None = None, *, max_bytes: int = MAX_BUNDLE_BYTES
) -> BundleInfo:
    """Check a bundle (a path or its bytes) without unpacking it; raises ``BundleError``."""
    data, filename = _read_source(source, filename, max_bytes)
    info, _ = _inspect(data, filename)
    return info


def unpack_bundle(
    source: Source,
    filename: str | None = None,
    dest: str | os.PathLike[str] = ".",
    *,
    max_bytes: int = MAX_BUNDLE_BYTES,
) -> BundleInfo:
    """Validate a bundle and write its files into ``dest`` (created; must be empty)."""
    data, filename = _read_source(source, filename, max_bytes)
    info, plan = _inspect(data, filename, check_intact=False)  # extraction checks the CRCs
    target = Path(dest)
    target.mkdir(parents=True, exist_ok=True)
    if any(target.iterdir()):
        raise BundleError(f"cannot unpack into {target}: the folder is not empty")
    with FILES_AND_FORKS:  # no fork of this process holds these files open for writing
        _write_members(data, info, plan, target)
    return info


def _write_members(data: bytes, info: BundleInfo, plan: _ZipPlan | None, target: Path) -> None:
    if plan is None:
        (target / info.entrypoint).write_bytes(data)
        return
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for zinfo, rel in plan.members:
            out = target.joinpath(*rel.parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            written = 0
            try:
                with archive.open(zinfo) as src, open(out, "wb") as dst:
                    while chunk := src.read(1 << 16):
                        written += len(chunk)
                        if written > zinfo.file_size:
                            raise BundleError(
                                f"zip entry {zinfo.filename!r} is larger than declared"
                            )
                        dst.write(chunk)
            except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
                raise BundleError(f"zip entry {zinfo.filename!r} is damaged: {exc}") from None


def resolve_interpreter(language: str) -> str:
    """The absolute path of a language's interpreter on this machine.

    ``ISLE_BOT_<NAME>`` (e.g. ``ISLE_BOT_PYTHON3``) overrides; else the first
    match on a fixed system PATH, so bots never run the project's virtualenv;
    Python falls back to the interpreter the project runs on.
    """
    spec = language_spec(language)
    if "interpreter" not in spec:
        raise BundleError(f"{language} bots run without an interpreter")
    return resolve_tool(spec["interpreter"])


def resolve_tool(name: str) -> str:
    """A program bots need (interpreter, compiler) on the fixed system PATH, or its override."""
    override = os.environ.get(f"ISLE_BOT_{name.upper().replace('+', 'X').replace('-', '_')}")
    if override:
        return override
    found = shutil.which(name, path=SAFE_PATH)
    if found:
        return found
    if name.startswith("python"):
        base = getattr(sys, "_base_executable", None) or sys.executable
        return str(Path(base).resolve())
    raise BundleError(f"no {name} is installed on this machine")


def heap_mb(language: str, memory_mb: int) -> int:
    """The managed heap a language's runtime is told to keep within (Node's V8 old space)."""
    return max(16, int(memory_mb * float(language_spec(language).get("heap_fraction", 1.0))))


def address_space_mb(language: str, memory_mb: int) -> int:
    """The RLIMIT_AS a bot of this language gets: its memory limit, plus the address space its
    runtime reserves without ever using it (V8 reserves about 700 MB at start)."""
    return memory_mb + int(language_spec(language).get("address_space_extra_mb", 0))


def bot_command(info: BundleInfo, entrypoint_dir: str, memory_mb: int = 512) -> list[str]:
    """The argv that runs a bundle whose files are at ``entrypoint_dir`` (as the bot sees it)."""
    spec = language_spec(info.language)
    if "build" in spec:
        raise BundleError(f"a {info.language} bundle must be built before it runs")
    entrypoint = str(PurePosixPath(entrypoint_dir, info.entrypoint))
    values = {
        "interpreter": resolve_interpreter(info.language) if "interpreter" in spec else "",
        "entrypoint": entrypoint,
        "heap_mb": heap_mb(info.language, memory_mb),
    }
    return [part.format(**values) for part in spec["command"]]
