"""The processes of a running stack, read from /proc, for the tests that kill a worker: whose
children and descendants they are, which are still alive, and a bot that leaves a marked process
of its own behind so that a test can tell whether the bots of a killed worker outlived it.

A process is named by (pid, start time), so a pid the kernel hands out again (pid_max may be
as low as 32768) is never taken for the process that had it before.
"""

from __future__ import annotations

from pathlib import Path

Proc = tuple[int, int]  # (pid, start time in clock ticks since boot)


def stubborn_bot(marker: str, decide_seconds: float) -> bytes:
    """A Python bot that sleeps ``decide_seconds`` per decision and plays the first legal
    action. It ignores SIGTERM and SIGHUP, starts a child in a session of its own with
    ``marker`` in its argv, and outlives the end of its input and a broken pipe, so only dying
    with its worker (or the next worker's sweep) can end it and its child."""
    return f"""import json, signal, subprocess, sys, time
for sig in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN)
LEAF = ("import signal, time\\nsignal.signal(signal.SIGTERM, signal.SIG_IGN)\\n"
        "signal.signal(signal.SIGHUP, signal.SIG_IGN)\\nwhile True: time.sleep(1)\\n")
try:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            subprocess.Popen([sys.executable, "-c", LEAF, {marker!r}], start_new_session=True)
            reply = {{"ready": True}}
        elif message["type"] == "decide":
            time.sleep({decide_seconds!r})
            reply = {{"index": 0}}
        elif message["type"] == "end":
            break
        else:
            continue
        sys.stdout.write(json.dumps(reply) + "\\n")
        sys.stdout.flush()
except OSError:
    pass
while True:
    time.sleep(1)
""".encode()


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first), or None."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def _table() -> dict[int, tuple[int, int, str]]:
    """pid -> (parent pid, start time, state) of every process."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and (fields := _stat(entry.name)) is not None:
            table[int(entry.name)] = (int(fields[1]), int(fields[19]), fields[0])
    return table


def children(pid: int) -> list[int]:
    """The pids of the direct children of ``pid`` (a Celery worker's pool processes)."""
    return [child for child, (parent, _, _) in _table().items() if parent == pid]


def descendants(pid: int) -> set[Proc]:
    """Every live process below ``pid``, at any depth (a worker's pool, fork server, bots
    and what the bots started, in whatever session or pid namespace)."""
    table = _table()
    found: set[Proc] = set()
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, start, state) in table.items():
            if ppid == parent and state not in ("Z", "X"):
                found.add((child, start))
                frontier.append(child)
    return found


def marked(marker: str) -> list[int]:
    """Live (non-zombie) processes with ``marker`` in their argv."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            fields = _stat(entry.name)
            if marker.encode() in cmdline and fields is not None and fields[0] not in ("Z", "X"):
                out.append(int(entry.name))
    return out


def alive(procs: set[Proc]) -> set[Proc]:
    """Those of ``procs`` that still run (same pid and start time, not a zombie)."""
    out = set()
    for pid, start in procs:
        fields = _stat(pid)
        if fields is not None and int(fields[19]) == start and fields[0] not in ("Z", "X"):
            out.add((pid, start))
    return out
