"""Logs from a background thread all the time, also while other seats think, and plays
legally: its logging must never block it (nor us)."""

import json
import sys
import threading


def chatter():
    n = 0
    while True:
        sys.stderr.write(f"background log {n} " + "z" * 100 + "\n")
        n += 1


threading.Thread(target=chatter, daemon=True).start()
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        print('{"index": 1}', flush=True)
