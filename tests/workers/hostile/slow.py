"""Computes for 0.5 s of CPU time per decision: legal but late, so it drains the time bank
and then times out (the limits charge CPU time, so it must compute, not sleep)."""

import json
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        started = time.process_time()
        while time.process_time() - started < 0.5:
            pass
        print('{"index": 1}', flush=True)
