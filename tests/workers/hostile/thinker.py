"""Computes for THINK seconds of CPU time per decision, or sleeps SLEEP seconds when SLEEP is
set (the fair-time tests write copies with their own values), then plays legally."""

import json
import sys
import time

THINK = 0.3
SLEEP = 0.0

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        if SLEEP:
            time.sleep(SLEEP)
        started = time.process_time()
        while time.process_time() - started < THINK:
            pass
        print('{"index": 1}', flush=True)
