"""Sleeps SLEEP seconds before each answer (legal, index 0): it uses no CPU time, only the
wall clock. The tests pass the time through a copy of this file with SLEEP changed."""

import json
import sys
import time

SLEEP = 0.5
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        time.sleep(SLEEP)
        print('{"index": 0}', flush=True)
