"""Plays legal actions, then ignores `end` and sleeps: it never exits by itself."""

import json
import sys
import time

for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        print('{"index": 0}', flush=True)
    elif message["type"] == "end":
        while True:
            time.sleep(60)
