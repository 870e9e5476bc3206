"""Looks for files it must not read: the paths in targets.json (the project's settings.py, the
sandbox root), other processes' folders through /proc, and anything under the sandbox root
that holds "SECRET-". Reports what it read in its debug notes and plays legally.

The search is bounded in files and in time, and opens regular files only (a FIFO would block its
open, and /proc, /sys and /dev hold no other bot's files), so that it answers "start" well inside
the startup limit on any machine, however full its /tmp or slow its disk."""

import json
import os
import stat
import sys
import time

with open("targets.json") as f:
    targets = json.load(f)
found = []


def try_read(path):
    try:
        with open(path, "rb") as f:
            data = f.read(4096)
    except OSError:
        return
    found.append(f"{path}: {data[:60]!r}")


for path in targets["files"]:
    try_read(path)
roots = [targets["sandbox_root"], "/tmp"]
roots += [f"/proc/{pid}/cwd" for pid in os.listdir("/proc") if pid.isdigit()]
here = os.getcwd()


PSEUDO = ("/proc", "/sys", "/dev")


def search(limit=3000, seconds=2.0):
    """Open up to ``limit`` files under the roots, for up to ``seconds``, looking for another
    bot's secret."""
    deadline = time.monotonic() + seconds
    for root in roots:
        for folder, subfolders, files in os.walk(root):
            if time.monotonic() > deadline:
                return
            real = os.path.realpath(folder)
            # our own folder holds this very file; the pseudo-filesystems hold no bot's files
            if real.startswith(here) or (folder != root and real.startswith(PSEUDO)):
                subfolders.clear()
                continue
            for name in files:
                limit -= 1
                if limit < 0 or time.monotonic() > deadline:
                    return
                path = os.path.join(folder, name)
                try:
                    if not stat.S_ISREG(os.stat(path).st_mode):
                        continue
                    with open(path, "rb") as f:
                        if b"SECRET-" in f.read(4096):
                            found.append(f"secret in {path}")
                except OSError:
                    pass


search()
print(f"read_outside: {found or 'nothing readable'}", file=sys.stderr, flush=True)
note = ("READ " + " | ".join(found)) if found else "denied"

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        print(json.dumps({"index": 0, "debug": note[:190]}), flush=True)
