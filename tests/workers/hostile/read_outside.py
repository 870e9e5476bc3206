"""Looks for files it must not read: the paths in targets.json (the project's settings.py, the
sandbox root), other processes' folders through /proc, and anything under the sandbox root
that holds "SECRET-". Reports what it read in its debug notes and plays legally."""

import json
import os
import sys

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


def search(limit=3000):
    """Open up to ``limit`` files under the roots, looking for another bot's secret."""
    for root in roots:
        for folder, _, files in os.walk(root):
            if os.path.realpath(folder).startswith(here):
                continue  # our own folder holds this very file
            for name in files:
                limit -= 1
                if limit < 0:
                    return
                path = os.path.join(folder, name)
                try:
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
