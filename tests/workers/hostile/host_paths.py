"""Reads what a process learns of its host from /proc: /proc/self/cgroup (the host's cgroup
path) and /proc/self/mountinfo (every mount, with the host folder each bind comes from), as
the bot itself and as a child it starts. Sends all it read as the debug note of its first
decision (the test raises the notes' length limit), and plays legally."""

import json
import os
import sys


def read(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError as exc:
        return f"unreadable: {exc}"


def views():
    own = {"cgroup": read("/proc/self/cgroup"), "mountinfo": read("/proc/self/mountinfo")}
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # a process of the bot's own, reading its own /proc/self
        os.close(read_fd)
        child = {"cgroup": read("/proc/self/cgroup"), "mountinfo": read("/proc/self/mountinfo")}
        os.write(write_fd, json.dumps(child).encode())
        os._exit(0)
    os.close(write_fd)
    chunks = []
    while chunk := os.read(read_fd, 65536):
        chunks.append(chunk)
    os.waitpid(pid, 0)
    return {"bot": own, "child": json.loads(b"".join(chunks) or b"{}")}


report = json.dumps(views())
print(f"host_paths: {len(report)} characters read", file=sys.stderr, flush=True)

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        print(json.dumps({"index": 0, "debug": report}), flush=True)
        report = ""
