"""Ignores SIGTERM and SIGHUP and leaves descendants behind: a child in its own session and a
grandchild, both ignoring the same signals, with MARKER in their argv (the orphan test writes
a copy with a marker of its own). Plays slowly so that a match lasts while its worker is killed.
"""

import json
import signal
import subprocess
import sys
import time

MARKER = "stubborn-bot"
LEAF = (
    "import signal, time\n"
    "signal.signal(signal.SIGTERM, signal.SIG_IGN)\n"
    "signal.signal(signal.SIGHUP, signal.SIG_IGN)\n"
    "while True:\n"
    "    time.sleep(1)\n"
)
PARENT = (
    f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {LEAF!r}, sys.argv[1]])\n"
)

for sig in (signal.SIGTERM, signal.SIGHUP):
    signal.signal(sig, signal.SIG_IGN)

try:
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            subprocess.Popen([sys.executable, "-c", PARENT + LEAF, MARKER], start_new_session=True)
            print('{"ready": true}', flush=True)
        elif message["type"] == "decide":
            time.sleep(0.05)
            print('{"index": 1}', flush=True)
except OSError:  # a broken pipe: its worker is gone
    pass
while True:  # stay anyway
    time.sleep(1)
