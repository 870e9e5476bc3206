"""Exits with status 3 at its first decision, unless it sits in seat 0: it passes validation
(which seats the new version in seat 0) and crashes in league matches elsewhere, like a bot that
exits whenever it sits in seat 2."""

import json
import sys

seat = 0
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "start":
        seat = message["seat"]
        print('{"ready": true}', flush=True)
    elif message["type"] == "decide":
        if seat != 0:
            print("giving up in seat", seat, file=sys.stderr, flush=True)
            sys.exit(3)
        print('{"index": 0}', flush=True)
