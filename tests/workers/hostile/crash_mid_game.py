"""Plays three legal actions, then raises."""

import json
import sys

decisions = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        decisions += 1
        if decisions > 3:
            raise RuntimeError("boom in the middle of the game")
        print('{"index": 0}', flush=True)
