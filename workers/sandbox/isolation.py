"""How a bot process is isolated on this machine: what is available, and the pre-exec setup.

Five layers, each detected once and reported in every match record:

* ``uid``: run as an unprivileged uid of our own (one per live bot, from a
  lock-file pool), so RLIMIT_NPROC is enforced and other bots' files are
  unreadable. Needs root.
* ``network``: a private network namespace (only a loopback that is down), so
  no connection can be made, not even to 127.0.0.1. As root directly; as a
  normal user through a user namespace when the kernel allows it.
* ``filesystem``: a chroot jail on a fresh tmpfs that holds only the system
  folders (read-only, nosuid), a few device files, a private ``/tmp`` and the
  bot's own folder at ``/bot`` (read-only). Needs root (mount namespace).
* ``pid``: a private pid namespace via util-linux ``unshare --pid --kill-child``
  dropping to the uid itself (``--setuid``; ``setpriv`` where unshare lacks
  it), so killing one process ends every process the bot ever started, even
  ones that called ``setsid``. Bots with a uid run with ``no_new_privs``.
* ``memory``: one memory limit for the bot and everything it forks (a cgroup
  memory limit, no swap, and a process-count limit; ``workers.sandbox.memory_cgroup``).
  Needs root and the kernel's memory controller (cgroup v2, or v1 on a hybrid host).

Whatever the layers, a bot dies with the worker thread that started it: the
parent-death signal (SIGKILL) is set last in the pre-exec step, and again by
``setpriv --pdeathsig`` inside the pid namespace (a change of uid clears it).
Start bots from a thread that lives as long as the match (the runner does).

Resource limits (``setrlimit``) are applied whatever the layers; the address-space limit
of each process stays as a second fence behind the memory layer. Nothing here imports Django.
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import fcntl
import os
import resource
import shutil
import signal
import stat
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

from competition.limits import Limits

from .forklock import FILES_AND_FORKS
from .memory_cgroup import BotMemory, memory_control, rmdir_when_empty

CLONE_NEWNS = 0x00020000
CLONE_NEWCGROUP = 0x02000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWNET = 0x40000000
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT = 1, 2, 4, 32
MS_BIND, MS_REC, MS_PRIVATE = 4096, 16384, 1 << 18
PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38

JAIL_WORKDIR = "/bot"  # where the bot's folder appears inside the jail
JAIL_OUTDIR = "/out"  # a build's output folder inside the jail (the only writable bind)
SYSTEM_DIRS = ("/usr", "/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32")
DEVICES = {"null": (1, 3), "zero": (1, 5), "random": (1, 8), "urandom": (1, 9)}  # (major, minor)
UID_BASE = 200_000  # bot uids: UID_BASE .. UID_BASE + UID_SLOTS - 1, never real users
UID_SLOTS = 4096

_libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
_libc.mount.argtypes = [
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_char_p,
    ctypes.c_ulong,
    ctypes.c_char_p,
]
_libc.unshare.argtypes = [ctypes.c_int]
_libc.prctl.argtypes = [ctypes.c_int, *[ctypes.c_ulong] * 4]


LAYERS = ("uid", "network", "filesystem", "pid", "memory")
INCOMPLETE = "bot isolation incomplete"  # how the one line on missing layers begins


class IsolationMissing(RuntimeError):
    """Bots may not run here: a layer the deployment requires is missing (fail closed)."""


@dataclass(frozen=True)
class Isolation:
    """Which isolation layers a bot gets; ``notes`` say why a layer is missing."""

    uid: bool = False
    network: bool = False
    filesystem: bool = False
    pid: bool = False
    memory: bool = False
    notes: tuple[str, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "network": self.network,
            "filesystem": self.filesystem,
            "pid": self.pid,
            "memory": self.memory,
            "notes": list(self.notes),
        }

    def without(self, *layers: str) -> Isolation:
        """A copy with some layers turned off (tests, and machines that must opt out)."""
        return replace(self, **{name: False for name in layers})

    def missing(self, layers: tuple[str, ...] | list[str] = LAYERS) -> list[str]:
        """The layers of ``layers`` this machine lacks, in their order."""
        unknown = [name for name in layers if name not in LAYERS]
        if unknown:
            raise ValueError(f"unknown isolation layer {unknown[0]!r} (one of {', '.join(LAYERS)})")
        return [name for name in layers if not getattr(self, name)]

    def summary(self) -> str:
        """One line: which layers are missing, or '' when every layer is there."""
        missing = self.missing()
        return f"{INCOMPLETE}: no {', no '.join(missing)} isolation" if missing else ""

    def warnings(self) -> list[str]:
        """The summary line and why each layer is missing, for match records and the CLI."""
        summary = self.summary()
        return [summary, *self.notes] if summary else []

    def require(self, layers: tuple[str, ...] | list[str]) -> None:
        """Fail closed: raise ``IsolationMissing`` unless every layer of ``layers`` is here.
        Called before any bot process starts, so a bot never runs with less than required."""
        missing = self.missing(layers)
        if missing:
            why = "; ".join(self.notes)
            raise IsolationMissing(
                f"refusing to run bots: this worker has no {', no '.join(missing)} isolation, "
                f"which the deployment requires (SANDBOX_REQUIRED_ISOLATION)"
                + (f"; {why}" if why else "")
            )


# --- system calls used between fork and exec ---------------------------------------------


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _mount(
    source: str | None, target: str, fstype: str | None, flags: int, data: str | None = None
) -> None:
    _check(
        _libc.mount(
            source.encode() if source else None,
            target.encode(),
            fstype.encode() if fstype else None,
            flags,
            data.encode() if data else None,
        ),
        f"mount {target}",
    )


def _unshare(flags: int) -> None:
    _check(_libc.unshare(flags), "unshare")


def _bind_readonly(source: str, target: str) -> None:
    _mount(source, target, None, MS_BIND | MS_REC)
    _mount(None, target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _enter_user_namespace() -> None:
    """A user namespace mapping our own uid/gid to themselves (unprivileged network isolation)."""
    uid, gid = os.getuid(), os.getgid()
    _unshare(CLONE_NEWUSER | CLONE_NEWNET)
    with open("/proc/self/setgroups", "w") as f:
        f.write("deny")
    with open("/proc/self/gid_map", "w") as f:
        f.write(f"{gid} {gid} 1")
    with open("/proc/self/uid_map", "w") as f:
        f.write(f"{uid} {uid} 1")


def _copy_readonly(source: str, target: str) -> None:
    """The bot's folder as a read-only tmpfs of its own at ``target``: a copy, not a bind,
    because a bind's line in /proc/self/mountinfo names its host folder (the sandbox root)."""
    size = 0
    for folder, _dirs, files in os.walk(source):
        size += 4096 * (1 + len(files))  # tmpfs rounds each file up to a page
        size += sum(os.lstat(os.path.join(folder, name)).st_size for name in files)
    _mount("tmpfs", target, "tmpfs", MS_NOSUID | MS_NODEV, f"size={size + (1 << 20)},mode=0755")
    shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    _mount(None, target, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _build_jail(
    root: str, workdir: str, readonly_dirs: tuple[str, ...], tmp_mb: int, output_dir: str | None
) -> None:
    """Make ``root`` the bot's whole file system and chroot into it (we are in a new mount ns)."""
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=0755")
    bound: list[str] = []

    def bind(paths: tuple[str, ...]) -> None:
        for path in paths:
            if any(path == b or path.startswith(b + "/") for b in bound):
                continue
            inside = root + path
            if os.path.islink(path) and path.count("/") == 1:
                os.symlink(os.readlink(path), inside)
            elif os.path.isdir(path):
                os.makedirs(inside, exist_ok=True)
                _bind_readonly(path, inside)
                bound.append(path)

    bind(SYSTEM_DIRS)
    # Device nodes made in a small tmpfs of their own, rather than bound from the host's
    # devtmpfs, whose mount options (in /proc/self/mountinfo) tell the host's memory size.
    os.mkdir(root + "/dev")
    _mount("tmpfs", root + "/dev", "tmpfs", MS_NOSUID, "size=4k,nr_inodes=16,mode=0755")
    for name, (major, minor) in DEVICES.items():
        os.mknod(f"{root}/dev/{name}", 0o666 | stat.S_IFCHR, os.makedev(major, minor))
        os.chmod(f"{root}/dev/{name}", 0o666)  # whatever the umask
    _mount(None, root + "/dev", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID)
    for name in ("proc", "tmp", JAIL_WORKDIR.strip("/")):
        os.mkdir(f"{root}/{name}")
    _mount("tmpfs", root + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, f"size={tmp_mb}m,mode=1777")
    _copy_readonly(workdir, root + JAIL_WORKDIR)
    # The extra folders (an interpreter's prefix, the engine, numpy) last: one may lie under a
    # folder the jail makes itself, such as a checkout under /tmp.
    bind(readonly_dirs)
    if output_dir is not None:
        os.mkdir(root + JAIL_OUTDIR)
        _mount(output_dir, root + JAIL_OUTDIR, None, MS_BIND)
        _mount(None, root + JAIL_OUTDIR, None, MS_REMOUNT | MS_BIND | MS_NOSUID | MS_NODEV)
    _mount(None, root, None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
    os.chroot(root)
    os.chdir(JAIL_WORKDIR)


def _set_limits(limits: Limits, processes: bool, address_space_mb: int | None = None) -> None:
    mib = 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, ((address_space_mb or limits.memory_mb) * mib,) * 2)
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files,) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_mb * mib,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if processes:
        resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes,) * 2)


@dataclass(frozen=True)
class LaunchPlan:
    """Everything needed to start one bot process with the chosen isolation."""

    command: tuple[str, ...]  # the bot's argv, with paths as the bot sees them
    workdir: str  # host folder with the bot's files
    limits: Limits
    isolation: Isolation
    uid: int | None = None  # required when isolation.uid
    jail_root: str | None = None  # an empty host folder, required when isolation.filesystem
    readonly_dirs: tuple[str, ...] = ()  # extra host folders visible in the jail (interpreters)
    # RLIMIT_AS in MB when the language's runtime reserves address space it never uses
    # (Node's V8); None: limits.memory_mb.
    address_space_mb: int | None = None
    output_dir: str | None = None  # a host folder the process may write (builds), /out in a jail
    cgroup: str | None = None  # a cgroup v2 folder the process joins first (CPU accounting)
    # v1 cgroup folders it joins next (a hybrid host's memory and pids limits, memory_cgroup)
    joins: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.isolation.uid and self.uid is None:
            raise ValueError("uid isolation needs a uid")
        if self.isolation.filesystem and not self.jail_root:
            raise ValueError("filesystem isolation needs a jail root")

    def to_json(self) -> dict[str, Any]:
        """Plain data (for the fork server, ``workers.sandbox.forkserver``)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["limits"] = self.limits.to_json()
        out["isolation"] = self.isolation.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LaunchPlan:
        iso = dict(data["isolation"])
        iso["notes"] = tuple(iso.get("notes", ()))
        return cls(
            **{
                **data,
                "command": tuple(data["command"]),
                "readonly_dirs": tuple(data["readonly_dirs"]),
                "joins": tuple(data.get("joins", ())),
                "limits": Limits.from_json(data["limits"]),
                "isolation": Isolation(**iso),
            }
        )

    def argv(self) -> list[str]:
        """The argv to exec: the bot's command, wrapped for the pid namespace if used."""
        if not self.isolation.pid:
            return list(self.command)
        # The namespace's init (the bot itself) gets SIGKILL when unshare dies: unshare's
        # --kill-child sets that before dropping to the uid, and a change of uid clears it,
        # so ``setpriv --pdeathsig KILL`` sets it again as the last step before the bot runs.
        # unshare itself dies with the worker (PR_SET_PDEATHSIG in preexec), and the death
        # of a pid namespace's init kills every process in it.
        wrapper = [_tool("unshare"), "--pid", "--fork", "--kill-child", "--mount-proc"]
        tie = [_tool("setpriv"), "--pdeathsig", "KILL"] if _setpriv_pdeathsig() else []
        if not self.isolation.uid:
            return [*wrapper, "--", *self.command]
        if _unshare_sets_ids():
            # unshare drops to the uid itself (groups cleared, then gid, then uid) after
            # mounting /proc; no_new_privs is set in preexec and inherited.
            ids = [f"--setgid={self.uid}", f"--setuid={self.uid}"]
            return [*wrapper, *ids, "--", *(tie and [*tie, "--"]), *self.command]
        setpriv = [_tool("setpriv"), f"--reuid={self.uid}", f"--regid={self.uid}"]
        tied = tie[1:] if tie else []
        return [
            *wrapper, "--", *setpriv, "--clear-groups", "--no-new-privs", *tied, "--",
            *self.command,
        ]  # fmt: skip

    def preexec(self, error_fd: int) -> Callable[[], None]:
        """The function run in the child between fork and exec. Errors are written to
        ``error_fd`` (a pipe the parent reads) because the child's stderr is the bot's."""
        iso, limits, uid = self.isolation, self.limits, self.uid
        jail = (
            self.jail_root,
            self.workdir,
            self.readonly_dirs,
            4 * limits.file_size_mb,
            self.output_dir,
        )
        workdir, address_space_mb = self.workdir, self.address_space_mb
        parent = os.getpid()  # the worker: the bot must not outlive it
        cgroups = ((self.cgroup,) if self.cgroup is not None else ()) + self.joins

        def run() -> None:
            try:
                # Every process the bot starts is counted (CPU time) and limited (memory,
                # processes) there. First, so that the cgroup namespace of a jail starts there.
                for cgroup in cgroups:
                    with open(f"{cgroup}/cgroup.procs", "w") as f:
                        f.write("0")
                if iso.uid:  # no set-uid program may give the bot privileges back
                    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "no_new_privs")
                if iso.network and not iso.filesystem and os.geteuid() != 0:
                    _enter_user_namespace()
                elif iso.network or iso.filesystem:
                    # A jailed bot's cgroup namespace starts at the cgroup it just joined, so
                    # /proc/self/cgroup reads "0::/" and names no host cgroup.
                    _unshare(
                        (CLONE_NEWNET if iso.network else 0)
                        | (CLONE_NEWNS | CLONE_NEWCGROUP if iso.filesystem else 0)
                    )
                if iso.filesystem:
                    _build_jail(*jail)  # type: ignore[arg-type]
                else:
                    os.chdir(workdir)
                # The limits come after the jail is built: copying the bot's folder into it
                # (a bundle may carry weights past the bot's own file-size limit) is ours.
                _set_limits(limits, processes=iso.uid, address_space_mb=address_space_mb)
                if iso.uid and not iso.pid:
                    os.setgroups([])
                    os.setgid(uid)  # type: ignore[arg-type]
                    os.setuid(uid)  # type: ignore[arg-type]
                # Last, since a change of uid clears it: SIGKILL when the worker thread that
                # started us dies (kept across exec). A worker already gone: do not start.
                _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "pdeathsig")
                if os.getppid() != parent:
                    raise OSError("the worker died while the bot was starting")
            except BaseException as exc:
                with contextlib.suppress(OSError):
                    os.write(error_fd, f"{type(exc).__name__}: {exc}".encode()[:2000])
                raise

        return run


@cache
def _unshare_sets_ids() -> bool:
    """Whether util-linux ``unshare`` can drop to a uid itself (``--setuid``/``--setgid``)."""
    try:
        out = subprocess.run(
            [_tool("unshare"), "--help"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "--setuid" in out and "--setgid" in out


@cache
def _setpriv_pdeathsig() -> bool:
    """Whether util-linux ``setpriv`` can set the parent-death signal (2.33 and later)."""
    try:
        out = subprocess.run(
            [_tool("setpriv"), "--help"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return "--pdeathsig" in out


@cache
def _tool(name: str) -> str:
    found = shutil.which(name, path="/usr/bin:/bin:/usr/sbin:/sbin")
    if found is None:
        raise FileNotFoundError(f"{name} (util-linux) is not installed")
    return found


def spawn(plan: LaunchPlan, env: dict[str, str], **popen: Any) -> subprocess.Popen[bytes]:
    """Start the process of a plan in its own session; raises OSError with the child's reason."""
    read_fd, write_fd = os.pipe()
    try:
        try:
            with FILES_AND_FORKS:  # from fork to exec (Popen returns once the child exec'd)
                return subprocess.Popen(
                    plan.argv(),
                    env=env,
                    start_new_session=True,
                    close_fds=True,
                    preexec_fn=plan.preexec(write_fd),
                    **popen,
                )
        except subprocess.SubprocessError:
            os.close(write_fd)
            write_fd = -1
            reason = os.read(read_fd, 4096).decode(errors="replace") or "unknown reason"
            raise OSError(f"the sandbox could not start the bot: {reason}") from None
    finally:
        if write_fd >= 0:
            os.close(write_fd)
        os.close(read_fd)


# --- uids ------------------------------------------------------------------------------------


_CLEAN = b"clean"  # what a lock file holds once its uid was released with no process left
_RECORD = 16  # a lock file's content is one fixed-width record: rewritten in place, never
# truncated (a truncate of a file whose blocks are on disk costs ext4 milliseconds)


def _write_record(fd: int, value: bytes) -> None:
    os.pwrite(fd, value.ljust(_RECORD), 0)


def _is_clean(fd: int) -> bool:
    return os.pread(fd, 64, 0).strip() == _CLEAN


class UidLease:
    """One uid reserved for one bot while the lease's lock file stays locked.

    The lock file says whether the uid may still have processes: it holds the holder's pid
    while leased, and ``clean`` once the holder killed every process of the uid and let go.
    """

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd = fd

    def release(self, *, clean: bool = False) -> None:
        """Unlock the uid. ``clean`` (every process of the uid was killed) spares the next
        holder its own sweep; otherwise the next holder kills what may be left."""
        if self._fd >= 0:
            if clean:
                with contextlib.suppress(OSError):
                    _write_record(self._fd, _CLEAN)
            os.close(self._fd)
            self._fd = -1


def lease_uid(state_dir: Path, start: int | None = None) -> UidLease:
    """Reserve a uid no other live bot on this machine uses (flock on a file per uid).

    Leftover processes of the uid (from a worker that died, or a new lock file) are killed
    first; a uid its last holder released clean needs no sweep (one fork saved per bot).
    """
    locks = state_dir / "uids"
    locks.mkdir(mode=0o700, parents=True, exist_ok=True)
    first = (os.getpid() * 7 if start is None else start) % UID_SLOTS
    for k in range(UID_SLOTS):
        uid = UID_BASE + (first + k) % UID_SLOTS
        fd = os.open(locks / str(uid), os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            if not _is_clean(fd):
                kill_uid(uid)
            _write_record(fd, f"{os.getpid()}".encode())  # leased: not clean until released
        except BaseException:
            os.close(fd)
            raise
        return UidLease(uid, fd)
    raise OSError(f"all {UID_SLOTS} bot uids are in use")


def sweep_uids(state_dir: Path) -> int:
    """Kill what dead workers left running: every uid whose lock file is free (no live
    holder) but not marked clean gets its processes killed, and is marked clean. Returns
    how many uids were swept."""
    locks = state_dir / "uids"
    if not locks.is_dir():
        return 0
    swept = 0
    for entry in os.scandir(locks):
        if not entry.name.isdigit():
            continue
        try:
            fd = os.open(entry.path, os.O_RDWR | os.O_CLOEXEC)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            if not _is_clean(fd) and kill_uid(int(entry.name)):
                _write_record(fd, _CLEAN)
                swept += 1
        except OSError:  # held by a live bot (BlockingIOError), or unreadable: leave it
            pass
        finally:
            os.close(fd)
    return swept


# --- cgroups (v2): a bot's CPU time, counted for every process it ever started ---------------

CGROUP_ROOTS = ("/sys/fs/cgroup/unified", "/sys/fs/cgroup")  # hybrid mode, then pure v2
CGROUP_GROUP = "isle-arena"


@cache
def cgroup_base() -> Path | None:
    """The folder bot cgroups are made in (``<v2 root>/isle-arena``), or None where the
    machine has no writable cgroup v2 hierarchy: then CPU time is read from /proc.

    Found once per process; the hierarchy is then asked to favour dynamic changes
    (``favor_dynamic_moves``), since every bot start moves a process into a cgroup."""
    for root in CGROUP_ROOTS:
        if not os.path.exists(f"{root}/cgroup.procs") or not os.path.exists(f"{root}/cpu.stat"):
            continue
        base = Path(root, CGROUP_GROUP)
        probe = base / f"probe-{os.getpid()}"
        try:
            base.mkdir(exist_ok=True)
            probe.mkdir()
            probe.rmdir()
        except OSError:
            continue
        favor_dynamic_moves(root)
        return base
    return None


def _mount_options(mount_point: str) -> tuple[str, list[str]] | None:
    """The filesystem type and super-block options of the mount at ``mount_point``."""
    with contextlib.suppress(OSError), open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            if len(fields) > 4 and fields[4] == mount_point and " - " in line:
                fstype, _source, options = line.split(" - ", 1)[1].split()[:3]
                return fstype, options.split(",")
    return None


def favor_dynamic_moves(root: str) -> bool:
    """Remount the cgroup v2 hierarchy at ``root`` with ``favordynmods`` (Linux 6.0+) when
    it lacks it; True when the option is on afterwards.

    Without it, each write to ``cgroup.procs`` (one per bot start) waits for an RCU grace
    period: 10-20 ms a bot, measured on a 2-core worker, which was most of a sandboxed bot's
    start. With it, moving a process costs microseconds and forks and exits cost a little
    more, the trade the kernel documents for hosts that move processes often: a bot worker.
    Only as root; ``ISLE_CGROUP_FAVORDYNMODS=0`` leaves the host's mount as it is."""
    if os.environ.get("ISLE_CGROUP_FAVORDYNMODS", "1") == "0" or os.geteuid() != 0:
        return False
    found = _mount_options(root)
    if found is None or found[0] != "cgroup2":
        return False
    options = [o for o in found[1] if o not in ("rw", "ro")]
    if "favordynmods" in options:
        return True
    data = ",".join([*options, "favordynmods"])
    try:
        _mount("cgroup2", root, "cgroup2", MS_REMOUNT, data)
    except OSError:
        return False
    return True


def cgroup_cpu_seconds(path: str) -> float:
    """``usage_usec`` of a cgroup's cpu.stat: the CPU time of every process that was in it."""
    with open(f"{path}/cpu.stat", "rb") as f:
        return parse_cpu_stat(f.read(), path)


def parse_cpu_stat(text: bytes, path: str = "cgroup") -> float:
    """Seconds of ``usage_usec`` in the text of a cgroup v2 ``cpu.stat``."""
    if text.startswith(b"usage_usec "):  # the first line on every kernel with cgroup v2
        return int(text[11 : text.index(b"\n")]) / 1_000_000
    for line in text.splitlines():
        if line.startswith(b"usage_usec "):
            return int(line.split()[1]) / 1_000_000
    raise OSError(f"{path}/cpu.stat has no usage_usec")


def cgroup_remove(path: str, timeout: float = 2.0) -> bool:
    """Kill what is left in a bot's cgroup and remove it (busy until its processes are gone).
    True once it is removed: then no process that was ever in it is alive."""
    with contextlib.suppress(OSError), open(f"{path}/cgroup.kill", "w") as f:
        f.write("1")
    return rmdir_when_empty(path, timeout)


def kill_uid(uid: int) -> bool:
    """SIGKILL every process of ``uid``: ``kill(-1)`` sent by a forked child running as that
    uid reaches exactly that uid's processes, however they detached themselves. The kernel
    signals them all under one lock that ``fork`` also needs, so none can slip away by forking.
    True when the child got to send the signal (the uid then has no process left to run).
    """
    with FILES_AND_FORKS:
        pid = os.fork()
    if pid == 0:  # pragma: no cover - the child only drops to the uid and signals
        status = 1
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            with contextlib.suppress(ProcessLookupError):  # no process of the uid: done
                os.kill(-1, signal.SIGKILL)
            status = 0
        finally:
            os._exit(status)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status) == 0


def uid_processes(uid: int) -> list[int]:
    """Live (non-zombie) processes whose real uid is ``uid`` (a /proc scan)."""
    out = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/status") as f:
                status = f.read()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("State", "").strip().startswith("Z"):
            continue
        if int(fields.get("Uid", "-1").split()[0]) == uid:
            out.append(int(entry.name))
    return out


# --- detection ---------------------------------------------------------------------------------


def _probe(plan: LaunchPlan) -> str | None:
    """Start ``true`` under a plan; None if it worked, else the reason."""
    try:
        proc = spawn(
            plan,
            env={"PATH": "/usr/bin:/bin"},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        _, err = proc.communicate(timeout=10)
    except (OSError, subprocess.SubprocessError) as exc:
        return str(exc)
    if proc.returncode != 0:
        return f"exit status {proc.returncode}: {err.decode(errors='replace').strip()[:200]}"
    return None


@cache
def detect_isolation() -> Isolation:
    """Probe each layer once per process by starting ``true`` under it."""
    notes: list[str] = []
    true = shutil.which("true", path="/usr/bin:/bin") or "/bin/true"
    limits = Limits()
    root = os.geteuid() == 0
    base = Path(tempfile.mkdtemp(prefix="isle-probe-"))
    try:

        workdir = base / "bot"  # beside the jail, never around it: the jail copies it
        workdir.mkdir()

        def probe(iso: Isolation, label: str, **extra: Any) -> bool:
            plan = LaunchPlan(
                command=(true,), workdir=str(workdir), limits=limits, isolation=iso, **extra
            )
            reason = _probe(plan)
            if reason is not None:
                notes.append(f"{label}: {reason}")
            return reason is None

        uid = False
        if root:
            uid = probe(Isolation(uid=True), "uid", uid=UID_BASE + UID_SLOTS - 1)
        else:
            notes.append("uid: not running as root, so bots run as our own uid")
        network = probe(Isolation(network=True), "network")
        filesystem = False
        if root:
            jail = base / "jail"
            jail.mkdir()
            filesystem = probe(Isolation(filesystem=True), "filesystem", jail_root=str(jail))
        else:
            notes.append("filesystem: not running as root, so no jail")
        pid = False
        try:
            _tool("unshare")
            if not _unshare_sets_ids():
                _tool("setpriv")
        except FileNotFoundError as exc:
            notes.append(f"pid: {exc}")
        else:
            if root:
                pid = probe(Isolation(pid=True, uid=uid), "pid", uid=UID_BASE + UID_SLOTS - 1)
            else:
                notes.append("pid: not running as root")
        memory = _probe_memory(probe, notes) if root else False
        if not root:
            notes.append("memory: not running as root, so no cgroup memory limit")
        return Isolation(
            uid=uid, network=network, filesystem=filesystem, pid=pid, memory=memory,
            notes=tuple(notes),
        )  # fmt: skip
    finally:
        shutil.rmtree(base, ignore_errors=True)


def _probe_memory(probe: Callable[..., bool], notes: list[str]) -> bool:
    """Whether a process can start in a memory-limited cgroup of its own (``probe`` starts
    ``true`` under a plan); why not goes to ``notes``."""
    v2_base = cgroup_base()
    control = memory_control(v2_base)
    if isinstance(control, str):
        notes.append(f"memory: {control}")
        return False
    name = f"probe-{os.getpid()}-memory"  # swept like a bot's if this process dies
    v2_folder = None
    try:
        if control.version == 2:
            assert v2_base is not None
            (v2_base / name).mkdir(exist_ok=True)
            v2_folder = str(v2_base / name)
        memory = BotMemory(control, name, Limits().memory_mb, Limits().processes, v2_folder)
    except OSError as exc:
        notes.append(f"memory: cannot set a cgroup memory limit ({exc})")
        if v2_folder is not None:
            cgroup_remove(v2_folder)
        return False
    try:
        return probe(Isolation(memory=True), "memory", cgroup=v2_folder, joins=memory.joins)
    finally:
        memory.remove()
        if v2_folder is not None:
            cgroup_remove(v2_folder)


def network_isolation_available() -> bool:
    """Whether bots on this machine can be cut off from every network (even 127.0.0.1)."""
    return detect_isolation().network
